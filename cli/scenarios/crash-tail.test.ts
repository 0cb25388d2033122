/**
 * What a crash can leave at the end of a session (a run of NUL bytes, no line break) or in its
 * middle is one unusable line, skipped unread with its number, as the user sees it from the CLI.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

const EXAMPLE = readFileSync(join(REPO, "fixtures", "example.jsonl"));
const LINES = EXAMPLE.toString("utf8").trimEnd().split("\n").length;
const NULS = Buffer.alloc(4 * 1024 * 1024);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-crash-tail-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CASES: { name: string; bytes: () => Buffer; line: number }[] = [
  { name: "a tail of NUL bytes without a line break", bytes: () => Buffer.concat([EXAMPLE, NULS]), line: LINES + 1 },
  { name: "a line of NUL bytes after the last entry", bytes: () => Buffer.concat([EXAMPLE, NULS, Buffer.from("\n")]), line: LINES + 1 },
  {
    name: "an entry cut short by NUL bytes after the header",
    bytes: () => {
      const cut = EXAMPLE.indexOf(10) + 1;
      return Buffer.concat([EXAMPLE.subarray(0, cut), Buffer.from('{"type":"mess'), NULS, Buffer.from("\n"), EXAMPLE.subarray(cut)]);
    },
    line: 2,
  },
];

test.each(CASES)("$name: inspect skips that line with its number, --strict refuses it (exit 2)", async ({ bytes, line }) => {
  const path = join(dir, "crashed.jsonl");
  writeFileSync(path, bytes());
  const run = await runAgent(["inspect", path], cleanEnv(dir));
  expect(run.code).toBe(0);
  expect(run.stderr).toBe(
    `warning: ${path}: skipped 1 unusable line: ${line} (line ${line}: holds NUL bytes (a write cut short by a crash?); skipped unread)\n`,
  );
  expect(run.stdout).toContain("format    pi, version 3");
  const strict = await runAgent(["inspect", path, "--strict"], cleanEnv(dir));
  expect(strict.code).toBe(2);
  expect(strict.stderr).toStartWith(`error: ${path}:${line}: holds NUL bytes`);
});
