import { describe, expect, test } from "bun:test";
import { assignmentMatches } from "./redact-assignment-matches.ts";
import { ASSIGNMENT_PATTERN, MAY_HOLD_ESCAPE, PLAIN_ASSIGNMENT_PATTERN } from "./redact-assignments.ts";

/** What `line.matchAll` of the pattern the line needs gives: each match's place, text and groups. */
function scanned(line: string): unknown[] {
  const pattern = MAY_HOLD_ESCAPE.test(line) ? ASSIGNMENT_PATTERN : PLAIN_ASSIGNMENT_PATTERN;
  return [...line.matchAll(pattern)].map((m) => [m.index, m[0], JSON.stringify(m.groups)]);
}
const found = (line: string) => assignmentMatches(line).map((m) => [m.index, m[0], JSON.stringify(m.groups)]);

const LINES: [what: string, line: string][] = [
  ["no key word", "nothing to see here"],
  ["a key word, no assignment", "the token count is 512"],
  ["one assignment", "password=Hunter2isMyPass"],
  ["a key word after a run of key characters", "my_really.long-name.db_password = 's3cret-Value9'"],
  ["a run longer than a lead may be", `${"a".repeat(80)}_password=Hunter2x`],
  ["a flag", "deploy --db-admin-auth-token abc123XYZ9 --verbose"],
  ["a flag of many parts", "--one-two-three-four-api-key=abc123XYZ9"],
  ["quoted keys, as JSON", '{"api_key": "abc123XYZ9", "token": "def456UVW8"}'],
  ["escaped quotes, JSON text in JSON text", '{\\"password\\":\\"Hunter2x\\",\\"secret\\":\\"Q9w8e7r6\\"}'],
  ["escaped twice", '{\\\\"token\\\\": \\\\"abc123XYZ9\\\\"}'],
  ["colour around the key and the value", "\x1b[1mapi_key\x1b[0m: \x1b[32mabc123XYZ9\x1b[0m"],
  ["colour written as text", "\\u001b[1mtoken\\u001b[0m=\\u001b[32mabc123XYZ9"],
  ["a percent escape before the key", "?a=1%26token%3Dabc123XYZ9&b=2"],
  ["key words inside one another", "passwordtoken=abc passpass=def tokentoken: ghi keykey=jkl"],
  ["an assignment in an assignment's value", "password=token=abc123XYZ9"],
  ["two on one line", "user=me password=Hunter2x token: abc123XYZ9 key=Zz9"],
  ["a type annotation", "api_key: Optional[str] = 'abc123XYZ9'"],
  ["a placeholder's kind", "[REDACTED:password:1] password=[REDACTED:password:2]"],
  ["key words glued to words", "apikey_token_secret_pwd_pass=x1 mypwd=y2 _pwd=z3 a.pwd=w4"],
  ["upper case", "API_KEY=ABC123 PASSWORD: XYZ789 Token = qwe"],
  ["a key word at the start and the end", "key=1 and at the end a key"],
  ["many key words, the last an assignment", `${"token ".repeat(40)}password=Hunter2x`],
  ["many assignments", Array.from({ length: 50 }, (_, i) => `key${i}=v${i}x9`).join(" ")],
  ["many key words with escapes", `${"\x1b[0mtoken\x1b[1m: ".repeat(40)}secret=abc123`],
  ["a quote between runs", `x"'\\"token": "abc123XYZ9"`],
];

/** Lines made of the pieces assignments are made of, in a fixed order (a seeded walk). */
function generated(count: number): string[] {
  const pieces = [
    "password",
    "pwd",
    "_pwd",
    "secret",
    "token",
    "api_key",
    "apiKey",
    "--auth-token",
    "key",
    "KEY",
    "Pass",
    "pass",
    "=",
    ": ",
    " = ",
    ":=",
    "=>",
    "?=",
    '"',
    "'",
    '\\"',
    '\\\\"',
    "\x1b[32m",
    "\\u001b[0m",
    "%3D",
    " ",
    "\t",
    "_",
    ".",
    "-",
    "abc123XYZ9",
    "Hunter2",
    "x",
    "[REDACTED:token:1]",
    "$TOKEN",
    "${SECRET}",
    "str",
    "|",
    ",",
    ";",
  ];
  let seed = 23;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  return Array.from({ length: count }, () => Array.from({ length: 2 + (next() % 24) }, () => pieces[next() % pieces.length]).join(""));
}

describe("assignmentMatches", () => {
  test.each(LINES)("%s: the matches of the pattern's own scan", (_what, line) => {
    expect(found(line)).toEqual(scanned(line));
  });

  test("generated lines: the matches of the pattern's own scan", () => {
    let matched = 0;
    for (const line of generated(3000)) {
      const want = scanned(line);
      matched += want.length;
      expect({ line, matches: found(line) }).toEqual({ line, matches: want });
    }
    expect(matched).toBeGreaterThan(500);
  });
});
