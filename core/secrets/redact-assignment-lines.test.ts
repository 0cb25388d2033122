/**
 * `mayHoldAssignment`, the look after each key word that lets redact skip the assignment
 * pattern's scan of a line: it may say yes where nothing matches, never no where something does.
 */
import { describe, expect, test } from "bun:test";
import { KINDS } from "../../fixtures/secrets-everywhere.ts";
import { assignmentPatternFor, mayHoldAssignment } from "./redact-assignments.ts";

const matches = (line: string) => [...line.matchAll(assignmentPatternFor(line))].length;

const ASSIGNMENTS: string[] = [
  "password=Hunter2isMyPass",
  "PASSWORD: Hunter2isMyPass",
  "passwd=Hunter2x",
  "passphrase = 'correct horse'",
  "pass=Hunter2x",
  "db.pwd=Hunter2x",
  "client_secret: 9f8e7d6c5b4a",
  "secret_key=abc123XYZ9",
  "AWS_SECRET-KEY := abc123XYZ9",
  "api_key: xKjHgFdSaQwErTyU",
  "apikey=abc123XYZ9",
  "encryption-key => abc123XYZ9",
  "token ?= abc123xyz789",
  'token: "abc\\"def123ghi"',
  "'password' => 'Hunter2isMyPass3',",
  '{"api_key":"abc123XYZ9"}',
  '{\\"token\\":\\"abc123XYZ9\\"}',
  '{\\\\"token\\\\": \\\\"abc123XYZ9\\\\"}',
  "api_key: Optional[str] = 'abc123XYZ9'",
  "password        = Hunter2isMyPass1",
  "password\t\t=\tHunter2isMyPass1",
  "deploy --db-admin-auth-token abc123XYZ9",
  "deploy --password\tHunter2x",
  "--api-key=abc123XYZ9",
  "\x1b[1mapi_key\x1b[0m: \x1b[32mabc123XYZ9\x1b[0m",
  "\\u001b[1mtoken\\u001b[0m=\\u001b[32mabc123XYZ9",
  "token\x1b[0m: abc123XYZ9",
  "\u009b1mpassword\u009b0m=Hunter2x",
  "?a=1&token=abc123XYZ9&b=2",
  "password: string = 'Hunter2x'",
  "the token: abc123XYZ9 and more",
];

const PROSE: string[] = [
  "the token count is 512",
  "keyboard keys and the keys of a map",
  "-----END RSA PRIVATE KEY-----",
  "passing the secrets on",
  "tokens.map((token) => token.length)",
  "a password-protected file",
];

/** Lines made of the pieces assignments are made of, in a fixed order (a seeded walk). */
function generated(count: number): string[] {
  const pieces = [
    ...[
      "password",
      "passwd",
      "passphrase",
      "pwd",
      "_pwd",
      "secret",
      "secret_key",
      "token",
      "api_key",
      "apiKey",
      "--auth-token",
      "--",
      "key",
    ],
    ...["KEY", "Pass", "pass", "=", ": ", " = ", ":=", "=>", "?=", '"', "'", '\\"', '\\\\"', "\x1b[32m", "\u009b1m", "\\u001b[0m", "%3D"],
    ...[
      " ",
      "\t",
      "   ",
      "_",
      ".",
      "-",
      "abc123XYZ9",
      "Hunter2",
      "x",
      "[REDACTED:token:1]",
      "$TOKEN",
      "str",
      "Optional[str]",
      "|",
      ",",
      ";",
    ],
  ];
  let seed = 23;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  return Array.from({ length: count }, () => Array.from({ length: 2 + (next() % 16) }, () => pieces[next() % pieces.length]).join(""));
}

describe("mayHoldAssignment", () => {
  test.each(ASSIGNMENTS)("%j holds an assignment, and may", (line) => {
    expect(matches(line)).toBeGreaterThan(0);
    expect(mayHoldAssignment(line)).toBe(true);
  });

  test.each(PROSE)("%j: no assignment, and none is looked for", (line) => {
    expect(matches(line)).toBe(0);
    expect(mayHoldAssignment(line)).toBe(false);
  });

  test("every line of the secrets-everywhere table the pattern matches may hold one", () => {
    for (const k of KINDS) {
      const line = k.line(k.secret(k.kind));
      if (matches(line) > 0) expect({ line, may: mayHoldAssignment(line) }).toEqual({ line, may: true });
    }
  });

  test("generated lines: never no where the pattern matches; and most without a match are skipped", () => {
    let matched = 0;
    let skipped = 0;
    for (const line of generated(20000)) {
      const found = matches(line) > 0;
      const may = mayHoldAssignment(line);
      if (found) {
        matched++;
        expect({ line, may }).toEqual({ line, may: true });
      } else if (!may) skipped++;
    }
    expect(matched).toBeGreaterThan(1000);
    expect(skipped).toBeGreaterThan(100);
  });
});
