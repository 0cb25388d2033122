import { notAfterWord } from "./redact-rules.ts";

/**
 * `<key><separator><value>` where only the key says the value is a secret: `DB_PASSWORD=…`,
 * `"apiKey": "…"`, `password = …` (ini), `token: …` (YAML), `password := …` (Go),
 * `'password' => …` (PHP, Ruby), `--auth-token …`. The rule, in three parts:
 * - a key ends in a secret word (`pass` as a word of its own: `DB_PASS`, not `bypass`; `pwd`
 *   after another word: `MYSQL_PWD`, not the shell's `PWD`); separators are `=`, `:`, `:=`, `=>`
 *   and `?=`, with any run of spaces or tabs around them (aligned columns), or, after a
 *   `--flag`, spaces alone;
 * - a quoted value is the whole quoted string, escapes included (`"it's"`, `"a\"b"`, YAML's
 *   `'it''s'`);
 * - an unquoted value runs to the end of its token (whitespace or a quote), `,` `;` `&` `|`
 *   included: a secret may hold any of them (`P@ss;word=x`), and a tail that looks like the next
 *   `key=value` cannot be told from one; redacting a neighbour too costs the model a detail, a
 *   secret's tail sent in clear costs the secret. Closing punctuation the value did not open
 *   is left out.
 * A value that reads as code (a call, a property path, a type, a variable's name) or stands in
 * for a secret (`${TOKEN}`, `xxx`, `<your-key>`) is left alone.
 */

/**
 * The last word of a key that makes its value a secret, and the kind it reports. The short
 * words must stand alone: `pass` not after a letter or digit, `pwd` only after another word and `_`, `.` or `-`.
 */
const KEY_WORD =
  "(?<word>pass(?:word|wd|phrase)|secret|token|(?:api|access|auth|private|secret|signing|encryption|master)[_-]?key|apikey|(?<![a-z0-9])pass|(?<=[a-z0-9][_.-])pwd)";

/** Between a key and its value: `=`, `:`, `:=`, `=>`, `?=`, with blanks around (aligned columns). */
const SEPARATOR = String.raw`[ \t]{0,64}(?::=|=>|\?=|[:=])[ \t]{0,64}`;

/** An unquoted value: to the end of its token; it does not start with a soft stop (`password=,next=1` has none). */
const BARE_VALUE = String.raw`[^\s"'${"`"}\\,;&|][^\s"'${"`"}\\]{0,511}`;

/** A placeholder's kind (`[REDACTED:github-token:1]`) must not read as a key with a value. */
const NOT_IN_PLACEHOLDER = String.raw`(?<!\[REDACTED(?:-\d+)?:)`;

export const ASSIGNMENT_PATTERN = new RegExp(
  `${NOT_IN_PLACEHOLDER}${notAfterWord("_.-")}(?<lead>` +
    `(?<flag>--(?:[a-z0-9]+-){0,4}${KEY_WORD}(?:=|[ \\t]{1,3}))` +
    String.raw`|(?:\\{0,2}["'])?[a-z0-9_.-]{0,48}?` +
    KEY_WORD.replace("<word>", "<word2>") +
    String.raw`(?:\\{0,2}["'])?` +
    SEPARATOR +
    ")(?:" +
    String.raw`"(?<dq>(?:\\.|[^"\\\r\n]){1,512})"` +
    String.raw`|'(?<sq>(?:\\.|''|[^'\\\r\n]){1,512})'` +
    // Inside JSON text (`{\"token\":\"…\"}`) the quotes are escaped, and so is the value's end.
    String.raw`|(?<eq>\\{1,2}["'])(?<esc>[^"'\\\r\n]{1,512})\k<eq>` +
    `|(?<bare>${BARE_VALUE})` +
    ")",
  "gi",
);

/** Every assignment's key word contains one of these (KEY_WORD); text without them skips ASSIGNMENT_PATTERN. */
export const ASSIGNMENT_HINT = /pass|pwd|secret|token|key/i;

const SECRET_KEY = new RegExp(`^[a-z0-9_.-]{0,48}?${KEY_WORD}$`, "i");

/**
 * The kind a key's value reports when the key is a secret's name (`db_password`, `apiKey`, and
 * the plural, `passwords`, `api_keys`, but not `tokens`, which counts tokens, and an
 * `Authorization` header), else `undefined`.
 */
export function secretKeyKind(key: string): string | undefined {
  // A header's name, not a secret word: its value is a credential whatever scheme it names.
  if (/^(?:proxy[_-]?)?authori[sz]ation$/i.test(key)) return "authorization";
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

/** Words that, as an unquoted value, are code or configuration rather than a secret. */
const NOT_SECRETS = new Set([
  // types and keywords (`password: string`, `token = await …`)
  "string",
  "number",
  "boolean",
  "bool",
  "any",
  "unknown",
  "object",
  "never",
  "void",
  "str",
  "int",
  "bytes",
  "null",
  "undefined",
  "none",
  "nil",
  "true",
  "false",
  "yes",
  "no",
  "on",
  "off",
  "new",
  "await",
  "async",
  "this",
  "self",
  "function",
  "typeof",
  "const",
  "let",
  "var",
  "return",
  "optional",
  "required",
  // stand-ins people write instead of a real value
  "changeme",
  "change-me",
  "password",
  "secret",
  "token",
  "example",
  "placeholder",
  "redacted",
  "dummy",
  "test",
  "todo",
  "empty",
]);

/** True for values that stand in for a secret rather than being one: `${TOKEN}`, `xxx`, `<your-key>`, `…`, a placeholder. */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length < 3) return true;
  if (/^(?:\$|\{\{|%\(?\w|\\?\[REDACTED|\[withheld\]|<.*>$)/.test(v)) return true;
  if (/^[xX*.#_-]+$|^(.)\1*$/.test(v)) return true;
  if (/^(?:your|my)[_-]?[a-z_-]*$/i.test(v) || /^(?:\.\.\.|…)|(?:\.\.\.|…)$/.test(v)) return true;
  return NOT_SECRETS.has(v.toLowerCase());
}

const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{", ">": "<" };

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * How much of an unquoted value's token is the value: without the separators that end a
 * statement or a sentence (`abc;`, `abc,`, `abc.`) and without closers it did not open
 * (`{ password: abc }` → `abc`, `f(token=abc)` → `abc`). Returns the value's length.
 */
export function bareValueLength(token: string): number {
  let end = token.length;
  for (;;) {
    const last = token[end - 1];
    if (last === undefined) return 0;
    const opener = CLOSERS[last];
    const value = token.slice(0, end);
    if (",;:.".includes(last) || (opener !== undefined && count(value, opener) < count(value, last))) end--;
    else return end;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const PATH = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*`;
/** `a.b.c`, `settings.db.password`, `config?.apiKey`. */
const PROPERTY_PATH = new RegExp(`^${PATH}$`);
/** `getToken()`, `z.string().min(8)`, `jwt.sign(payload,` (cut at a space), `os.environ[`, `Promise<string>`. */
const CODE_EXPRESSION = new RegExp(String.raw`^${PATH}(?:\([^()]*(?:\)(?:\??\.${PATH}(?:\([^()]*\))?)*[;,)]*)?$|[[<])`);

/** How the value was attached to its key: `key=value`, `key: value` or `key = value`, `--key value`. */
export type Separation = "tight" | "spaced" | "flag";

/**
 * True when a single word reads as a name in code rather than a secret: words of letters
 * (`hashed`, `refreshToken`, `Token`, `user_input`, `DB_PASSWORD_2`), each of a sensible length.
 * A digit inside a word (`Hunter2isMyPass`, `hunter2`), a long unbroken run
 * (`abcdefghijklmnopqrst`) or mixed case without words (`xKjHgFdSaQ`) reads as a secret.
 */
export function readsAsName(word: string): boolean {
  const parts = word.split(/[_$]+/).filter((p) => p !== "");
  return parts.every((part) => {
    const match = /^([A-Za-z]*)(\d*)$/.exec(part);
    if (!match) return false;
    const [, letters = "", digits = ""] = match;
    // A number closes a compound name (`user_input2`, `KEY_2`); alone on a word it is a password.
    if (digits.length > 0 && (parts.length < 2 || digits.length > 2)) return false;
    if (letters === "") return true;
    if (/^(?:[a-z]+|[A-Z]+)$/.test(letters)) return letters.length <= 16;
    const words = letters.split(/(?=[A-Z][a-z])/);
    return letters.length / words.length >= 3;
  });
}

/** A property path whose every part reads as a name (`config.db.password`, `self.token2`), not `P4ss.w0rd6`. */
function isNamePath(value: string): boolean {
  return (
    PROPERTY_PATH.test(value) && value.includes(".") && value.split(/\??\./).every((part) => readsAsName(part.replace(/\d{1,3}$/, "")))
  );
}

/** True when an unquoted value reads as code or configuration rather than a secret. */
export function looksLikeCode(value: string, separation: Separation): boolean {
  if (value.startsWith("-")) return true; // a flag (`--password --verbose`) or a negative number
  if (/^\d{1,5}$/.test(value)) return true; // `max_token: 100`
  if (isNamePath(value)) return true;
  if (CODE_EXPRESSION.test(value)) return true;
  // After `key=` (env, flags) a word is a value; after `key: ` or `key = ` it may be a name.
  return separation === "spaced" && IDENTIFIER.test(value) && readsAsName(value);
}

/** How a matched lead attaches its value. */
export function separationOf(lead: string, isFlag: boolean): Separation {
  if (isFlag) return "flag";
  const separator = lead.slice(lead.search(/[ \t:=>?]*$/));
  return separator.includes(":") || /\s/.test(separator) ? "spaced" : "tight";
}
