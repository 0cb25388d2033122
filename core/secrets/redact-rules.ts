/**
 * What a self-identifying secret looks like. Written from each provider's published token
 * format, not copied from a scanner. TOKEN_RULES: provider tokens (a prefix), JWTs, private
 * key blocks, plus a few values recognisable by what precedes them (`Bearer …`, a URL's
 * password); the patterns made of them are in redact-token-pattern.ts. Assignments
 * (`password=…`), where only the key says it is a secret, are in redact-assignments.ts.
 *
 * Every pattern stays linear on hostile input: a token may not start right after a letter or a
 * digit (a negative lookbehind, TOKEN_START), and one whose run is unbounded and may fail at its
 * end (a JWT) not after its own run's characters either; every run is a single character class
 * followed by something outside it, and the free-text parts have upper bounds. So no position is
 * scanned more than a few times.
 */

export interface TokenRule {
  kind: string;
  /**
   * What every match of the rule starts with (a pattern of literals, the first thing tried at a
   * position): the rule's literal prefilter, TOKEN_HINT, is made of these, so it finds every text
   * the rule can match. Where the rule also says `notAfter`, the character before the start is
   * checked after this, only where it matched (see `ruleStart`).
   */
  start: string;
  /**
   * Plain literals (an alternation) one of which every match of the rule holds, most often the
   * part of `start` past its case variants (`earer` of `[Bb]earer`): the rule's share of the
   * literal prefilter, TOKEN_HINT. Literals with no class up front let that test skip most of a
   * text at once (a class there, `[Bb]`, makes it as slow as the rules' scan).
   */
  hint: string;
  /**
   * The characters the match may not follow (a class's inside), except the last of an escape
   * (ESCAPE_END): a colour, a JSON escape or a percent escape before a lead or a token is a
   * boundary, as a blank is. Undefined: the rule may start anywhere its `start` is.
   */
  notAfter?: string;
  /** Text that must come before the secret and is kept (a header name, a URL's user). */
  lead?: string;
  /** The secret itself. */
  body: string;
  /** A check on a match the pattern alone cannot make (a kebab-case name is not a key). */
  accept?: (secret: string) => boolean;
}

/**
 * What may end right before a secret although its last character is a letter or a digit: the end
 * of an escape, not of a word. A percent escape (`?auth%3Dghp_…`, `Bearer%20sk-…`, also escaped
 * twice, `%253D`); a JSON or JS escape (`\nghp_…`, `\fghp_…`, `\u003dghp_…`, `key\x3dsk-…`); a
 * terminal escape, raw or written as text (`\x1b[31mghp_…`, `\u001b[0m`, `\033[1m`, `\e[K`,
 * `\x1bM`). Each part is bounded, so checking it costs a few characters at most.
 */
const ESCAPE_END = [
  "%(?:25)?[0-9A-Fa-f]{2}",
  String.raw`\\(?:[nrtfbv]|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})`,
  String.raw`(?:\x1b|\\(?:u001[bB]|x1[bB]|033|e))(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|[ -/]{0,4}[0-~])`,
  String.raw`\u009b[0-?]{0,32}[ -/]{0,8}[@-~]`,
].join("|");

/**
 * One terminal escape, raw or written as text (JSON's `\u001b[0m`, escaped once more in JSON
 * text, `\\u001b[0m`; JS's `\x1b[1m`; the shell's `\033[32m`, `\e[K`; an 8-bit CSI), as it
 * stands between a key and its separator or before a value (`\x1b[1mapi_key\x1b[0m: …`). Each
 * part bounded and none holds a line break, so a run of them is read once.
 */
export const ESCAPE_SEQUENCE = String.raw`(?:(?:\x1b|\\{1,2}(?:u001[bB]|x1[bB]|033|e))(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|[ -/]{0,4}[0-~])|\u009b[0-?]{0,32}[ -/]{0,8}[@-~])`;

/** What an ESCAPE_SEQUENCE starts with: checked first, so where none stands the pattern moves on after one test. */
const ESCAPE_START = String.raw`[\x1b\u009b]|\\{1,2}[ux0e]`;

/**
 * How many terminal escapes may stand in a row where colour may (tools write two or three:
 * `\x1b[0m\x1b[38;5;231m`). A bound, so a run is read a bounded number of times from each key
 * that could start before it.
 */
const ESCAPE_RUN = 16;

/** Up to ESCAPE_RUN terminal escapes in a row (ESCAPE_SEQUENCE): what a pattern steps over where colour may stand. */
export const ESCAPES = `(?:(?=${ESCAPE_START})${ESCAPE_SEQUENCE}{1,${ESCAPE_RUN}})?`;

/**
 * A key's closing quote, as it is or escaped in JSON text (`"`, `\"`, `\\"`), colour allowed
 * before it (`"token\u001b[0m": …`). The colour is taken here only when a quote follows, else
 * by the blanks and escapes after the key, so no escape can be read by both (a scan that fails
 * after a run of them must not try each way of splitting it).
 */
export const CLOSING_QUOTE = String.raw`(?:${ESCAPES}\\{0,2}["'])?`;
/** A value's opening quote, as CLOSING_QUOTE: colour after it taken only when it is there. */
export const OPENING_QUOTE = String.raw`(?:\\{0,2}["']${ESCAPES})?`;

/**
 * Blanks (`blank`, at most `max` in a run) with up to ESCAPE_RUN terminal escapes among them
 * (`: \x1b[32m`, `\u001b[0m = `): an escape is looked for only where one starts.
 */
export function blanksAndEscapes(max: number, blank = "[ \\t]"): string {
  return `${blank}{0,${max}}(?:(?=${ESCAPE_START})(?:${ESCAPE_SEQUENCE}${blank}{0,${max}}){1,${ESCAPE_RUN}})?`;
}

/** Every terminal escape in a text (ESCAPE_SEQUENCE), to judge what it wraps without it. */
export const ESCAPE_SEQUENCES = new RegExp(ESCAPE_SEQUENCE, "g");

/**
 * A lookbehind: the character before is none of `chars` (a class's inside), except the last of an
 * escape (ESCAPE_END): a control character or an escape before a secret is a boundary, as a
 * blank is. (One negative lookbehind with one inside it, checked only after such a character:
 * an alternation of two runs ten times slower.)
 */
export function notAfter(chars: string): string {
  return `(?<![${chars}](?<!${ESCAPE_END}))`;
}

/** An escape ending where the text does (ESCAPE_END), for a check at one place in code. */
const ENDS_IN_ESCAPE = new RegExp(`(?:${ESCAPE_END})$`);
/** Longer than any ESCAPE_END: how far back `wordBefore` looks. */
const LONGEST_ESCAPE_END = 48;

/**
 * Whether the character before `index` of `text` glues what starts there into a longer word: a
 * letter or a digit, but not the last of an escape (`\x1b[0m`, `\n`, `%20`), which ends a word
 * as a blank does. The same boundary as `notAfterWord("")`, for code that finds its matches
 * without a pattern (the known secrets' scan).
 */
export function wordBefore(text: string, index: number): boolean {
  if (!/[A-Za-z0-9]/.test(text[index - 1] ?? "")) return false;
  return !ENDS_IN_ESCAPE.test(text.slice(Math.max(0, index - LONGEST_ESCAPE_END), index));
}

/** The start of a key or a value: not right after a letter, a digit or one of `extra` (as `notAfter`). */
export function notAfterWord(extra: string): string {
  return notAfter(`A-Za-z0-9${extra}`);
}

/**
 * Where a token with a known prefix may start: not right after a letter or a digit, which would
 * make the prefix the inside of a longer word (`task-…`, `disk…`), except the last of an escape
 * (ESCAPE_END). After `_` and `-` too: names glue a token in (`exec_command_ghp_…`,
 * `x-access-token-ghp_…`), and the prefix with its random run says what it is on its own.
 */
const TOKEN_START = "A-Za-z0-9";
/**
 * Where a JWT may start: as a token, but not after `_` or `-` either. Its first part is an
 * unbounded run of base64url, `_` and `-` included, that only a dot ends: were it allowed to start
 * inside such a run, a long run holding many `eyJ` would be scanned again from each (quadratic).
 */
const JWT_START = "A-Za-z0-9_-";

/**
 * The start of a rule's pattern: its literal start first, then the boundary before it. The cheap
 * literal test fails first at almost every position, so the escape-aware lookbehind (the costly
 * part) is only evaluated where a match could begin. The one place a rule's start is made: every
 * rule, with a lead or not, gets the same boundary, so a colour or an escape before `Bearer`
 * is a boundary exactly as it is before `ghp_`.
 */
export function ruleStart(rule: TokenRule): string {
  return `(?=${rule.start})${rule.notAfter === undefined ? "" : notAfter(rule.notAfter)}`;
}

/** A token of letters and digits ends where they do (a `_`, `-` or `%` may follow it, as above). */
const TOKEN_END = "(?![A-Za-z0-9])";
/** A token whose own characters include `_` and `-` ends only where those do too. */
const NOT_BEFORE_TOKEN = "(?![A-Za-z0-9_-])";

/**
 * From the end of a PEM BEGIN line to the first base64 of the next: blanks, a line break (real or
 * JSON-escaped), and the next line's prefix (a line number and its separator, `>` quotes, table
 * pipes). Bounded, so it never rescans.
 */
const PEM_LINE_GAP = String.raw`(?:[\s>|:]|\\[rnt]|\d{1,9}(?=[\s:|]|\\t)){1,48}`;

/** A digit, or both cases: what tells a random run from a kebab-case name (`sk-button-large-primary`). */
function isRandomLooking(run: string): boolean {
  return /\d/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run));
}

export const TOKEN_RULES: readonly TokenRule[] = [
  // PEM: the BEGIN line, a line break (real or JSON-escaped), then base64 or an RFC 1421 header;
  // the block ends at the next five dashes (the END line) or, for a key cut short, where the
  // base64 stops. Each line may carry a prefix a tool or a format added (`cat -n`'s numbers,
  // `grep -n`'s `12:`, indentation, markdown's `> `, a table's `| … |`). A lone BEGIN line (in a
  // parser, say) is not a key.
  {
    kind: "private-key",
    start: "-----BEGIN ",
    hint: "-----BEGIN",
    body:
      `-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----${PEM_LINE_GAP}(?=[A-Za-z0-9+/]{16}|Proc-Type:|Version:|Comment:)` +
      "[A-Za-z0-9+/=\\s\\\\:,.|>]*(?:-(?!----)[A-Za-z0-9+/=\\s\\\\:,.|>]*)*" +
      "(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?",
  },
  // Anthropic: sk-ant-<purpose><2 digits>-<base64url>; before OpenAI, which shares "sk-".
  { kind: "anthropic-key", start: "sk-ant-", hint: "sk-", notAfter: TOKEN_START, body: "sk-ant-[a-z]{2,8}\\d{2}-[A-Za-z0-9_-]{32,}" },
  // OpenRouter: sk-or-v1- plus 64 hex digits; before OpenAI, which shares "sk-".
  { kind: "openrouter-key", start: "sk-or-v", hint: "sk-", notAfter: TOKEN_START, body: `sk-or-v\\d{1,2}-[A-Za-z0-9]{32,}${TOKEN_END}` },
  // OpenAI and the many endpoints that copied its shape: sk-, then a long random run, which may
  // start with a short segment (proj-, svcacct-, admin-, None-). Random: a digit or both cases.
  {
    kind: "openai-key",
    start: "sk-",
    hint: "sk-",
    notAfter: TOKEN_START,
    body: "sk-[A-Za-z0-9_-]{20,}",
    accept: (secret) => isRandomLooking(secret.slice(3)),
  },
  // GitHub: ghp_/gho_/ghu_/ghs_/ghr_ plus 36 base62 characters; fine-grained github_pat_….
  {
    kind: "github-token",
    start: "gh[pousr]_|github_pat_",
    hint: "gh[pousr]_|github_pat_",
    notAfter: TOKEN_START,
    body: `(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{50,244})${TOKEN_END}`,
  },
  // GitLab: personal, project, deploy, runner, CI-build, feed and SCIM tokens.
  {
    kind: "gitlab-token",
    start: "gl(?:pat|ptt|dt|rt|cbt|ft|soat)-",
    hint: "gl(?:pat|ptt|dt|rt|cbt|ft|soat)-",
    notAfter: TOKEN_START,
    body: "gl(?:pat|ptt|dt|rt|cbt|ft|soat)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,}){0,2}",
  },
  // AWS access key ids: AKIA (long-term) or ASIA (temporary) plus 16 base32 characters.
  { kind: "aws-access-key-id", start: "A[KS]IA", hint: "A[KS]IA", notAfter: TOKEN_START, body: `A(?:KI|SI)A[A-Z2-7]{16}${TOKEN_END}` },
  // AWS secret access keys have no prefix: only the name they are assigned to gives them away.
  {
    kind: "aws-secret-key",
    start: "(?:[Aa][Ww][Ss]_?)?(?:[Ss]ecret|SECRET)",
    hint: "ecret|ECRET",
    notAfter: "A-Za-z0-9",
    lead:
      "(?:[Aa][Ww][Ss]_?)?(?:secret_?access_?key|SECRET_?ACCESS_?KEY|[Ss]ecret_?[Aa]ccess_?[Kk]ey)" +
      `${CLOSING_QUOTE}${blanksAndEscapes(3, "\\s")}[:=]${blanksAndEscapes(3, "\\s")}${OPENING_QUOTE}`,
    body: "[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
  },
  // Google API keys: AIza plus 35 base64url characters.
  { kind: "google-api-key", start: "AIza", hint: "AIza", notAfter: TOKEN_START, body: `AIza[A-Za-z0-9_-]{35}${NOT_BEFORE_TOKEN}` },
  // Slack: bot/user/app-level/refresh tokens, then incoming-webhook and workflow URLs.
  { kind: "slack-token", start: "xox|xapp", hint: "xox|xapp", notAfter: TOKEN_START, body: "(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}" },
  {
    kind: "slack-webhook",
    start: "https://hooks\\.slack\\.com/",
    hint: "hooks\\.slack\\.com",
    body: "https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}",
  },
  // Stripe: secret and restricted keys in live or test mode, live publishable keys, webhook secrets.
  {
    kind: "stripe-key",
    start: "[sr]k_|pk_|whsec_",
    hint: "_live_|_test_|whsec_",
    notAfter: TOKEN_START,
    body: "(?:(?:sk|rk)_(?:live|test)_|pk_live_|whsec_)[A-Za-z0-9]{16,}",
  },
  // npm automation/publish tokens.
  { kind: "npm-token", start: "npm_", hint: "npm_", notAfter: TOKEN_START, body: `npm_[A-Za-z0-9]{36}${TOKEN_END}` },
  // JWT: base64url JSON header and payload (both start `{"` → `eyJ`), then the signature.
  { kind: "jwt", start: "eyJ", hint: "eyJ", notAfter: JWT_START, body: "eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*" },
  // Credentials in an Authorization header, whatever the token looks like.
  {
    kind: "bearer-token",
    start: "[Bb]earer",
    hint: "earer",
    notAfter: "A-Za-z0-9",
    lead: `[Bb]earer${ESCAPES}[ \\t]{1,4}${ESCAPES}`,
    body: "[A-Za-z0-9._~+/-]{16,}=*",
  },
  {
    kind: "basic-auth",
    start: "Basic",
    hint: "Basic",
    notAfter: "A-Za-z0-9",
    lead: `Basic${ESCAPES}[ \\t]{1,4}${ESCAPES}`,
    body: "[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/=])",
  },
  // Any other scheme (`Token …`, GitHub's `token …`, a custom one) or none: the value of an
  // Authorization header is a credential whatever it looks like. Bearer and Basic are left to
  // the rules above (their kinds say more). A value that reads as a name (`authHeader`) is code.
  {
    kind: "authorization",
    start: "(?:[Pp]roxy-)?(?:[Aa]uthorization|AUTHORIZATION)",
    hint: "uthorization|UTHORIZATION",
    notAfter: "A-Za-z0-9_-",
    lead:
      "(?:[Pp]roxy-)?(?:[Aa]uthorization|AUTHORIZATION)" +
      `${CLOSING_QUOTE}${blanksAndEscapes(3)}[:=]${blanksAndEscapes(3)}${OPENING_QUOTE}` +
      `(?![Bb]earer${ESCAPES}[ \\t]|Basic${ESCAPES}[ \\t])(?:[A-Za-z][A-Za-z0-9_-]{0,24}${ESCAPES}[ \\t]{1,4}${ESCAPES})?`,
    body: "[A-Za-z0-9._~+/-]{12,}=*",
    accept: (secret) => /\d/.test(secret) || (secret.length >= 24 && /[a-z]/.test(secret) && /[A-Z]/.test(secret) && !secret.includes(".")),
  },
  // The password part of scheme://user:password@host, the user name possibly empty (redis://:pw@host).
  // The match starts at `://`, its literal; the scheme before it is checked behind (and kept as it
  // is), not after a letter, a digit or `+.-` unless that ends an escape (`\x1b[31mhttps://…`).
  {
    kind: "url-password",
    start: ":\\/\\/",
    hint: "://",
    lead: `(?<=${notAfter("A-Za-z0-9+.-")}[A-Za-z][A-Za-z0-9+.-]{1,15})://[^\\s:/@"'<>]{0,64}:`,
    // However long: a password of 200 characters is as much a password. No lead starts inside
    // the run (the run holds no `/`, a lead needs `://`), so each character is read once.
    body: "[^\\s@/\"'<>]{1,4096}(?=@)",
  },
];
