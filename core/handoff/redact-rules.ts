/**
 * What a likely secret looks like. Written from each provider's published token format, not
 * copied from a scanner. Two pattern sets, each applied in one pass:
 * - TOKEN_PATTERN: self-identifying tokens (a provider prefix, a JWT, a private key block), plus
 *   a few values recognisable by what precedes them (`Bearer …`, a URL's password).
 * - ASSIGNMENT_PATTERN: `password=…`-style assignments, where only the key says it is a secret.
 *
 * Every pattern stays linear on hostile input: a token may only start where the character
 * before it could not continue it (a negative lookbehind on its own character class), every
 * run is a single character class followed by something outside it, and the free-text parts
 * have upper bounds. So no position is scanned more than a few times.
 */

export interface TokenRule {
  kind: string;
  /** Text that must come before the secret and is kept (a header name, a URL's user). */
  lead?: string;
  /** The secret itself. */
  body: string;
}

/** Characters that may continue a base64url-ish token; a token never starts after one. */
const NOT_AFTER_TOKEN = "(?<![A-Za-z0-9_-])";
const NOT_BEFORE_TOKEN = "(?![A-Za-z0-9_-])";

export const TOKEN_RULES: readonly TokenRule[] = [
  // PEM: the BEGIN line, a line break (real or JSON-escaped), then base64 or an RFC 1421 header;
  // the block ends at the next five dashes (the END line) or, for a key cut short, where the
  // base64 stops. A lone BEGIN line (in a parser, say) is not a key.
  {
    kind: "private-key",
    body:
      "-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----(?:\\s|\\\\[rn]){1,4}(?=[A-Za-z0-9+/]{16}|Proc-Type:|Version:|Comment:)" +
      "[A-Za-z0-9+/=\\s\\\\:,.]*(?:-(?!----)[A-Za-z0-9+/=\\s\\\\:,.]*)*" +
      "(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----)?",
  },
  // Anthropic: sk-ant-<purpose><2 digits>-<base64url>; before OpenAI, which shares "sk-".
  { kind: "anthropic-key", body: `${NOT_AFTER_TOKEN}sk-ant-[a-z]{2,8}\\d{2}-[A-Za-z0-9_-]{32,}` },
  // OpenAI: project/service-account/admin keys carry base64url; legacy keys are sk- plus alphanumerics.
  { kind: "openai-key", body: `${NOT_AFTER_TOKEN}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,}${NOT_BEFORE_TOKEN})` },
  // GitHub: ghp_/gho_/ghu_/ghs_/ghr_ plus 36 base62 characters; fine-grained github_pat_….
  { kind: "github-token", body: `${NOT_AFTER_TOKEN}(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{50,244})${NOT_BEFORE_TOKEN}` },
  // GitLab: personal, project, deploy, runner, CI-build, feed and SCIM tokens.
  { kind: "gitlab-token", body: `${NOT_AFTER_TOKEN}gl(?:pat|ptt|dt|rt|cbt|ft|soat)-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]{2,}){0,2}` },
  // AWS access key ids: AKIA (long-term) or ASIA (temporary) plus 16 base32 characters.
  { kind: "aws-access-key-id", body: `(?<![A-Za-z0-9])A(?:KI|SI)A[A-Z2-7]{16}(?![A-Za-z0-9])` },
  // AWS secret access keys have no prefix: only the name they are assigned to gives them away.
  {
    kind: "aws-secret-key",
    lead: `(?<![A-Za-z0-9])(?:[Aa][Ww][Ss]_?)?(?:secret_?access_?key|SECRET_?ACCESS_?KEY|[Ss]ecret_?[Aa]ccess_?[Kk]ey)(?:\\\\{0,2}["'])?\\s{0,3}[:=]\\s{0,3}(?:\\\\{0,2}["'])?`,
    body: `[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])`,
  },
  // Google API keys: AIza plus 35 base64url characters.
  { kind: "google-api-key", body: `${NOT_AFTER_TOKEN}AIza[A-Za-z0-9_-]{35}${NOT_BEFORE_TOKEN}` },
  // Slack: bot/user/app-level/refresh tokens, then incoming-webhook and workflow URLs.
  { kind: "slack-token", body: `${NOT_AFTER_TOKEN}(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}` },
  { kind: "slack-webhook", body: `https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}` },
  // Stripe: secret and restricted keys in live or test mode, live publishable keys, webhook secrets.
  { kind: "stripe-key", body: `${NOT_AFTER_TOKEN}(?:(?:sk|rk)_(?:live|test)_|pk_live_|whsec_)[A-Za-z0-9]{16,}` },
  // npm automation/publish tokens.
  { kind: "npm-token", body: `${NOT_AFTER_TOKEN}npm_[A-Za-z0-9]{36}${NOT_BEFORE_TOKEN}` },
  // JWT: base64url JSON header and payload (both start `{"` → `eyJ`), then the signature.
  { kind: "jwt", body: `${NOT_AFTER_TOKEN}eyJ[A-Za-z0-9_-]{5,}\\.eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*` },
  // Credentials in an Authorization header, whatever the token looks like.
  { kind: "bearer-token", lead: "(?<![A-Za-z0-9])[Bb]earer[ \\t]{1,4}", body: "[A-Za-z0-9._~+/-]{16,}=*" },
  { kind: "basic-auth", lead: "(?<![A-Za-z0-9])Basic[ \\t]{1,4}", body: "[A-Za-z0-9+/]{12,}={0,2}(?![A-Za-z0-9+/=])" },
  // The password part of scheme://user:password@host.
  { kind: "url-password", lead: "(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,15}://[^\\s:/@\"'<>]{1,64}:", body: "[^\\s@/\"'<>]{1,128}(?=@)" },
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
export const TOKEN_HINT = /-----BEGIN|sk-|gh[pousr]_|github_pat_|gl(?:pat|ptt|dt|rt|cbt|ft|soat)-|A[KS]IA|ecret|ECRET|AIza|xox|xapp-|hooks\.slack\.com|_live_|_test_|whsec_|npm_|eyJ|earer|Basic|:\/\//;

/** The last word of a key that makes its value a secret, and the kind it reports. */
const KEY_WORD = "(?<word>pass(?:word|wd|phrase)|secret|token|(?:api|access|auth|private|secret|signing|encryption|master)[_-]?key|apikey)";

/**
 * `<key><sep><value>`, case-insensitive. Keys end in a secret word (`DB_PASSWORD`, `"apiKey"`,
 * `--auth-token`); separators are `=`/`:` (env, JSON, YAML, code) or, for a `--flag`, spaces.
 */
export const ASSIGNMENT_PATTERN = new RegExp(
  "(?<![A-Za-z0-9_.-])(?<lead>" +
    `(?:--(?:[a-z0-9]+-){0,4}${KEY_WORD}(?:=|[ \\t]{1,3})` +
    `|(?:\\\\{0,2}["'])?[a-z0-9_.-]{0,48}?${KEY_WORD.replace("<word>", "<word2>")}(?:\\\\{0,2}["'])?[ \\t]{0,3}[:=][ \\t]{0,3})` +
    ")" +
    "(?:(?<quote>\\\\{0,2}[\"'])(?<quoted>[^\"'\\\\\\r\\n]{1,512})\\k<quote>" +
    "|(?<bare>[^\\s\"'`\\\\,;&|<>(){}\\[\\]]{1,512})(?<call>\\(?))",
  "gi",
);

/** Every assignment's key word contains one of these (KEY_WORD); text without them skips ASSIGNMENT_PATTERN. */
export const ASSIGNMENT_HINT = /pass|secret|token|key/i;

/** The kind an assignment's key word reports. */
export function assignmentKind(word: string): string {
  const w = word.toLowerCase();
  if (w.startsWith("pass")) return "password";
  if (w === "token") return "token";
  if (w === "secret") return "secret";
  return "api-key";
}

/** Words that, as an unquoted value, are code or configuration rather than a secret. */
const NOT_SECRETS = new Set([
  // types and keywords (`password: string`, `token = await …`)
  "string", "number", "boolean", "bool", "any", "unknown", "object", "never", "void", "str", "int", "bytes",
  "null", "undefined", "none", "nil", "true", "false", "yes", "no", "on", "off",
  "new", "await", "async", "this", "self", "function", "typeof", "const", "let", "var", "return", "optional", "required",
  // stand-ins people write instead of a real value
  "changeme", "change-me", "password", "secret", "token", "example", "placeholder", "redacted", "dummy", "test", "todo", "empty",
]);

/** True for values that stand in for a secret rather than being one: `${TOKEN}`, `xxx`, `<your-key>`, `…`. */
export function isPlaceholderValue(value: string): boolean {
  const v = value.trim();
  if (v.length < 3) return true;
  if (/^(?:\$|\{\{|%\(?\w|\[REDACTED:|<.*>$)/.test(v)) return true;
  if (/^[xX*.#_-]+$|^(.)\1*$/.test(v)) return true;
  if (/^(?:your|my)[_-]?[a-z_-]*$/i.test(v) || /^(?:\.\.\.|…)|(?:\.\.\.|…)$/.test(v)) return true;
  return NOT_SECRETS.has(v.toLowerCase());
}

/**
 * True when an unquoted value reads as code: a call, a property path, a variable on the right of
 * a spaced `=`, a word after `:`, or a small number (`max_token: 100`).
 */
export function looksLikeCode(value: string, separator: string, isCall: boolean): boolean {
  if (isCall || value.startsWith("-")) return true;
  if (/^\d{1,5}$/.test(value)) return true;
  const identifier = /^[A-Za-z_$][\w$]*$/.test(value);
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(value)) return true;
  if (identifier && /\s=/.test(separator)) return true;
  // After `:` a word without digits is a type or a variable (`token: Token`, `{ password: hashed }`).
  if (identifier && separator.includes(":") && !/\d/.test(value)) return true;
  return false;
}
