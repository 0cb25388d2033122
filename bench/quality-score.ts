/**
 * What `bun run bench quality` measures: the planted facts of a session (the paths it touched,
 * the commands it ran, the rules its user stated, the last request) and how many of them a
 * model's own sections kept, Session Facts excluded (code writes that section; the question is
 * what the model kept). Pure: a document and a session in, a score out.
 */
import { userConstraints } from "../core/handoff/notes/constraints.ts";
import { analyzeBranch } from "../core/session/analyze.ts";
import { parseSession } from "../core/session/formats/pi/parse.ts";

export type FactKind = "path" | "command" | "constraint" | "request";

export interface Fact {
  kind: FactKind;
  text: string;
}

export interface Score {
  kept: Fact[];
  missed: Fact[];
  /** kept / all, 0 to 1 (1 when there was nothing to keep). */
  share: number;
}

/** Commands longer than this are matched by their start: models shorten long commands, fairly. */
const COMMAND_PREFIX = 80;
/** A rule or a request is kept when this share of its significant words is in the document. */
const WORD_SHARE = 0.6;

/** The facts a good handoff of `sessionText` keeps, read off the branch by code. */
export function plantedFacts(sessionText: string): Fact[] {
  const session = parseSession(sessionText);
  const analysis = analyzeBranch(session);
  const cwd = session.header.cwd;
  const relative = (path: string) => (cwd && path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path);
  const paths = [...new Set([...analysis.facts.filesModified, ...analysis.facts.filesRead].map(relative))];
  const commands = [...new Set(analysis.facts.commands.map((c) => c.command.split("\n")[0]?.trim() ?? "").filter((c) => c !== ""))];
  const facts: Fact[] = [
    ...paths.map((text): Fact => ({ kind: "path", text })),
    ...commands.map((text): Fact => ({ kind: "command", text })),
    ...userConstraints(analysis.context).map((text): Fact => ({ kind: "constraint", text })),
  ];
  const last = analysis.facts.lastUserRequest?.trim();
  if (last) facts.push({ kind: "request", text: last });
  return facts;
}

/** The document without its Session Facts section: what the model itself wrote. */
export function modelSections(document: string): string {
  const at = document.search(/^## Session Facts\s*$/m);
  return at === -1 ? document : document.slice(0, at);
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

function significantWords(text: string): Set<string> {
  // A word may hold dots and slashes (a path), but not at its end (the sentence's full stop).
  const words = (text.toLowerCase().match(/[a-z0-9][a-z0-9_./-]*/g) ?? []).map((w) => w.replace(/[./-]+$/, ""));
  return new Set(words.filter((w) => w.length >= 4));
}

/** Whether `body` keeps `fact`: a path or a command as written (a long command by its start); a rule or a request by most of its words. */
export function keeps(body: string, fact: Fact): boolean {
  switch (fact.kind) {
    case "path":
      return body.includes(fact.text);
    case "command":
      return squash(body).includes(squash(fact.text).slice(0, COMMAND_PREFIX));
    case "constraint":
    case "request": {
      const wanted = significantWords(fact.text);
      if (wanted.size === 0) return true;
      const present = significantWords(body);
      const found = [...wanted].filter((w) => present.has(w)).length;
      return found / wanted.size >= WORD_SHARE;
    }
  }
}

export function scoreDocument(document: string, facts: readonly Fact[]): Score {
  const body = modelSections(document);
  const kept = facts.filter((f) => keeps(body, f));
  const missed = facts.filter((f) => !keeps(body, f));
  return { kept, missed, share: facts.length === 0 ? 1 : kept.length / facts.length };
}

const KINDS: readonly FactKind[] = ["path", "command", "constraint", "request"];
const LABELS: Record<FactKind, string> = { path: "paths", command: "commands", constraint: "rules", request: "last request" };

/** One session's line (and its misses): `name: 9/12 kept (75%) — paths 4/4, …`. */
export function formatScore(name: string, score: Score): string[] {
  const all = [...score.kept, ...score.missed];
  const byKind = KINDS.filter((kind) => all.some((f) => f.kind === kind)).map(
    (kind) => `${LABELS[kind]} ${score.kept.filter((f) => f.kind === kind).length}/${all.filter((f) => f.kind === kind).length}`,
  );
  const head = `${name}: ${score.kept.length}/${all.length} planted facts kept (${Math.round(score.share * 100)}%) — ${byKind.join(", ")}`;
  return [head, ...score.missed.map((f) => `  - missed ${f.kind}: ${f.text.length > 100 ? `${f.text.slice(0, 99)}…` : f.text}`)];
}
