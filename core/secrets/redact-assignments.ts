import { blanksAndEscapes, CLOSING_QUOTE, ESCAPE_SEQUENCE, ESCAPE_SEQUENCES, ESCAPES, notAfterWord } from "./redact-rules.ts";
import type { Separation } from "./redact-values.ts";

/**
 * `<key><separator><value>` where only the key says the value is a secret (`DB_PASSWORD=…`, `"apiKey": "…"`,
 * `--auth-token …`). The rule in full (keys, separators, quoted and bare values): docs/design/redaction-assignments.md.
 */

/**
 * The last word of a key that makes its value a secret, and the kind it reports. The short
 * words must stand alone: `pass` not after a letter or digit, `pwd` only after another word and `_`, `.` or `-`.
 */
const KEY_WORD =
  "(?<word>pass(?:word|wd|phrase)|secret|token|(?:api|access|auth|private|secret|signing|encryption|master)[_-]?key|apikey|(?<![a-z0-9])pass|(?<=[a-z0-9][_.-])pwd)";

/** Between a key and its value: `=`, `:`, `:=`, `=>`, `?=`, with blanks around (aligned columns). */
const SEPARATOR = String.raw`[ \t]{0,64}(?::=|=>|\?=|[:=])[ \t]{0,64}`;
/**
 * The same where colour may stand around it (`api_key\x1b[0m: \x1b[32m…`, `\u001b[0m=`): up to
 * ESCAPE_RUN terminal escapes among the blanks on both sides (an escape starts with a character no
 * blank is, so nothing is read twice).
 */
const SEPARATOR_IN_COLOUR = `${blanksAndEscapes(64)}(?::=|=>|\\?=|[:=])${blanksAndEscapes(64)}`;

/**
 * A type annotation between a key and its `=` (`api_key: str = "…"`, `val token: String = "…"`,
 * `password: Optional[str] = …`, `secret: string | null = …`): the value is what follows the `=`,
 * not the type. Bounded, each part one class, and the type's name taken whole (a lookahead and
 * its backreference: nothing backtracks into it when no `=` follows), so a scan stays linear.
 */
const ANNOTATION =
  String.raw`(?:[ \t]{0,8}:[ \t]{0,8}(?=(?<type>[A-Za-z_][\w.]{0,40}))\k<type>(?:[[<][^\]>\n=]{0,60}[\]>])?[?!]?` +
  String.raw`(?:[ \t]{0,4}\|[ \t]{0,4}[A-Za-z_][\w.]{0,40}){0,3}(?=[ \t]{0,64}=[^=>]))?`;

/** An unquoted value: to the end of its token; it does not start with a soft stop (`password=,next=1` has none). */
const BARE_VALUE = String.raw`[^\s"'${"`"}\\,;&|][^\s"'${"`"}\\]{0,511}`;

/** A placeholder's kind (`[REDACTED:github-token:1]`) must not read as a key with a value. */
const NOT_IN_PLACEHOLDER = String.raw`(?<!\[REDACTED(?:-\d+)?:)`;

/**
 * The assignment pattern. With `colour`, terminal escapes may stand around the key's parts and
 * before the value (`\x1b[1mapi_key\x1b[0m: \x1b[32m…`): they are kept in the lead, never taken
 * for the value, so the secret found is the value alone, and found again wherever it recurs.
 */
function assignmentPattern(start: string, colour: boolean): RegExp {
  const gap = colour ? ESCAPES : "";
  return new RegExp(
    `${NOT_IN_PLACEHOLDER}${start}(?<lead>` +
      `(?<flag>--(?:[a-z0-9]+-){0,4}${KEY_WORD}(?:=|[ \\t]{1,3})${gap})` +
      String.raw`|(?:\\{0,2}["'])?[a-z0-9_.-]{0,48}?` +
      KEY_WORD.replace("<word>", "<word2>") +
      (colour ? CLOSING_QUOTE : String.raw`(?:\\{0,2}["'])?`) +
      ANNOTATION +
      (colour ? SEPARATOR_IN_COLOUR : SEPARATOR) +
      ")(?:" +
      String.raw`"(?<dq>(?:\\.|[^"\\\r\n]){1,512})"` +
      String.raw`|'(?<sq>(?:\\.|''|[^'\\\r\n]){1,512})'` +
      // Inside JSON text (`{\"token\":\"…\"}`) the quotes are escaped, and so is the value's end.
      // A colour written as text inside such a value (`\"\\u001b[32m…\"`) is part of it (then peeled off, see `escapesAround`).
      String.raw`|(?<eq>\\{1,2}["'])(?<esc>(?:[^"'\\\r\n]${colour ? `|${ESCAPE_SEQUENCE}` : ""}){1,512})\k<eq>` +
      `|(?<bare>${BARE_VALUE})` +
      ")",
    "gi",
  );
}

/**
 * The two assignment patterns, made when first needed (their parse costs more at import than
 * the rest of this folder, and most runs meet no line with an assignment's shape):
 * - ASSIGNMENT_PATTERN: its key not right after a letter or a digit, unless that ends an escape
 *   (`\x1b[1mpassword=…`, `%3Dtoken=…`, `\npassword=…`), colour allowed around its parts;
 * - PLAIN_ASSIGNMENT_PATTERN: the same for a line that holds no escape at all (no ESC, no 8-bit
 *   CSI, no `\\`, no `%`): the escape's exception cannot apply there, and this plain lookbehind
 *   costs a tenth as much.
 */
let patterns: { colour: RegExp; plain: RegExp } | undefined;

/** ASSIGNMENT_PATTERN for a line that may hold an escape (MAY_HOLD_ESCAPE), else PLAIN_ASSIGNMENT_PATTERN. Global: `matchAll` it. */
export function assignmentPatternFor(line: string): RegExp {
  patterns ??= { colour: assignmentPattern(notAfterWord("_.-"), true), plain: assignmentPattern("(?<![A-Za-z0-9_.-])", false) };
  return MAY_HOLD_ESCAPE.test(line) ? patterns.colour : patterns.plain;
}
const LEADING_ESCAPES = new RegExp(`^(?:${ESCAPE_SEQUENCE})+`);
const TRAILING_ESCAPES = new RegExp(`(?:${ESCAPE_SEQUENCE})+$`);
/** Whether a text may hold an ESCAPE_SEQUENCE: one of its starts (most values and leads hold none). */
const MAY_HOLD_SEQUENCE = /[\x1b\u009b]|\\(?:u001[bB]|x1[bB]|033|e)/;

/**
 * A value without the terminal escapes at its ends (`\x1b[32mHunter2\x1b[0m` → `Hunter2`): the
 * colour is the terminal's, the secret is what it wraps, and only that is found again where it
 * recurs uncoloured. Escapes inside the value stay in it (they do not split a secret).
 */
export function escapesAround(value: string): { before: string; inner: string; after: string } {
  if (!MAY_HOLD_SEQUENCE.test(value)) return { before: "", inner: value, after: "" };
  const before = LEADING_ESCAPES.exec(value)?.[0] ?? "";
  const rest = value.slice(before.length);
  const after = TRAILING_ESCAPES.exec(rest)?.[0] ?? "";
  return { before, inner: rest.slice(0, rest.length - after.length), after };
}

/** A lead as it reads without its colour, for what its shape says (`api_key\x1b[0m: ` → `api_key: `). */
export function plainLead(lead: string): string {
  return MAY_HOLD_SEQUENCE.test(lead) ? lead.replace(ESCAPE_SEQUENCES, "") : lead;
}

/** Whether a line may hold an escape, so that only ASSIGNMENT_PATTERN reads it right. */
export const MAY_HOLD_ESCAPE = /[\x1b\u009b\\%]/;

/** Every assignment's key word contains one of these (KEY_WORD); text without them skips ASSIGNMENT_PATTERN. */
export const ASSIGNMENT_HINT = /pass|pwd|secret|token|key/i;

/**
 * A key word (KEY_WORD) followed, past blanks, by what an assignment puts after one: a separator's
 * first character (ANNOTATION's and SEPARATOR's), a closing quote or a backslash (CLOSING_QUOTE),
 * an escape (SEPARATOR_IN_COLOUR). `secret_key` and its like end with `key`.
 */
const KEY_WORD_THEN_SEPARATOR = /(?:pass(?:word|wd|phrase)?|pwd|secret|token|key)[ \t]*[=:?"'\\\x1b\u009b]/i;
/** A flag (`--db-password value`): `--`, the flag's parts, a key word, and a blank. */
const FLAG_THEN_BLANK = /--[a-z0-9_-]*?(?:pass|pwd|secret|token|key)[a-z_-]*[ \t]/i;

/**
 * Whether a line may hold an assignment (a match of ASSIGNMENT_PATTERN): a key word followed by
 * what an assignment puts after one, or a flag. Two tests that stop at what they find, where the
 * pattern's scan of a line is the costly part: most lines with a key word are prose or code
 * about one (`the token count`, `keys.map(…)`), and are not scanned.
 */
export function mayHoldAssignment(line: string): boolean {
  return KEY_WORD_THEN_SEPARATOR.test(line) || (line.includes("--") && FLAG_THEN_BLANK.test(line));
}

const SECRET_KEY = new RegExp(`^[a-z0-9_.-]{0,48}?${KEY_WORD}$`, "i");

/**
 * The kind a key's value reports when the key is a secret's name (`db_password`, `apiKey`, and
 * the plural, `passwords`, `api_keys`, but not `tokens`, which counts tokens, and an
 * `Authorization` header), else `undefined`.
 */
export function secretKeyKind(key: string): string | undefined {
  // A header's name, not a secret word: its value is a credential whatever scheme it names.
  if (/^(?:proxy[_-]?)?authori[sz]ation$/i.test(key)) return "authorization";
  // Every key word holds one of the hint's words: most keys (`command`, `path`) hold none.
  if (!ASSIGNMENT_HINT.test(key)) return undefined;
  const plural = /s$/i.test(key) ? SECRET_KEY.exec(key.slice(0, -1))?.groups?.word : undefined;
  const word = SECRET_KEY.exec(key)?.groups?.word ?? (plural?.toLowerCase() === "token" ? undefined : plural);
  return word === undefined ? undefined : assignmentKind(word);
}

/** The kind an assignment's key word reports. */
export function assignmentKind(word: string): string {
  const w = word.toLowerCase();
  if (w.startsWith("pass") || w === "pwd") return "password";
  if (w === "token") return "token";
  if (w === "secret") return "secret";
  return "api-key";
}

/** How a matched lead attaches its value. */
export function separationOf(lead: string, isFlag: boolean): Separation {
  if (isFlag) return "flag";
  const separator = lead.slice(lead.search(/[ \t:=>?]*$/));
  return separator.includes(":") || /\s/.test(separator) ? "spaced" : "tight";
}

/**
 * Whether a lead's key is only a word in a sentence (`First pass: `, `the token: `): one plain
 * word, unquoted, after another word and one blank on the same line, and a lone `:` after it.
 * A key of code or configuration stands at the start of its line, after a bracket, a comma or a
 * quote, is a compound name (`db_password`, `apiKey`), or takes `=`.
 */
export function isKeyInSentence(lead: string, before: string): boolean {
  return /^[A-Za-z]+[ \t]*:[ \t]*$/.test(lead) && /[\p{L}\p{N}] $/u.test(before);
}

/**
 * After a value, an operator only code goes on with: `?` (a conditional), `??`, `||`, `&&`, `==`,
 * `!=`. Not `-`, `/`, `+` or `>`, which notes and prose use after a word too (`token: abc - old`).
 */
const OPERATOR_AFTER = /^[ \t]+(?:\?\??|\|\||&&|[=!]==?)(?:[ \t]|$)/;

/** Whether `after` (the text right after a value) goes on with an operator. */
export function operatorFollows(after: string): boolean {
  return OPERATOR_AFTER.test(after);
}

/** Whether `after` (the text right after a value) goes on with another word: prose, not a value (a comment, `#`, `//`, is not a word). */
export function wordsFollow(after: string): boolean {
  return /^[ \t]+\p{L}/u.test(after);
}
