/**
 * Claude Code's compaction: a `system` line with `subtype: "compact_boundary"` starts a new
 * root (`parentUuid: null`) and names the line it follows in `logicalParentUuid`; the next line,
 * a `user` line with `isCompactSummary`, holds the summary. `compactMetadata.preservedSegment`
 * (`headUuid` … `tailUuid`) or `preservedMessages.uuids` name messages from before it that the
 * model still sees, after the summary (Claude Code 2.1.328 links them in when it loads a file).
 *
 * In the common model the boundary hangs from its logical parent, so the branch runs through the
 * history before the compaction: Session Facts see the files and commands a summary may have
 * dropped (as they do for pi). The summary line is the `compaction` entry, whose
 * `firstKeptEntryId` is the first preserved message: the context is the summary, the preserved
 * messages, then what follows, as Claude Code sends it.
 */
import { arrayField, isObject, numberField, stringField, type JsonObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";
import { PASS_THROUGH_PREFIX, type ChainBuilder } from "./chain.ts";

export interface Boundary {
  /** The first message kept from before the compaction. */
  firstKeptUuid: string | undefined;
  /** How many tokens the conversation had when it was compacted. */
  tokensBefore: number | undefined;
}

export type Boundaries = Map<Entry, Boundary>;

function firstPreserved(metadata: JsonObject): string | undefined {
  const segment = isObject(metadata.preservedSegment) ? metadata.preservedSegment : undefined;
  const head = segment ? stringField(segment, "headUuid") : undefined;
  if (head !== undefined) return head;
  const listed = isObject(metadata.preservedMessages) ? arrayField(metadata.preservedMessages, "uuids") : undefined;
  const first: unknown = listed?.[0];
  return typeof first === "string" ? first : undefined;
}

export interface SystemLine {
  uuid: string;
  parentUuid: string | null;
  line: number;
  record: JsonObject;
}

/** Adds a `system` line: a compaction boundary, or another note that sits in the chain. */
export function addSystemLine(chain: ChainBuilder, boundaries: Boundaries, line: SystemLine): void {
  const subtype = stringField(line.record, "subtype");
  if (subtype !== "compact_boundary") {
    chain.add(`${PASS_THROUGH_PREFIX}system`, line.uuid, line.line, line.parentUuid, {}, { conversation: false });
    return;
  }
  const logicalParent = stringField(line.record, "logicalParentUuid");
  const metadata = isObject(line.record.compactMetadata) ? line.record.compactMetadata : {};
  const entry = chain.add(
    `${PASS_THROUGH_PREFIX}compact-boundary`,
    line.uuid,
    line.line,
    logicalParent ?? line.parentUuid,
    {},
    {
      conversation: false,
      // A file whose lines before the boundary were pruned: the boundary is a root, as written.
      fallbackParentUuid: line.parentUuid,
    },
  );
  boundaries.set(entry, { firstKeptUuid: firstPreserved(metadata), tokensBefore: numberField(metadata, "preTokens") });
}

/** How Claude Code (2.1.328 and earlier) opens a compaction summary: its words, not the summary's. */
const SUMMARY_PREFACE = "This session is being continued from a previous conversation";
/**
 * The whole preface as the versions we know wrote it: 1.0 "… ran out of context. The conversation
 * is summarized below:" then a line break, 2.1.328 "… The summary below covers the earlier portion
 * of the conversation." then a blank line. Another wording is cut at the end of its line.
 */
const KNOWN_PREFACE =
  /^This session is being continued from a previous conversation that ran out of context\.[ \t]*(?:The conversation is summarized below:|The summary below covers the earlier portion of the conversation\.)/;

/** The text after Claude Code's preface, whatever follows it (a blank line, one line break, the summary on the same line). */
function afterPreface(text: string): string {
  if (!text.startsWith(SUMMARY_PREFACE)) return text;
  const known = KNOWN_PREFACE.exec(text);
  if (known) return text.slice(known[0].length);
  const lineEnd = text.indexOf("\n");
  return lineEnd === -1 ? "" : text.slice(lineEnd + 1);
}

/** The text without its `<system-reminder>…</system-reminder>` blocks (and the newline after each); one left open stays. */
function withoutReminders(text: string): string {
  const open = "<system-reminder>";
  const close = "</system-reminder>";
  const parts: string[] = [];
  let from = 0;
  for (let start = text.indexOf(open); start !== -1; start = text.indexOf(open, from)) {
    const end = text.indexOf(close, start + open.length);
    if (end === -1) break;
    parts.push(text.slice(from, start));
    from = end + close.length + (text[end + close.length] === "\n" ? 1 : 0);
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/**
 * How the paragraphs Claude Code appends after a summary open (2.1.328: where the full transcript
 * is, "continue without asking", "the messages after this summary are kept verbatim"; older
 * versions: "Please continue the conversation …"). They speak to the model, not of the work.
 */
export const SUMMARY_TRAILER_OPENINGS: readonly string[] = [
  "If you need specific details from before compaction",
  "Continue the conversation from where it left off",
  "Please continue the conversation from where we left it off",
  "The messages after this summary are the most recent messages",
];

/** The text up to the first line that opens one of Claude Code's trailing paragraphs. */
function beforeTrailer(text: string): string {
  let end = text.length;
  for (const opening of SUMMARY_TRAILER_OPENINGS) {
    const at = text.indexOf(`\n${opening}`);
    if (at !== -1 && at < end) end = at;
  }
  return text.slice(0, end);
}

/**
 * The summary a compaction line holds, without what Claude Code wraps around it: its opening
 * sentences (the context wrapper says what a summary is), its system reminders (a list of the
 * tools used before it) and its closing paragraphs (where the transcript is, how to continue).
 * What is left is the summary the model wrote. Linear in the text.
 */
export function summaryOf(text: string): string {
  const body = beforeTrailer(withoutReminders(afterPreface(text).trimStart())).trim();
  return body === "" ? text : body;
}

/** The boundary a summary line hangs from, if it does. */
export function boundaryOf(boundaries: Boundaries, parent: Entry | undefined): Boundary | undefined {
  return parent ? boundaries.get(parent) : undefined;
}
