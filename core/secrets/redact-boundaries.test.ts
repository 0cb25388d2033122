/**
 * An outside review's findings on where a secret starts and what stands in for one (issue 22,
 * the secrets items): a token right after a terminal escape or a control character (F1) or after
 * a JSON/JS escape (F17), a URL password of any length (F17), values wrongly taken for stand-ins
 * (F6), and a value read as a name that recurs elsewhere (F5). Each row failed before its fix.
 */
import { describe, expect, test } from "bun:test";
import { GITHUB, OPENAI } from "../../fixtures/redact-samples.ts";
import type { ContextMessage } from "../session/messages.ts";
import { createRedactor } from "./redact.ts";
import { createSecretsGuard } from "./secrets-guard.ts";

const AWS_ID = "AKIAIOSFODNN7EXAMPL2";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const TOKENS: [kind: string, token: string][] = [
  ["github-token", GITHUB],
  ["openai-key", OPENAI],
  ["aws-access-key-id", AWS_ID],
  ["jwt", JWT],
];

/** What may stand right before a token: a terminal escape, a control character, an escape of text. */
const BEFORE: [what: string, before: string][] = [
  ["an ANSI colour (CSI … m)", "\x1b[31m"],
  ["a bold colour with parameters", "\x1b[1;38;5;208m"],
  ["a reset", "\x1b[0m"],
  ["a cursor move (CSI … H)", "\x1b[12;1H"],
  ["an erase (CSI K)", "\x1b[K"],
  ["an 8-bit CSI", "\u009b32m"],
  ["an OSC title ended by BEL", "\x1b]0;build\x07"],
  ["an OSC link ended by ST", "\x1b]8;;https://example.com\x1b\\"],
  ["a two-character escape", "\x1bM"],
  ["a charset escape", "\x1b(B"],
  ["a C0 control", "\x01"],
  ["DEL", "\x7f"],
  ["a C1 control", "\u0085"],
  ["a colour written as JSON text (\\u001b)", String.raw`\u001b[31m`],
  ["a colour written as JS text (\\x1b)", String.raw`\x1b[31m`],
  ["a colour written as shell text (\\033)", String.raw`\033[31m`],
  ["a colour written as shell text (\\e)", String.raw`\e[31m`],
  ["a JSON \\u003c", String.raw`\u003c`],
  ["a JSON \\u003d", String.raw`\u003d`],
  ["a JSON \\u003D", String.raw`\u003D`],
  ["a JS \\x3d", String.raw`key\x3d`],
  ["a JS \\u{3d}", String.raw`\u{3d}`],
  ["a JSON \\f", String.raw`\f`],
  ["a JSON \\b", String.raw`\b`],
  ["a JSON \\n (as before)", String.raw`\n`],
];

describe("a token right after an escape or a control character is a token (F1, F17)", () => {
  const rows = BEFORE.flatMap(([what, before]) => TOKENS.map(([kind, token]) => [what, kind, before, token] as const));
  test.each(rows)("after %s: the %s is replaced", (_what, kind, before, token) => {
    const text = `out: ${before}${token}\x1b[0m done`;
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).toBe(text.replace(token, `[REDACTED:${kind}:1]`));
    expect(redactor.restore(out)).toBe(text);
  });

  test.each(BEFORE.filter(([what]) => !what.startsWith("a JS \\x3d")))("after %s: an assignment's key is found too", (_what, before) => {
    const text = `${before}password=Hunter2xyz9 done`;
    const out = createRedactor().redact(text);
    expect(out).not.toContain("Hunter2xyz9");
  });

  test.each([
    ["a word ending in an escape's letters", "mghp_ is no key here, alarmghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
    ["a word ending in hex digits", "cafe3dghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
  ])("%s is still a word, not an escape: left alone", (_what, text) => {
    expect(createRedactor().redact(text)).toBe(text);
  });
});

describe("a URL's password of any length (F17)", () => {
  test.each([16, 128, 129, 200, 1000])("%d characters between user: and @", (length) => {
    const password = Array.from({ length }, (_, i) => "Aa0Bb1Cc2"[i % 9]).join("");
    const text = `git clone https://user:${password}@example.com/r.git`;
    const out = createRedactor().redact(text);
    expect(out).toBe("git clone https://user:[REDACTED:url-password:1]@example.com/r.git");
  });
});

describe("only real stand-ins are exempt (F6)", () => {
  const SECRETS: [text: string, secret: string][] = [
    [
      "PASSWORD=$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
      "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW",
    ],
    [
      'password: "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"',
      "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
    ],
    ["secret=$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$Zm9vYmFyYmF6", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$Zm9vYmFyYmF6"],
    ["password=%Xk9p2Lq7Wm", "%Xk9p2Lq7Wm"],
    ['password="%(s3cr3t)Pw9"', "%(s3cr3t)Pw9"],
    ["password=mysecretpass123", "mysecretpass123"],
    ["password=mysecretpassword", "mysecretpassword"],
    ["DB_PASSWORD=my-Pa55word", "my-Pa55word"],
    ["password=yoursecretword", "yoursecretword"],
    ["password=-Xk9p2Lq7Wm", "-Xk9p2Lq7Wm"],
    ["password=-hunter2", "-hunter2"],
    ['password="Hunter2...xyz9"', "Hunter2...xyz9"],
    ['password="...Hunter2xyz9"', "...Hunter2xyz9"],
    ['token: "Zq7Xw2Rt9Yp4..."', "Zq7Xw2Rt9Yp4..."],
    ["api_key='abc…Zq7Xw2Rt9Yp4'", "abc…Zq7Xw2Rt9Yp4"],
  ];
  test.each(SECRETS)("%p: the value is a secret", (text, secret) => {
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).not.toContain(secret);
    expect(redactor.count).toBe(1);
    expect(redactor.restore(out)).toBe(text);
  });

  const STAND_INS = [
    'api_key: "<your-key>"',
    "API_KEY=<YOUR_API_KEY>",
    "password=xxx",
    'password="xxxxxxxx"',
    "password=********",
    "token=${GITHUB_TOKEN}",
    'token: "${env:GITHUB_TOKEN}"',
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "'password' => $request->input('password'),",
    "token=$GITHUB_TOKEN",
    "set API_KEY=%OPENAI_API_KEY%",
    'password: "%(db_password)s"',
    "password={{ db_password }}",
    'password: "..."',
    "password=…",
    'api_key: "sk-..."',
    'api_key: "sk-...abcd"',
    "OPENAI_API_KEY=your-api-key",
    "OPENAI_API_KEY=your_api_key_here",
    "mysql --password --verbose",
    "tool --token -v",
    "max_token_delta = -42",
  ];
  test.each(STAND_INS)("%p stands in for a secret: left alone", (text) => {
    const redactor = createRedactor();
    expect(redactor.redact(text)).toBe(text);
    expect(redactor.count).toBe(0);
  });
});

describe("a value read as a name is that secret wherever it recurs (F5)", () => {
  test.each([
    ["token = refreshToken", "refreshToken"],
    ["secret = generated_secret", "generated_secret"],
    ["password: hashedValue", "hashedValue"],
    ["password = user_input", "user_input"],
  ])("%p, then the value alone in another text", (found, value) => {
    const redactor = createRedactor();
    const first = redactor.redact(found);
    expect(first).not.toContain(value);
    const later = `the login is ${value} (see ${value}.txt)`;
    const out = redactor.redactKnown(redactor.redact(later));
    expect(out).not.toContain(value);
    expect(redactor.restore(out)).toBe(later);
  });
});

describe("the guard: a name-like value found in one message is withheld from every other (F5)", () => {
  test.each([
    [
      "a later user message",
      (v: string): ContextMessage => ({ role: "user", kind: "user", content: [{ type: "text", text: `use ${v}` }], entryId: "u2" }),
    ],
    [
      "a tool's output",
      (v: string): ContextMessage =>
        ({
          role: "toolResult",
          toolCallId: "c1",
          toolName: "bash",
          content: [{ type: "text", text: `$ echo $T\n${v}` }],
          isError: false,
          entryId: "t1",
        }) as ContextMessage,
    ],
  ])("%s", (_place, recurs) => {
    const value = "refreshTokenValue";
    const context: ContextMessage[] = [
      { role: "user", kind: "user", content: [{ type: "text", text: `token = ${value}` }], entryId: "u1" },
      recurs(value),
    ];
    const sent = JSON.stringify(createSecretsGuard({ context }).outgoing());
    expect(sent).not.toContain(value);
    expect(sent.split("[REDACTED:token:1]").length - 1).toBe(2);
  });
});
