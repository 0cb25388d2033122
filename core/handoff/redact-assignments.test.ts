import { describe, expect, test } from "bun:test";
import { createRedactor } from "./redact.ts";
import { readsAsName } from "./redact-assignments.ts";

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
  "password = user_input",
  "secret = generated_secret",
  "token = refreshToken",
  "password: hashed",
  "TOKEN: DB_PASSWORD_2",
  "password = bcrypt.hash(pw, 10)",
  "f(password=None)",
  "api_key: str = Field(default=None)",
  "token: typeof x",
  "PASSWORD=${DB_PASSWORD}",
  "password: [REDACTED:password:1]",
  "a=1,password=,b=2",
  "see [REDACTED:url-password:1]@db and [REDACTED:github-token:2]",
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
