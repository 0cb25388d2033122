/**
 * Lines of a rollout that hold nothing to read, recognised from their bytes so they are neither
 * decoded nor parsed (see `splitLines`'s `passOver`): about half of a rollout's lines and bytes
 * are events, records and encrypted reasoning.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * How Codex begins every line: serde writes `timestamp`, `ordinal` (newer versions), `type`,
 * `payload`, in this order and without spaces. A line written otherwise is simply parsed.
 */
const TIMESTAMP_OPEN = utf8('{"timestamp":"');
const ORDINAL_KEY = utf8(',"ordinal":');
const TYPE_KEY = utf8(',"type":');
/** Line types that are no conversation; any other type this reader does not know is reported once. */
export const PASSED_OVER: ReadonlySet<string> = new Set(["event_msg", "world_state", "token_usage_record"]);
/** The passed-over types by their first letter: one byte rules out most lines, without a loop over the patterns. */
const EVENT = utf8('"event_msg","payload":{');
const WORLD_STATE = utf8('"world_state","payload":{');
const TOKEN_RECORD = utf8('"token_usage_record","payload":{');
/** Reasoning (its id is optional) whose summary is empty: encrypted only, unless it has readable `content`. */
const REASONING_OPEN = utf8('"response_item","payload":{"type":"reasoning",');
const ID_KEY = utf8('"id":"');
const EMPTY_SUMMARY = utf8('"summary":[],');
const NEXT_LINE_START = utf8('{"timestamp":');
/** Events are tagged first (`{"type":…}`); this one drops turns, and is read. */
const ROLLBACK = utf8('"event_msg","payload":{"type":"thread_rolled_back"');
/** Reasoning's fields come in the order summary, content, encrypted_content. */
const READABLE_CONTENT = utf8('"content":[');
const QUOTE = 0x22;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACE = 0x7b;
const LETTER_E = 0x65;
const LETTER_R = 0x72;
const LETTER_T = 0x74;
const LETTER_W = 0x77;

function startsAt(bytes: Uint8Array, pattern: Uint8Array, at: number): boolean {
  if (at + pattern.length > bytes.length) return false;
  for (let i = 0; i < pattern.length; i++) if (bytes[at + i] !== pattern[i]) return false;
  return true;
}

/** Whether a second line's start (`{"timestamp":`) occurs in `bytes` at or after `from`. */
function holdsLineStart(bytes: Uint8Array, from: number): boolean {
  for (let at = bytes.indexOf(OPEN_BRACE, from); at !== -1; at = bytes.indexOf(OPEN_BRACE, at + 1))
    if (startsAt(bytes, NEXT_LINE_START, at)) return true;
  return false;
}

/** Whether the type whose value starts at `at` is one passed over (see `PASSED_OVER`, and encrypted reasoning). */
function passedOverType(line: Uint8Array, at: number): boolean {
  // The byte after the opening quote tells the candidates apart.
  switch (line[at + 1]) {
    case LETTER_E:
      return startsAt(line, EVENT, at) && !startsAt(line, ROLLBACK, at);
    case LETTER_W:
      return startsAt(line, WORLD_STATE, at);
    case LETTER_T:
      return startsAt(line, TOKEN_RECORD, at);
    case LETTER_R:
      return startsAt(line, REASONING_OPEN, at) && encryptedOnlyAt(line, at + REASONING_OPEN.length);
    default:
      return false;
  }
}

/** Where the value of a line's `type` starts, or -1 when the line does not begin as Codex writes them. */
function typeValueAt(line: Uint8Array): number {
  if (!startsAt(line, TIMESTAMP_OPEN, 0)) return -1;
  let at = line.indexOf(QUOTE, TIMESTAMP_OPEN.length) + 1;
  if (at === 0) return -1;
  if (startsAt(line, ORDINAL_KEY, at)) for (at += ORDINAL_KEY.length; (line[at] ?? 0) >= 0x30 && (line[at] ?? 0) <= 0x39; ) at++;
  return startsAt(line, TYPE_KEY, at) ? at + TYPE_KEY.length : -1;
}

/** After `"reasoning",`: an optional `"id":"…",`, an empty summary, and no readable content. */
function encryptedOnlyAt(line: Uint8Array, at: number): boolean {
  if (startsAt(line, ID_KEY, at)) at = line.indexOf(QUOTE, at + ID_KEY.length) + 2;
  return at > 1 && startsAt(line, EMPTY_SUMMARY, at) && !startsAt(line, READABLE_CONTENT, at + EMPTY_SUMMARY.length);
}

/**
 * Whether a line can be passed over without decoding or parsing it (see `splitLines`): about
 * half of a rollout's lines and bytes are events, records and encrypted reasoning, which the
 * conversation does not need. It is read from the bytes: decoding would cost as much as the
 * parsing saved. Only a line that looks whole is passed over: it ends its object and holds no
 * second line's start (what a torn line followed by the next write looks like). Anything else
 * is parsed, and reported if broken.
 */
export function nothingToRead(line: Uint8Array): boolean {
  if (line[line.length - 1] !== CLOSE_BRACE) return false;
  const at = typeValueAt(line);
  return at !== -1 && passedOverType(line, at) && !holdsLineStart(line, 1);
}
