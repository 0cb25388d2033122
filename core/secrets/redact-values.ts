/**
 * What an unquoted value after a secret's key is (redact-assignments.ts finds the key): under a
 * key that names a secret the value is one, unless it is provably not: a reference to one (a
 * property path, a call, `$VAR`, `${…}`, `%VAR%`, `process.env.X`, `os.environ[…]`), a type or
 * literal word (`string`, `SecretStr`, `None`, `true`), a stand-in (`xxx`, `<your-key>`, `sk-...`),
 * or the start of an expression the line goes on with (`hasApiKey = model ? … : …`). A single
 * word that merely reads as a name (`hashed`, `refreshToken`, `user_input`) is a secret too: a
 * name hidden by mistake costs the model little, a password sent costs a lot. Such a word, as
 * every value judged a secret, is replaced wherever it recurs (issue 22, F5).
 */

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
  "secretstr",
  "secretbytes",
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

/**
 * The whole value is a reference or a template, not a secret: `${{ … }}`, `$(…)`, `{{ … }}`,
 * `%(name)s`, `<your-key>` (variables are `VARIABLE`'s). Only whole: a value that merely starts
 * with `$` or `%` (a bcrypt hash, `$2b$12$…`; `%Xk9…`) is a secret.
 */
const STAND_IN = /^(?:\$\{\{.*|\$\([^()]*\)|\{\{[^{}]*\}\}|%\(\w+\)[sdr]|<[^<>]*>)$/;
/**
 * A variable as shells, PHP, Perl and Windows write one: `$NAME` (and `$name->…`, `$name::…`,
 * `$name.…`, `$name[…`), `${NAME}` (and `${NAME:-…}`, `${env:NAME}`, `${config.token}`), `%NAME%`.
 * A reference only when NAME reads as a variable's name (`readsAsVariable`): `$ecretPass9` and
 * `${x9Kq2}` are passwords that start with `$`.
 */
const VARIABLE = /^(?:\$([A-Za-z_]\w*)(?:(?:->|::|\.|\[)\S*)?|\$\{[#!]?([A-Za-z_]\w*)(?:[.:\-=?+#%/[][^{}]*)?\}|%([A-Za-z_]\w*)%)$/;

/** Whether `value` is a whole variable reference whose name reads as one (see VARIABLE). */
function isVariable(value: string): boolean {
  const match = VARIABLE.exec(value);
  const name = match?.[1] ?? match?.[2] ?? match?.[3];
  return name !== undefined && readsAsVariable(name);
}

/**
 * A variable's name as people write one: words (`readsAsName`: `HOME`, `dbPassword`,
 * `DB_PASSWORD_2`), or an upper-case name of several parts where a short one holds digits
 * (`K8S_TOKEN`, `S3_KEY`, `OAUTH2_TOKEN`). Not a random run (`ecretPass9`, `X9K2M4P7Q`).
 */
function readsAsVariable(name: string): boolean {
  if (readsAsName(name)) return true;
  const parts = name.split("_").filter((part) => part !== "");
  return parts.length >= 2 && /^[A-Z0-9_]+$/.test(name) && parts.every((part) => readsAsName(part) || /^[A-Z0-9]{1,4}$/.test(part));
}
/** A placeholder already in the text, ours (also `\[…\]`-escaped) or a withheld string's. */
const PLACEHOLDER = /^(?:\\?\[REDACTED|\[withheld\])/;
/** A run of one mask character (`xxx`, `****`, `...`, `###`), or one character repeated. */
const MASK = /^[xX*.#_-]+$|^(.)\1*$/;
/** Docs' words for "put yours here": `your-api-key`, `YOUR_API_KEY_HERE`, `your_token`. */
const YOURS = /^your[_-][a-z_-]*$/i;
/** An ellipsis alone, or after a short prefix that ends in `-` or `_` and before at most four characters (`sk-...`, `sk-...abcd`). */
const ELIDED = /^(?:[A-Za-z0-9_-]{0,16}[-_])?(?:\.\.\.|…)[A-Za-z0-9]{0,4}$/;

/** True for values that stand in for a secret rather than being one: `${TOKEN}`, `xxx`, `<your-key>`, `…`, a placeholder. */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length < 3) return true;
  if (STAND_IN.test(v) || isVariable(v) || PLACEHOLDER.test(v) || MASK.test(v) || YOURS.test(v) || ELIDED.test(v)) return true;
  return NOT_SECRETS.has(v.toLowerCase());
}

const CLOSERS: Record<string, string> = { ")": "(", "]": "[", "}": "{", ">": "<" };

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * How much of an unquoted value's token is the value: without the separators that end a
 * statement or a sentence (`abc;`, `abc,`, `abc.`, `abc…`: a value cut for display is still most
 * of a secret) and without closers it did not open
 * (`{ password: abc }` → `abc`, `f(token=abc)` → `abc`). Returns the value's length.
 */
export function bareValueLength(token: string): number {
  let end = token.length;
  for (;;) {
    const last = token[end - 1];
    if (last === undefined) return 0;
    const opener = CLOSERS[last];
    const value = token.slice(0, end);
    if (",;:.…".includes(last) || (opener !== undefined && count(value, opener) < count(value, last))) end--;
    else return end;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const PATH = String.raw`[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*`;
/** `a.b.c`, `settings.db.password`, `config?.apiKey`. */
const PROPERTY_PATH = new RegExp(`^${PATH}$`);
/** `getToken()`, `z.string().min(8)`, `jwt.sign(payload,` (cut at a space), `os.environ[`, `Promise<string>`. */
const CODE_EXPRESSION = new RegExp(String.raw`^${PATH}(?:\([^()]*(?:\)(?:\??\.${PATH}(?:\([^()]*\))?)*[;,)]*)?$|[[<])`);

/**
 * True when a single word reads as a name in code rather than a random string: words of letters
 * (`hashed`, `refreshToken`, `Token`, `user_input`, `DB_PASSWORD_2`), each of a sensible length.
 * A digit inside a word (`Hunter2isMyPass`, `hunter2`), a long unbroken run
 * (`abcdefghijklmnopqrst`) or mixed case without words (`xKjHgFdSaQ`) does not.
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

/** True when an unquoted value is provably code: a flag, a small number, a property path, a call, an index, a generic type. */
export function isReference(value: string): boolean {
  // A flag (`--password --verbose`, `--token -v`) or a negative number; not any value after a `-`.
  if (/^(?:--?[a-z][a-z-]*|-\d{1,5})$/.test(value)) return true;
  if (/^\d{1,5}$/.test(value)) return true; // `max_token: 100`
  return isNamePath(value) || CODE_EXPRESSION.test(value);
}

/** How the value was attached to its key: `key=value`, `key: value` or `key = value`, `--key value`. */
export type Separation = "tight" | "spaced" | "flag";

/** Where an unquoted value stands, beyond its own characters. */
export interface ValueSetting {
  separation: Separation;
  /** The key is a word inside a sentence (`First pass: rewrite …`), not a key of code or configuration. */
  keyInSentence: boolean;
  /** The line goes on with an operator after the value (`x = value ? a : b`, `x = value || y`): it is an expression. */
  operatorFollows: boolean;
  /** More words follow the value on its line (`api-key: the key is not read from …`): the key labels prose. */
  wordsFollow: boolean;
}

/**
 * What to do with an unquoted value under a secret's key:
 * - `code`: provably not a secret (a reference, a type or literal word, a stand-in): sent as it is;
 * - `name`: a word that reads as a name, after `key: ` or `key = ` (where code puts names):
 *   replaced, here and wherever it recurs, as a secret is (a value once judged a secret is
 *   withheld everywhere); left alone when the key is only a word in a sentence or a label
 *   before one (`First pass: rewrite the parser`, `api-key: the key is not read …`);
 * - `secret`: replaced, here and wherever it recurs.
 */
export type BareVerdict = "code" | "name" | "secret";

/**
 * A token prefix and an ellipsis, as docs write a key they do not show (`sk-...`, `gsk_…`,
 * `sk-ant-...`): the prefix is not a secret. A value that merely ends a sentence with dots
 * (`Hunter2xyz...`) is one, without its dots.
 */
function isElidedPrefix(token: string): boolean {
  return /^[A-Za-z0-9_-]{0,16}[-_](?:\.\.\.|…)$/.test(token);
}

/** `settingOf` is asked only when the value alone does not decide (most values do). */
export function judgeBareValue(token: string, value: string, settingOf: () => ValueSetting): BareVerdict {
  if (isElidedPrefix(token) || isPlaceholderValue(value) || isReference(value)) return "code";
  if (!IDENTIFIER.test(value)) return "secret";
  const setting = settingOf();
  if (setting.separation !== "spaced") return "secret";
  if (setting.operatorFollows) return "code";
  if (!readsAsName(value)) return "secret";
  return setting.keyInSentence || setting.wordsFollow ? "code" : "name";
}
