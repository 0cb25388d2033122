import { expect, test } from "bun:test";
import { createRedactor } from "./redact.ts";

// The assignment pattern runs only on the lines that hold a key word (redact.ts's assignmentLines):
// these are the edges of a line, where that could differ from a scan of the whole text. Each
// expected text is what the whole-text scan gave before the change.
const AT_LINE_EDGES: [string, string][] = [
  ["password=hunter2secret\nnext line", "password=[REDACTED:password:1]\nnext line"],
  ["first line\npassword=hunter2secret", "first line\npassword=[REDACTED:password:1]"],
  ["a\r\npassword = Sup3rS3cretValue\r\nb", "a\r\npassword = [REDACTED:password:1]\r\nb"],
  ['api_key: str =\n"abcdefghijk123"', 'api_key: str =\n"abcdefghijk123"'],
  [
    'api_key: str = "abcdefghijk123"\nline two token: zzzz9999yyyy',
    'api_key: str = "[REDACTED:api-key:1]"\nline two token: [REDACTED:token:1]',
  ],
  ["\\npassword=Sup3rS3cretValue", "\\npassword=[REDACTED:password:1]"],
  ["text\n--auth-token Sup3rS3cretValue\n--other", "text\n--auth-token [REDACTED:token:1]\n--other"],
  [
    '{"password": "P@ss;w0rd-tail",\n "token": "tok_abc123XYZ789"}',
    '{"password": "[REDACTED:password:1]",\n "token": "[REDACTED:token:1]"}',
  ],
  ["no key here\njust words\n", "no key here\njust words\n"],
  ["TOKEN=aaaa\nTOKEN=aaaa\nsecret: 'it''s-a-secret'", "TOKEN=aaaa\nTOKEN=aaaa\nsecret: '[REDACTED:secret:1]'"],
  ["mypassword=abc123def456\nbypass=notasecret123", "mypassword=[REDACTED:password:1]\nbypass=notasecret123"],
  ["key\n=value123456", "key\n=value123456"],
  ["DB_PASS=x9y8z7w6v5\n\nMYSQL_PWD=q1w2e3r4t5", "DB_PASS=[REDACTED:password:1]\n\nMYSQL_PWD=[REDACTED:password:2]"],
];

test.each(AT_LINE_EDGES)("%p redacts as the whole-text scan did", (text, expected) => {
  expect(createRedactor().redact(text)).toBe(expected);
});
