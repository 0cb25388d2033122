/**
 * Lines of a rollout that hold nothing to read, recognised from their bytes so they are neither
 * decoded nor parsed (see `splitLines`'s `passOver`): about half of a rollout's lines and bytes
 * are events, records and encrypted reasoning.
 */
import { isWholeObject, type MemberReader, objectEnd, OPEN_BRACE, QUOTE, spells, stringEnd, valueEnd, wasEscaped } from "./json-bytes.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Line types that are no conversation; any other type this reader does not know is reported once. */
export const PASSED_OVER: ReadonlySet<string> = new Set(["event_msg", "world_state", "token_usage_record"]);

const TYPE = utf8("type");
const PAYLOAD = utf8("payload");
const SUMMARY = utf8("summary");
const CONTENT = utf8("content");
const EVENT = utf8("event_msg");
const WORLD_STATE = utf8("world_state");
const TOKEN_RECORD = utf8("token_usage_record");
const RESPONSE_ITEM = utf8("response_item");
/** The one event the reader reads: it drops turns. */
const ROLLBACK = utf8("thread_rolled_back");
const REASONING = utf8("reasoning");
const NULL = utf8("null");
const EMPTY_ARRAY = utf8("[]");

/** What a line's type says before its payload is seen: which rule the payload must meet. */
const KIND = {
  /** Not seen yet (the payload may come first in a line not written by serde). */
  unknown: 0,
  /** `world_state`, `token_usage_record`: nothing in them is read. */
  record: 1,
  /** `event_msg`: read only when its payload's type is the rollback. */
  event: 2,
  /** `response_item`: passed over only as reasoning with nothing readable. */
  item: 3,
} as const;
type Kind = (typeof KIND)[keyof typeof KIND];

/**
 * What the walk over one line found at the two levels the reader looks at: the line's own
 * members and its payload's. One object, reset per line: the walk allocates nothing.
 */
const seen: { kind: Kind } & Record<"types" | "payloads" | "innerTypes" | "summaries" | "contents", number> &
  Record<"innerRollback" | "innerReasoning" | "readable", boolean> = {
  kind: KIND.unknown,
  types: 0,
  payloads: 0,
  innerTypes: 0,
  /** The payload's `type` as far as it matters: a rollback, reasoning, or something else. */
  innerRollback: false,
  innerReasoning: false,
  summaries: 0,
  contents: 0,
  /** A reasoning `summary` or `content` that is neither `[]` nor `null`. */
  readable: false,
};

function reset(): void {
  seen.kind = KIND.unknown;
  seen.types = seen.payloads = seen.innerTypes = seen.summaries = seen.contents = 0;
  seen.innerRollback = seen.innerReasoning = seen.readable = false;
}

function kindOf(bytes: Uint8Array, start: number, end: number): Kind | undefined {
  // The four names differ in length: one comparison picks the only one a value can be.
  switch (end - start) {
    case EVENT.length:
      return spells(bytes, start, end, EVENT) ? KIND.event : undefined;
    case RESPONSE_ITEM.length:
      return spells(bytes, start, end, RESPONSE_ITEM) ? KIND.item : undefined;
    case WORLD_STATE.length:
      return spells(bytes, start, end, WORLD_STATE) ? KIND.record : undefined;
    case TOKEN_RECORD.length:
      return spells(bytes, start, end, TOKEN_RECORD) ? KIND.record : undefined;
    default:
      return undefined;
  }
}

/** Whether what the payload's type says rules the line out for its kind (so the walk stops early). */
function ruledOut(): boolean {
  return (seen.kind === KIND.event && seen.innerRollback) || (seen.kind === KIND.item && seen.innerTypes > 0 && !seen.innerReasoning);
}

/** A value that holds no reasoning text: `[]` or `null` (spaces inside the brackets are not vouched for). */
function isEmpty(bytes: Uint8Array, start: number, end: number): boolean {
  return spells(bytes, start, end, EMPTY_ARRAY) || spells(bytes, start, end, NULL);
}

/**
 * A payload member. A key spelled with an escape may be any of the ones read, and a key given
 * twice leaves JSON.parse the last: either is doubt, and the line is parsed.
 */
const payloadMember: MemberReader = (bytes, keyStart, keyEnd, keyEscaped, valueAt, depth) => {
  if (keyEscaped) return -1;
  if (spells(bytes, keyStart, keyEnd, TYPE)) {
    if (++seen.innerTypes > 1 || bytes[valueAt] !== QUOTE) return -1;
    const end = stringEnd(bytes, valueAt);
    if (end === -1 || wasEscaped()) return -1;
    seen.innerRollback = spells(bytes, valueAt + 1, end - 1, ROLLBACK);
    seen.innerReasoning = spells(bytes, valueAt + 1, end - 1, REASONING);
    return ruledOut() ? -1 : end;
  }
  const summary = spells(bytes, keyStart, keyEnd, SUMMARY);
  if (summary || spells(bytes, keyStart, keyEnd, CONTENT)) {
    if ((summary ? ++seen.summaries : ++seen.contents) > 1) return -1;
    const end = valueEnd(bytes, valueAt, depth);
    if (end !== -1 && !isEmpty(bytes, valueAt, end)) seen.readable = true;
    return end;
  }
  return valueEnd(bytes, valueAt, depth);
};

/** A member of the line itself: `type` (one of the kinds passed over) and `payload` (an object) once each. */
const lineMember: MemberReader = (bytes, keyStart, keyEnd, keyEscaped, valueAt, depth) => {
  if (keyEscaped) return -1;
  if (spells(bytes, keyStart, keyEnd, TYPE)) {
    if (++seen.types > 1 || bytes[valueAt] !== QUOTE) return -1;
    const end = stringEnd(bytes, valueAt);
    if (end === -1 || wasEscaped()) return -1;
    const kind = kindOf(bytes, valueAt + 1, end - 1);
    if (kind === undefined) return -1;
    seen.kind = kind;
    return ruledOut() ? -1 : end;
  }
  if (spells(bytes, keyStart, keyEnd, PAYLOAD)) {
    if (++seen.payloads > 1 || bytes[valueAt] !== OPEN_BRACE) return -1;
    return objectEnd(bytes, valueAt, depth + 1, payloadMember);
  }
  return valueEnd(bytes, valueAt, depth);
};

/**
 * Whether a line can be passed over without decoding or parsing it (see `splitLines`): about
 * half of a rollout's lines and bytes are events, records and encrypted reasoning, which the
 * conversation does not need. It is read from the bytes (decoding would cost as much as the
 * parsing saved), and passed over only when they PROVE there is nothing in it: whole JSON (as
 * JSON.parse checks it, but for raw control characters in strings: see `isWholeObject`), one plain `type` (an event that is not a rollback, a record, or reasoning
 * whose `summary` and `content` are empty) and one object `payload`, in any order and spacing.
 * Anything in doubt (an escape in a key or a type, a key given twice, a torn or broken line) is
 * parsed, and reported if broken. Serde writes `type` before `payload`, so a conversation line
 * is given up on at its type, having cost a few bytes' look.
 */
export function nothingToRead(line: Uint8Array): boolean {
  reset();
  if (!isWholeObject(line, lineMember) || seen.types !== 1 || seen.payloads !== 1) return false;
  if (seen.kind === KIND.item) return seen.innerReasoning && !seen.readable;
  return !ruledOut();
}
