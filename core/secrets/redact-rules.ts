/**
 * What a self-identifying secret looks like. Written from each provider's published token
 * format, not copied from a scanner. TOKEN_PATTERN: provider tokens (a prefix), JWTs, private
 * key blocks, plus a few values recognisable by what precedes them (`Bearer …`, a URL's
 * password). Assignments (`password=…`), where only the key says it is a secret, are in
 * redact-assignments.ts.
 *
 * Every pattern stays linear on hostile input: a token may not start right after a letter or a
 * digit (a negative lookbehind, TOKEN_START), and one whose run is unbounded and may fail at its
 * end (a JWT) not after its own run's characters either; every run is a single character class
 * followed by something outside it, and the free-text parts have upper bounds. So no position is
 * scanned more than a few times.
 */

export interface TokenRule {
  kind: string;
  /** Text that must come before the secret and is kept (a header name, a URL's user). */
  lead?: string;
  /** The secret itself. */
  body: string;
  /** A check on a match the pattern alone cannot make (a kebab-case name is not a key). */
  accept?: (secret: string) => boolean;
}

/**
 * A lookbehind: the character before is not a letter, a digit or one of `extra`, except the
 * `n`, `r` or `t` of a JSON escape (`\n`): text that shows a JSON file puts one right before
 * each line's first word. (Written as one negative lookbehind: an alternation of two runs
 * ten times slower.)
 */
export function notAfterWord(extra: string): string {
  return String.raw`(?<![A-Za-mo-qsu-z0-9${extra}]|(?<!\\)[nrt])`;
}

/**
 * Where a token with a known prefix may start: not right after a letter or a digit, which would
 * make the prefix the inside of a longer word (`task-…`, `disk…`), except the last of a percent
 * escape (`?auth%3Dghp_…`, `Bearer%20sk-…`, also escaped twice, `%253D`) or of a JSON escape
 * (`\nghp_…`). After `_` and `-` too: names glue a token in (`exec_command_ghp_…`,
 * `x-access-token-ghp_…`), and the prefix with its random run says what it is on its own.
 * (Written as one negative lookbehind with two inside it, checked only after a letter or digit.)
 */
const TOKEN_START = String.raw`(?<![A-Za-z0-9](?<!%(?:25)?[0-9A-Fa-f]{2})(?<!\\[nrt]))`;
/**
 * Where a JWT may start: as a token, but not after `_` or `-` either. Its first part is an
 * unbounded run of base64url, `_` and `-` included, that only a dot ends: were it allowed to start
 * inside such a run, a long run holding many `eyJ` would be scanned again from each (quadratic).
 */
const JWT_START = String.raw`(?<![A-Za-z0-9_-](?<!%(?:25)?[0-9A-Fa-f]{2})(?<!\\[nrt]))`;
/**
 * TOKEN_START where the token's literal start follows: the cheap literal test fails first at
 * almost every position, so the lookbehind is only evaluated where a token could begin.
 */
function startOf(literal: string): string {
  return `(?=${literal})${TOKEN_START}`;
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
    body:
      `-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----${PEM_LINE_GAP}(?=[A-Za-z0-9+/]{16}|Proc-Type:|Version:|Comment:)` +
      "[A-Za-z0-9+/=\\s\\\\:,.|>]*(?:-(?!----)[A-Za-z0-9+/=\\s\\\\:,.|>]*)*" +
      "(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?",
  },
  // Anthropic: sk-ant-<purpose><2 digits>-<base64url>; before OpenAI, which shares "sk-".
  { kind: "anthropic-key", body: `${startOf("sk-ant-")}sk-ant-[a-z]{2,8}\\d{2}-[A-Za-z0-9_-]{32,}` },
  // OpenRouter: sk-or-v1- plus 64 hex digits; before OpenAI, which shares "sk-".
  { kind: "openrouter-key", body: `${startOf("sk-or-v")}sk-or-v\\d{1,2}-[A-Za-z0-9]{32,}${TOKEN_END}` },
  // OpenAI and the many endpoints that copied its shape: sk-, then a long random run, which may
  // start with a short segment (proj-, svcacct-, admin-, None-). Random: a digit or both cases.
  { kind: "openai-key", body: `${startOf("sk-")}sk-[A-Za-z0-9_-]{20,}`, accept: (secret) => isRandomLooking(secret.slice(3)) },
  // GitHub: ghp_/gho_/ghu_/ghs_/ghr_ plus 36 base62 characters; fine-grained github_pat_….
  {
    kind: "github-token",
    body: `${startOf("gh[pousr]_|github_pat_")}(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{50,244})${TOKEN_END}`,
  },
  // GitLab: personal, project, deploy, runner, CI-build, feed and SCIM tokens.
  { kind: "gitlab-token", body: `${startOf("gl")}gl(?:pat|ptt|dt|rt|cbt|ft|soat)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,}){0,2}` },
  // AWS access key ids: AKIA (long-term) or ASIA (temporary) plus 16 base32 characters.
  { kind: "aws-access-key-id", body: `${startOf("A[KS]IA")}A(?:KI|SI)A[A-Z2-7]{16}${TOKEN_END}` },
  // AWS secret access keys have no prefix: only the name they are assigned to gives them away.
  {
    kind: "aws-secret-key",
    lead: `(?<![A-Za-z0-9])(?:[Aa][Ww][Ss]_?)?(?:secret_?access_?key|SECRET_?ACCESS_?KEY|[Ss]ecret_?[Aa]ccess_?[Kk]ey)(?:\\\\{0,2}["'])?\\s{0,3}[:=]\\s{0,3}(?:\\\\{0,2}["'])?`,
    body: `[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])`,
  },
  // Google API keys: AIza plus 35 base64url characters.
  { kind: "google-api-key", body: `${startOf("AIza")}AIza[A-Za-z0-9_-]{35}${NOT_BEFORE_TOKEN}` },
  // Slack: bot/user/app-level/refresh tokens, then incoming-webhook and workflow URLs.
  { kind: "slack-token", body: `${startOf("xox|xapp")}(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}` },
  { kind: "slack-webhook", body: `https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}` },
  // Stripe: secret and restricted keys in live or test mode, live publishable keys, webhook secrets.
  { kind: "stripe-key", body: `${startOf("[sr]k_|pk_|whsec_")}(?:(?:sk|rk)_(?:live|test)_|pk_live_|whsec_)[A-Za-z0-9]{16,}` },
  // npm automation/publish tokens.
  { kind: "npm-token", body: `${startOf("npm_")}npm_[A-Za-z0-9]{36}${TOKEN_END}` },
  // JWT: base64url JSON header and payload (both start `{"` → `eyJ`), then the signature.
  { kind: "jwt", body: `(?=eyJ)${JWT_START}eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*` },
  // Credentials in an Authorization header, whatever the token looks like.
  { kind: "bearer-token", lead: "(?<![A-Za-z0-9])[Bb]earer[ \\t]{1,4}", body: "[A-Za-z0-9._~+/-]{16,}=*" },
  { kind: "basic-auth", lead: "(?<![A-Za-z0-9])Basic[ \\t]{1,4}", body: "[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/=])" },
  // Any other scheme (`Token …`, GitHub's `token …`, a custom one) or none: the value of an
  // Authorization header is a credential whatever it looks like. Bearer and Basic are left to
  // the rules above (their kinds say more). A value that reads as a name (`authHeader`) is code.
  {
    kind: "authorization",
    lead:
      "(?<![A-Za-z0-9_-])(?:[Pp]roxy-)?(?:[Aa]uthorization|AUTHORIZATION)(?:\\\\{0,2}[\"'])?[ \\t]{0,3}[:=][ \\t]{0,3}(?:\\\\{0,2}[\"'])?" +
      "(?![Bb]earer[ \\t]|Basic[ \\t])(?:[A-Za-z][A-Za-z0-9_-]{0,24}[ \\t]{1,4})?",
    body: "[A-Za-z0-9._~+/-]{12,}=*",
    accept: (secret) => /\d/.test(secret) || (secret.length >= 24 && /[a-z]/.test(secret) && /[A-Z]/.test(secret) && !secret.includes(".")),
  },
  // The password part of scheme://user:password@host, the user name possibly empty (redis://:pw@host).
  {
    kind: "url-password",
    lead: "(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\\s:/@\"'<>]{0,64}:",
    body: "[^\\s@/\"'<>]{1,128}(?=@)",
  },
];

/** All token rules as one alternation; rule i's secret is group `s<i>`, its kept lead `l<i>`. */
export const TOKEN_PATTERN = new RegExp(
  TOKEN_RULES.map((rule, i) => `${rule.lead === undefined ? "" : `(?<l${i}>${rule.lead})`}(?<s${i}>${rule.body})`).join("|"),
  "g",
);

/**
 * A literal every token rule's match contains. Most of a session's text has none of them, and
 * this test costs a fraction of TOKEN_PATTERN's scan, so text without one skips it. A new rule
 * must add its literal here (the per-kind tests fail otherwise).
 */
export const TOKEN_HINT =
  /-----BEGIN|sk-|gh[pousr]_|github_pat_|gl(?:pat|ptt|dt|rt|cbt|ft|soat)-|A[KS]IA|ecret|ECRET|AIza|xox|xapp-|hooks\.slack\.com|_live_|_test_|whsec_|npm_|eyJ|earer|Basic|uthorization|UTHORIZATION|:\/\//;
