import type { CommandRun, SessionFacts } from "../session/facts.ts";
import { uniquePaths } from "../session/paths.ts";
import { describeOutcome, displayCommand } from "../session/runs.ts";
import { markFencedLines } from "./fences.ts";
import { inlineCode, shortCommand } from "./notes/inline-code.ts";
import { countOf } from "../format.ts";

export interface SessionFactsOptions {
  /** Paths listed per file list before "+N more" (default 15). */
  maxFiles?: number;
  /** Commands listed before "+N more" (default 15). */
  maxCommands?: number;
  /** Characters of the last user request kept verbatim (default 1500). */
  maxRequestChars?: number;
  /** Rules the user stated, as sentences quoted from their messages (see `userConstraints`). */
  constraints?: readonly string[];
  /** Constraints listed before "+N more" (default 10). */
  maxConstraints?: number;
  /** The source was read as a stream (stdin, a pipe): `sourcePath` names it, but no file is there. */
  sourceIsStream?: boolean;
  /** The source is a session kept as rows of the database `sourcePath` names. */
  sourceRow?: SourceRow;
  /** `## Last Exchanges` quotes the last request: point there instead of repeating it. */
  lastRequestInTail?: boolean;
}

/** A source session kept as rows of its agent's database (opencode's): its id there, and what the database is called. */
export interface SourceRow {
  id: string;
  label: string;
}

const HEADING = "## Session Facts";

function listLines(items: readonly string[], max: number, asCode = true): string[] {
  const lines = items.slice(0, max).map((item) => `  - ${asCode ? inlineCode(item) : item}`);
  if (items.length > max) lines.push(`  - … +${items.length - max} more`);
  return lines;
}

/**
 * Picks which runs to show when there are too many: up to a third of the slots for the newest
 * failures, the rest for the newest runs, kept in the order they ran.
 */
function pickCommands(commands: readonly CommandRun[], max: number): number[] {
  if (commands.length <= max) return commands.map((_, i) => i);
  const chosen = new Set<number>();
  for (let i = commands.length - 1; i >= 0 && chosen.size < Math.floor(max / 3); i--) {
    const run = commands[i];
    if (run?.failed) chosen.add(i);
  }
  for (let i = commands.length - 1; i >= 0 && chosen.size < max; i--) chosen.add(i);
  return [...chosen].sort((a, b) => a - b);
}

function commandLines(commands: readonly CommandRun[], max: number, cwd: string | undefined): string[] {
  if (commands.length === 0) return ["- Commands run: none"];
  const failed = commands.filter((run) => run.failed).length;
  const byUser = commands.filter((c) => c.by === "user").length;
  const counts = [`${commands.length}`, `${failed} failed`];
  if (byUser > 0) counts.push(`${byUser} run by the user with \`!\``);
  const lines = [`- Commands run (${counts.join("; ")}):`];
  // The hidden runs are marked where they ran, so no one takes them for runs after the last one shown.
  const hidden = (count: number) => `  - … ${countOf(count, "run")} not shown here`;
  let next = 0;
  for (const i of pickCommands(commands, max)) {
    const run = commands[i];
    if (!run) continue;
    if (i > next) lines.push(hidden(i - next));
    next = i + 1;
    const who = run.by === "user" ? ", run by the user with `!`" : "";
    lines.push(`  - ${inlineCode(shortCommand(displayCommand(run.command, cwd)))} — ${describeOutcome(run, cwd)}${who}`);
  }
  if (next < commands.length) lines.push(hidden(commands.length - next));
  return lines;
}

function requestLines(request: string | undefined, max: number): string[] {
  if (request === undefined || request.trim() === "") return ["- Last user request: none recorded"];
  const text = request.replace(/\r\n/g, "\n").replace(/^\n+|\s+$/g, "");
  const kept = text.length > max ? text.slice(0, max) : text;
  const quoted = kept.split("\n").map((line) => (line.trim() === "" ? "  >" : `  > ${line}`));
  if (kept.length < text.length) quoted.push(`  > […cut: ${text.length - kept.length} more characters]`);
  return ["- Last user request (verbatim):", "", ...quoted];
}

/**
 * The `## Session Facts` section: what code read off the branch, so no summary can lose it.
 * Deterministic; no trailing newline.
 */
export function renderSessionFacts(facts: SessionFacts, sourcePath: string, options: SessionFactsOptions = {}): string {
  const maxFiles = options.maxFiles ?? 15;
  const maxCommands = options.maxCommands ?? 15;
  const maxRequestChars = options.maxRequestChars ?? 1500;
  // Idempotent on facts from collectFacts; facts built elsewhere get the one path form too.
  const modified = uniquePaths(facts.filesModified, facts.cwd);
  const deleted = uniquePaths(facts.filesDeleted, facts.cwd);
  const changed = new Set([...modified, ...deleted]);
  const readOnly = uniquePaths(facts.filesRead, facts.cwd).filter((path) => !changed.has(path));

  const lines = [HEADING, "Read from the session file by code, not written by a model.", ""];
  lines.push(
    options.sourceRow
      ? `- Source session: ${inlineCode(options.sourceRow.id)} in ${options.sourceRow.label}, ${inlineCode(sourcePath)}`
      : options.sourceIsStream
        ? `- Source session: read from ${inlineCode(sourcePath)}, a stream (no file to return to)`
        : `- Source session: ${inlineCode(sourcePath)}`,
  );
  lines.push(modified.length === 0 ? "- Files modified: none" : `- Files modified (${modified.length}):`, ...listLines(modified, maxFiles));
  if (deleted.length > 0) lines.push(`- Files deleted (${deleted.length}):`, ...listLines(deleted, maxFiles));
  lines.push(
    readOnly.length === 0 ? "- Files read but not modified: none" : `- Files read but not modified (${readOnly.length}):`,
    ...listLines(readOnly, maxFiles),
  );
  lines.push(...commandLines(facts.commands, maxCommands, facts.cwd));
  const constraints = [...new Set(options.constraints ?? [])];
  if (constraints.length > 0) {
    lines.push(
      `- Rules the user stated (${constraints.length}, quoted):`,
      ...listLines(
        constraints.map((c) => `"${c}"`),
        options.maxConstraints ?? 10,
        false,
      ),
    );
  }
  lines.push(
    ...(options.lastRequestInTail
      ? ["- Last user request: quoted under Last Exchanges"]
      : requestLines(facts.lastUserRequest, maxRequestChars)),
  );
  return lines.join("\n");
}

/** Where each `## Session Facts` section starts and ends (line indices), outside code fences. */
function factsSectionRanges(lines: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  const fenced = markFencedLines(lines);
  let open: number | undefined;
  lines.forEach((line, i) => {
    if (fenced[i] !== false || !/^ {0,3}#{1,2}\s/.test(line)) return;
    if (open !== undefined) ranges.push([open, i]);
    open = /^ {0,3}##\s+Session Facts\s*#*\s*$/i.test(line) ? i : undefined;
  });
  if (open !== undefined) ranges.push([open, lines.length]);
  return ranges;
}

/**
 * Puts the facts section after the document, separated by a blank line. A `## Session Facts`
 * section already in the document (a model echoing one) is replaced, never duplicated.
 */
export function appendSessionFacts(document: string, factsSection: string): string {
  const lines = document.split("\n");
  for (const [start, end] of factsSectionRanges(lines).reverse()) lines.splice(start, end - start);
  const body = lines.join("\n").trimEnd();
  const section = factsSection.trimEnd();
  return body === "" ? section : `${body}\n\n${section}`;
}
