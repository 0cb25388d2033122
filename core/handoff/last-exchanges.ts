/**
 * The `## Last Exchanges` section: the end of the branch as it was, newest last, so the state at
 * the end (the last error, what the user just said) never depends on a summary or a heuristic.
 * Code writes it after the six sections and Session Facts (spec step 6 allows code's own sections
 * there; section checks count the six). What people and the assistant wrote is quoted whole up to
 * a cap; tool output is cut in the middle (its head says what ran, its tail how it ended).
 * Deterministic; written from the redacted context like Session Facts, so the secrets guard
 * restores it and withholds the key like every other written text.
 */
import { markFencedLines } from "./fences.ts";
import type { ContextMessage, ToolResultContextMessage, UserBlock } from "../session/messages.ts";
import { pathNormalizer, relativeInText } from "../session/paths.ts";
import { describeOutcome, displayCommand, judgeRun } from "../session/runs.ts";
import { classifyToolCall, type ToolAction, toolFraming } from "../session/tools.ts";
import { readToolResult } from "../session/tool-output.ts";
import { countWords } from "./notes/text.ts";
import { inlineCode, shortCommand } from "./notes/inline-code.ts";

export const LAST_EXCHANGES_HEADING = "## Last Exchanges";

export interface LastExchangesOptions {
  /** Words the section may hold, its heading and note included (default 1,500). */
  maxWords?: number;
  /** The session's folder: paths a tool call names inside it are shown relative to it. */
  cwd?: string;
}

export interface LastExchanges {
  /** The section, heading first, no trailing newline; undefined when the branch has nothing to show. */
  section: string | undefined;
  /** The branch's newest message a person typed is quoted in it (Session Facts then need not repeat it). */
  holdsLastRequest: boolean;
}

/** Words kept of one text: the whole of it up to `whole`, else `head` words from its start and `tail` from its end. */
interface Cut {
  whole: number;
  head: number;
  tail: number;
}

const USER_CUT: Cut = { whole: 400, head: 150, tail: 200 };
const ASSISTANT_CUT: Cut = { whole: 300, head: 100, tail: 150 };
const OUTPUT_CUT: Cut = { whole: 120, head: 30, tail: 80 };
/** A line longer than this is cut in its middle too (minified code, a long log line). */
const MAX_LINE_CHARS = 400;

function capLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const cut = line.length - MAX_LINE_CHARS;
  return `${line.slice(0, MAX_LINE_CHARS / 2)} […${cut} characters cut…] ${line.slice(-MAX_LINE_CHARS / 2)}`;
}

/** The lines of a text with its middle cut out when it is longer than the cut allows. */
export function cutMiddle(text: string, cut: Cut): string[] {
  // Only CRLF is a line end: a lone carriage return is part of what was written, kept verbatim.
  const lines = text
    .replace(/\r\n/g, "\n")
    .replace(/^\n+|\s+$/g, "")
    .split("\n")
    .map(capLine);
  if (countWords(lines.join("\n")) <= cut.whole) return lines;
  const head: string[] = [];
  let words = 0;
  for (const line of lines) {
    const n = countWords(line);
    if (head.length > 0 && words + n > cut.head) break;
    head.push(line);
    words += n;
  }
  const tail: string[] = [];
  words = 0;
  for (let i = lines.length - 1; i >= head.length; i--) {
    const line = lines[i] ?? "";
    const n = countWords(line);
    if (tail.length > 0 && words + n > cut.tail) break;
    tail.unshift(line);
    words += n;
  }
  // A text of few, very long lines: keep the start of the first and the end of the last.
  if (countWords([...head, ...tail].join("\n")) > cut.head + cut.tail) {
    const flat = lines.join(" ").split(/\s+/);
    return [`${flat.slice(0, cut.head).join(" ")} […${flat.length - cut.head - cut.tail} words cut…] ${flat.slice(-cut.tail).join(" ")}`];
  }
  const dropped = lines.length - head.length - tail.length;
  return dropped > 0 ? [...head, `[…${dropped} lines cut…]`, ...tail] : [...head, ...tail];
}

function blocksText(content: readonly UserBlock[]): string {
  return content.map((block) => (block.type === "text" ? block.text : `[image: ${block.mimeType}]`)).join("\n");
}

/** Quoted as a block quote: nothing in it can read as a heading or close a fence of ours. */
function quoted(lines: readonly string[]): string[] {
  return lines.map((line) => (line.trim() === "" ? ">" : `> ${line}`));
}

/**
 * Output as an indented code block: no fence its text could close, and no line of it starts
 * with `#`, so nothing in it reads as one of the document's sections to any check.
 */
function indented(lines: readonly string[]): string[] {
  return ["", ...lines.map((line) => (line.trim() === "" ? "" : `    ${line}`)), ""];
}

/** What a tool call asked for, in a few words and the document's one vocabulary: `run `cmd``, `read `path``, `change `path``. */
function describeCall(action: ToolAction, name: string, args: unknown, cwd: string | undefined): { label: string; subject: string } {
  const normalize = pathNormalizer(cwd);
  const paths = (list: readonly string[]) => list.map((p) => inlineCode(normalize(p))).join(", ");
  if (action.kind === "shell") {
    const subject = inlineCode(shortCommand(displayCommand(action.command, cwd), 300));
    return { label: `run ${subject}`, subject };
  }
  if (action.kind === "read") return { label: `read ${paths(action.paths)}`, subject: paths(action.paths) };
  if (action.kind === "write") {
    const subject = paths([...action.paths, ...action.deleted]);
    return { label: `change ${subject}`, subject };
  }
  const shown = typeof args === "string" ? args : JSON.stringify(args ?? {});
  const subject = `${inlineCode(name)} ${inlineCode(shortCommand(relativeInText(shown, cwd), 200))}`;
  return { label: `call ${subject}`, subject };
}

interface Call {
  action: ToolAction;
  /** `run `cmd``, in the list of the assistant's calls. */
  label: string;
  /** `cmd` or `path`, heading its result. */
  subject: string;
}

/** The result read as Session Facts read it: whose words count depends on the agent's tool. */
function readResult(call: Call | undefined, message: ToolResultContextMessage, output: string) {
  return readToolResult(output, message.isError, message.exitCode, {
    framing: toolFraming(message.toolName),
    shell: call?.action.kind === "shell",
  });
}

/** How a call ended, in the words Session Facts use for runs; a call that never ran says so. */
function describeEnding(call: Call | undefined, message: ToolResultContextMessage, output: string, cwd: string | undefined): string {
  const reading = readResult(call, message, output);
  if (reading.refused) return call?.action.kind === "shell" ? "refused: it never ran" : "failed: no effect";
  if (reading.cutShort) return "cut short";
  if (reading.couldNotRun) return "could not run";
  if (call?.action.kind !== "shell") return reading.failed ? "failed" : "done";
  return describeOutcome(
    { command: call.action.command, ...judgeRun(call.action.command, reading.exitCode, reading.body, message.reportedFailed === true) },
    cwd,
  );
}

/** One message as the lines that show it; undefined for what is not an exchange (our wrappers, empty turns). */
function renderMessage(message: ContextMessage, calls: ReadonlyMap<string, Call>, cwd: string | undefined): string[] | undefined {
  const local = (text: string) => relativeInText(text, cwd);
  if (message.role === "user") {
    const text = blocksText(message.content);
    if (text.trim() === "") return undefined;
    if (message.kind === "user") return ["**User:**", ...quoted(cutMiddle(local(text), USER_CUT))];
    if (message.kind === "bashExecution") return ["**User ran** (with `!`):", ...indented(cutMiddle(local(text), OUTPUT_CUT))];
    return undefined;
  }
  if (message.role === "toolResult") {
    const call = calls.get(message.toolCallId);
    const output = blocksText(message.content);
    const ending = describeEnding(call, message, output, cwd);
    // A change that went through says nothing the call list does not ("change `path`").
    if (call?.action.kind === "write" && ending === "done") return undefined;
    const body = readResult(call, message, output).body;
    const shown = body.trim() === "" ? ["(no output)"] : cutMiddle(local(body), OUTPUT_CUT);
    return [`**Result** (${call === undefined ? "" : `${call.subject}: `}${ending}):`, ...indented(shown)];
  }
  const lines: string[] = [];
  const text = message.content.flatMap((block) => (block.type === "text" && block.text.trim() !== "" ? [block.text] : [])).join("\n\n");
  if (text !== "") lines.push("**Assistant:**", ...quoted(cutMiddle(local(text), ASSISTANT_CUT)));
  const made = message.content.flatMap((block) =>
    block.type === "toolCall" ? [`- ${calls.get(block.id)?.label ?? inlineCode(block.name)}`] : [],
  );
  if (made.length > 0) lines.push(...(lines.length > 0 ? [""] : []), "**The assistant's tool calls:**", ...made);
  return lines.length > 0 ? lines : undefined;
}

/** Every tool call of the messages, by id, with the words that name it. */
function callsOf(context: readonly ContextMessage[], from: number, cwd: string | undefined): Map<string, Call> {
  const calls = new Map<string, Call>();
  for (let i = from; i < context.length; i++) {
    const message = context[i];
    if (message?.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const action = classifyToolCall(block.name, block.arguments);
      calls.set(block.id, { action, ...describeCall(action, block.name, block.arguments, cwd) });
    }
  }
  return calls;
}

/** Where the exchanges since the last summary start: a summary stands for what it replaced. */
function firstAfterSummary(context: readonly ContextMessage[]): number {
  for (let i = context.length - 1; i >= 0; i--) {
    const message = context[i];
    if (message?.role === "user" && (message.kind === "compactionSummary" || message.kind === "branchSummary")) return i + 1;
  }
  return 0;
}

/**
 * The last exchanges of the branch, newest last, within the word budget: whole messages from
 * the end backwards while they fit, each cut to its own cap first.
 */
export function renderLastExchanges(context: readonly ContextMessage[], options: LastExchangesOptions = {}): LastExchanges {
  const maxWords = options.maxWords ?? 1500;
  const start = firstAfterSummary(context);
  // Calls are named from where the tail could begin; a result whose call is older says only how it ended.
  const calls = callsOf(context, Math.max(start, context.length - 400), options.cwd);
  const lastRequest = context.findLastIndex((m) => m.role === "user" && m.kind === "user" && blocksText(m.content).trim() !== "");
  const kept: string[][] = [];
  let words = 40; // the heading and the note
  let earliest = context.length;
  for (let i = context.length - 1; i >= start; i--) {
    const message = context[i];
    const lines = message === undefined ? undefined : renderMessage(message, calls, options.cwd);
    if (lines === undefined) continue;
    const n = countWords(lines.join("\n"));
    // Contiguous: the first message that does not fit ends the tail (the newest always fits, cut to its cap).
    if (kept.length > 0 && words + n > maxWords) break;
    kept.unshift(lines);
    words += n;
    earliest = i;
  }
  if (kept.length === 0) return { section: undefined, holdsLastRequest: false };
  const earlier = earliest - start;
  const shown = kept.length === 1 ? "the last message" : `the last ${kept.length} messages`;
  const note = `The end of the branch as it was recorded, newest last: ${shown}${earlier > 0 ? ` (${earlier} earlier not shown)` : ""}. Quoted by code, not written by a model; long texts and tool output are cut in the middle.`;
  const section = [LAST_EXCHANGES_HEADING, note, "", ...kept.flatMap((lines) => [...lines, ""])].join("\n").trimEnd();
  return { section, holdsLastRequest: lastRequest >= 0 && lastRequest >= earliest };
}

/** Where each `## Last Exchanges` section starts and ends (line indices), outside code fences. */
function tailRanges(lines: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  const isFenced = markFencedLines(lines);
  let open: number | undefined;
  lines.forEach((line, i) => {
    if (isFenced[i] !== false || !/^ {0,3}#{1,2}\s/.test(line)) return;
    if (open !== undefined) ranges.push([open, i]);
    open = /^ {0,3}##\s+Last Exchanges\s*#*\s*$/i.test(line) ? i : undefined;
  });
  if (open !== undefined) ranges.push([open, lines.length]);
  return ranges;
}

/** Puts the tail last, after a blank line; one already in the document (a model echoing it) is replaced, never doubled. */
export function appendLastExchanges(document: string, section: string): string {
  const lines = document.split("\n");
  for (const [start, end] of tailRanges(lines).reverse()) lines.splice(start, end - start);
  const body = lines.join("\n").trimEnd();
  return body === "" ? section.trimEnd() : `${body}\n\n${section.trimEnd()}`;
}
