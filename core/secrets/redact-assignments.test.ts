import { describe, expect, test } from "bun:test";
import { createRedactor } from "./redact.ts";
import { readsAsName } from "./redact-values.ts";

/** [text, the secret in it, its kind]: the values an outside review found sent in clear, and their neighbours. */
const SECRETS: [text: string, secret: string, kind: string][] = [
  // Unquoted values run to the end of their token.
  ["PASSWORD=Sup3r(Secret)!9", "Sup3r(Secret)!9", "password"],
  ["DB_PASSWORD=P@ss;w0rd-tail", "P@ss;w0rd-tail", "password"],
  ["export API_TOKEN=a1b2&c3d4|e5f6 && deploy", "a1b2&c3d4|e5f6", "token"],
  ["TOKEN=abc123,def456", "abc123,def456", "token"],
  // Spaces around `=` (ini, my.cnf) and `:` (YAML).
  ["password = Hunter2isMyPass", "Hunter2isMyPass", "password"],
  ["[client]\nuser = app\npassword = s3cretPass\n", "s3cretPass", "password"],
  ["[auth]\nsecret = 8f7a6b5c4d3e2f1a\n", "8f7a6b5c4d3e2f1a", "secret"],
  ["secret\t=\tq9w8e7r6t5y4", "q9w8e7r6t5y4", "secret"],
  ["api_key: abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx", "api-key"],
  ["api_key: xKjHgFdSaQwErTyU", "xKjHgFdSaQwErTyU", "api-key"],
  ["  password: hunter2", "hunter2", "password"],
  ["client_secret: 9f8e7d6c5b4a", "9f8e7d6c5b4a", "secret"],
  // Quoted values are the whole quoted string, escapes included.
  ['password="it\'s-Secret-77"', "it's-Secret-77", "password"],
  ["password='say \"hi\" 42'", 'say "hi" 42', "password"],
  ['token: "abc\\"def123ghi"', 'abc\\"def123ghi', "token"],
  ["token: 'it\\'s-a-token-9'", "it\\'s-a-token-9", "token"],
  // Closing punctuation the value did not open stays outside it.
  ["login(password=hunter2staging)", "hunter2staging", "password"],
  ["{ password: Xy7pQ2mN9vL4 }", "Xy7pQ2mN9vL4", "password"],
  ["set PASSWORD=Tr0ub4dor; then", "Tr0ub4dor", "password"],
  // After a JSON escape (a file shown inside JSON text).
  ['{"text":"a\\npassword=hunter2-staging\\n"}', "hunter2-staging", "password"],
  // A second outside review: aligned columns, other languages' operators, YAML's quote escape.
  ["password        = Hunter2isMyPass1", "Hunter2isMyPass1", "password"],
  ["password\t\t\t\t=\t\tHunter2isMyPass1", "Hunter2isMyPass1", "password"],
  ['password := "Hunter2isMyPass2"', "Hunter2isMyPass2", "password"],
  ["API_KEY := abc123def456ghi", "abc123def456ghi", "api-key"],
  ["'password' => 'Hunter2isMyPass3',", "Hunter2isMyPass3", "password"],
  [':password => "Hunter2isMyPass3"', "Hunter2isMyPass3", "password"],
  ["$db_password = 'Hunter2isMyPass3';", "Hunter2isMyPass3", "password"],
  ["TOKEN ?= abc123xyz789", "abc123xyz789", "token"],
  ["password: 'it''s-Secret-77'", "it''s-Secret-77", "password"],
  ["password: 'a''b''c-Secret-78'", "a''b''c-Secret-78", "password"],
  // Key words of their own: PASS, PWD after another word.
  ["DB_PASS=Xy7zQw9vLm4", "Xy7zQw9vLm4", "password"],
  ["MYSQL_PWD=Xy7zQw9vLm5", "Xy7zQw9vLm5", "password"],
  ["pass: Xy7zQw9vLm6", "Xy7zQw9vLm6", "password"],
  ["db.pwd=Xy7zQw9vLm7", "Xy7zQw9vLm7", "password"],
  ["--db-pass Xy7zQw9vLm8", "Xy7zQw9vLm8", "password"],
  // Dots in a tight value do not make it a property path unless each part reads as a name.
  ["DB_PASSWORD=P4ss.w0rd6", "P4ss.w0rd6", "password"],
  ["secret=xKjHgFdSaQ.zz", "xKjHgFdSaQ.zz", "secret"],
  // Soft stops do not end an unquoted value: its tail may look like the next key=value.
  ["DB_PASSWORD=P@ss;word=Tail9xyz7", "P@ss;word=Tail9xyz7", "password"],
  ["Server=db;Password=P@ss;w0rd;Trusted_Connection=True", "P@ss;w0rd;Trusted_Connection=True", "password"],
  ["GET /data?token=abc123def&page=2 HTTP/1.1", "abc123def&page=2", "token"],
  // A URL's password, its user name empty.
  ["REDIS_URL=redis://:Sup3rRedis9x@cache:6379/0", "Sup3rRedis9x", "url-password"],
  // A bare word under a secret's key is a secret unless it is provably a reference (issue 22 D):
  // words that read as names are no proof, nor is mixed case.
  ["api_key: abcdefghijklmnopqrstuvwxyzLEAKtwo", "abcdefghijklmnopqrstuvwxyzLEAKtwo", "api-key"],
  ["secret = qwertyuiopLEAKthree", "qwertyuiopLEAKthree", "secret"],
  ["password = user_input", "user_input", "password"],
  ["secret = generated_secret", "generated_secret", "secret"],
  ["token = refreshToken", "refreshToken", "token"],
  ["password: hashed", "hashed", "password"],
  ["TOKEN: DB_PASSWORD_2", "DB_PASSWORD_2", "token"],
  ["Password: swordfish", "swordfish", "password"],
  ["  secret: correcthorse", "correcthorse", "secret"],
  ["{ apiKey: swordfishValue }", "swordfishValue", "api-key"],
  ["const token = refreshToken;", "refreshToken", "token"],
  ["db_password = Swordfish # set by ops", "Swordfish", "password"],
  ["token: abcdefgh - the old one", "abcdefgh", "token"],
  ["password = swordfish / rotated monthly", "swordfish", "password"],
  // After a type annotation, the value is what follows the `=` (pydantic, TypeScript, Kotlin).
  ['api_key: str = "abc123xyzSECRET"', "abc123xyzSECRET", "api-key"],
  ['    api_key: SecretStr = "Hunter2isMyPass"', "Hunter2isMyPass", "api-key"],
  ['val apiToken: String = "swordfishXYZ1"', "swordfishXYZ1", "token"],
  ['password: Optional[str] = "s3cr3t-pw"', "s3cr3t-pw", "password"],
  ['secret: string | null = "q9w8e7r6t5"', "q9w8e7r6t5", "secret"],
  ["token: str = refreshToken", "refreshToken", "token"],
  // Dots that end a sentence are not an elided key: the value without them is the secret.
  ["PASSWORD=Hunter2xyz...", "Hunter2xyz", "password"],
  ["the token: Zx9Cv8Bn7Ml6Kj5H…", "Zx9Cv8Bn7Ml6Kj5H", "token"],
];

/** Text that reads as code or prose, and must come back unchanged. */
const NOT_SECRETS = [
  "password = getPassword()",
  "const token = getToken(user, { fresh: true });",
  "token: string",
  "  token: string;",
  "password: z.string().min(8),",
  "token: Token[]",
  "token: Promise<string>",
  "apiKey: config.apiKey,",
  "password = os.environ['DB_PASSWORD']",
  "password = bcrypt.hash(pw, 10)",
  "f(password=None)",
  "api_key: str = Field(default=None)",
  "token: typeof x",
  "PASSWORD=${DB_PASSWORD}",
  "password: [REDACTED:password:1]",
  "a=1,password=,b=2",
  "see [REDACTED:url-password:1]@db and [REDACTED:github-token:2]",
  // Their neighbours after the second review's rules: words that end in "pass" or "pwd", the
  // shell's PWD, operators in code, comparisons, property paths of names.
  "compass=N45E12",
  "bypass=Xy7zQw9vLm4",
  "PWD=/home/me/app",
  "OLDPWD=/home/me",
  "--pwd /tmp/work",
  "token => token.trim()",
  "password := getPassword()",
  "'password' => $request->input('password'),",
  "apiKey := cfg.APIKey",
  "First pass: rewrite the parser",
  "pass: 12",
  "password == expected",
  "DB_PASSWORD=config.db.password",
  "password = self.password2",
  "def check(password: str = None):",
  "password?: string;",
  // Provably references, under D's rule: a property path, a call, `$VAR`, `${…}`, `%VAR%`, the
  // environment, a type or literal word; an expression the line goes on with; a stand-in.
  "api_key: SecretStr",
  "private apiKey: string = process.env.OPENAI_API_KEY;",
  "let password: String? = nil",
  "password: str == expected",
  "password: str",
  "token = undefined",
  "secret: None",
  "password = process.env.DB_PASSWORD",
  'token = os.environ["GITHUB_TOKEN"]',
  "set API_KEY=%OPENAI_API_KEY%",
  "api_key: $OPENAI_API_KEY",
  "const hasApiKey = restoredModel ? !!(await getApiKeyForModel(restoredModel)) : false;",
  'password = input || ""',
  "token = cached ?? fresh",
  "OPENAI_API_KEY=sk-...",
  "export GROQ_API_KEY=gsk_...",
  "ANTHROPIC_API_KEY=sk-ant-...",
  "GITHUB_TOKEN=ghp_…",
  // A key word inside a sentence is not a key: the word after it is prose.
  "The secret: keep the parser small",
  "Next token: the parser reads one",
  // Nor is a key that labels a sentence: our own messages say `api-key: the API key is not read …`.
  "config.toml:2: api-key: the API key is not read from the config file",
  "Token: the unit the model counts",
];

describe("assignments", () => {
  test.each(SECRETS)("%p: %p is a %s", (text, secret, kind) => {
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).toBe(text.replace(secret, `[REDACTED:${kind}:1]`));
    expect(redactor.restore(out)).toBe(text);
  });

  test.each(NOT_SECRETS)("%p is code, left alone", (text) => {
    const redactor = createRedactor();
    expect(redactor.redact(text)).toBe(text);
    expect(redactor.count).toBe(0);
  });

  test("a value under a secret's key in structured data is a secret whatever it looks like", () => {
    const redactor = createRedactor();
    expect(redactor.redactAssigned("password", "hashed")).toBe("[REDACTED:password:1]");
    expect(redactor.redactAssigned("dbPassword", "Hunter2isMyPass")).toBe("[REDACTED:password:2]");
    expect(redactor.redactAssigned("apiKey", "sk-3hT9qLm2Vx8RkP4nZc7Wd1Yf6Gb0Js5Ea2Nu8Hi4Ko7Lr9M")).toBe("[REDACTED:openai-key:1]");
    expect(redactor.redactAssigned("path", "src/a.ts")).toBe("src/a.ts");
    expect(redactor.redactAssigned("max_tokens", "100")).toBe("100");
    expect(redactor.redactAssigned("password", "${PW}")).toBe("${PW}");
  });

  test.each([
    ["Authorization", "Token 0123456789abcdef0123", "[REDACTED:authorization:1]"],
    ["authorization", "letmein", "[REDACTED:authorization:1]"],
    ["Proxy-Authorization", "Negotiate YIIFzQYGKwYBBQUCoIIFwTCCBb2gMDAu", "[REDACTED:authorization:1]"],
    ["proxy_authorisation", "custom-credential-value", "[REDACTED:authorization:1]"],
    ["Authorization", "Bearer Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0", "Bearer [REDACTED:bearer-token:1]"],
    ["authorizationUrl", "https://example.com/oauth/authorize", "https://example.com/oauth/authorize"],
  ])("the value of header %p (%p) is a credential whatever its scheme", (key, value, expected) => {
    expect(createRedactor().redactAssigned(key, value)).toBe(expected);
  });
});

describe("a word that reads as a name, under a secret's key", () => {
  // Issue 22, F5: a value once judged a secret is withheld wherever it occurs, a name included.
  test("is replaced where it was found and wherever it recurs, as every secret is", () => {
    const redactor = createRedactor();
    const texts = ["token = refreshToken", "const next = refreshToken.rotate();", "password = Hunter2isMyPass", "log(Hunter2isMyPass)"];
    const once = texts.map((t) => redactor.redact(t));
    const [named = "", asName = "", secret = "", recurring = ""] = texts;
    expect(once).toEqual(["token = [REDACTED:token:1]", asName, "password = [REDACTED:password:1]", recurring]);
    expect(once.map((t) => redactor.redactKnown(t))).toEqual([
      "token = [REDACTED:token:1]",
      "const next = [REDACTED:token:1].rotate();",
      "password = [REDACTED:password:1]",
      "log([REDACTED:password:1])",
    ]);
    expect(redactor.restore(once.join("\n"))).toBe([named, asName, secret, recurring].join("\n"));
  });

  test("found as a secret anywhere (after `=`), it recurs too", () => {
    const redactor = createRedactor();
    expect(redactor.redact("token = refreshToken")).toBe("token = [REDACTED:token:1]");
    expect(redactor.redact("TOKEN=refreshToken")).toBe("TOKEN=[REDACTED:token:1]");
    expect(redactor.redactKnown("call(refreshToken)")).toBe("call([REDACTED:token:1])");
  });

  test("in an object: every value under a secret's key", () => {
    expect(createRedactor().redact("{ password: hashedPassword, token: refreshToken }")).toBe(
      "{ password: [REDACTED:password:1], token: [REDACTED:token:1] }",
    );
  });
});

describe("readsAsName", () => {
  test.each([
    ["hashed", true],
    ["refreshToken", true],
    ["Token", true],
    ["XMLHttpRequest", true],
    ["user_input2", true],
    ["DB_PASSWORD", true],
    ["Hunter2isMyPass", false],
    ["hunter2", false],
    ["abcdefghijklmnopqrst", false],
    ["xKjHgFdSaQwE", false],
    ["sntrys_a1b2c3d4e5", false],
  ])("%p → %p", (word, expected) => {
    expect(readsAsName(word)).toBe(expected);
  });
});

describe("the kind a key names, as a structured value's key", () => {
  test.each([
    ["password", "password"],
    ["DB_PASSWORD", "password"],
    ["passwords", "password"],
    ["userPwd", undefined],
    ["user_pwd", "password"],
    ["pass", "password"],
    ["passphrase", "password"],
    ["apiKey", "api-key"],
    ["api_keys", "api-key"],
    ["SIGNING-KEY", "api-key"],
    ["token", "token"],
    ["tokens", undefined],
    ["refresh_token", "token"],
    ["client_secret", "secret"],
    ["Authorization", "authorization"],
    ["proxy-authorization", "authorization"],
    ["command", undefined],
    ["path", undefined],
    ["max_tokens", undefined],
    ["keyboard", undefined],
    ["monkey", undefined],
    ["", undefined],
  ])("%p: %p", (key, kind) => {
    const redactor = createRedactor();
    const value = "Zq8vLm3Rt7Wx2Kp9";
    expect(redactor.redactAssigned(key, value)).toBe(kind === undefined ? value : `[REDACTED:${kind}:1]`);
  });
});
