/**
 * A session written by a newer version of its agent than `bun run compat` tested gets one line
 * on stderr, from `inspect` and from `handoff` alike, and the run goes on: formats change between
 * versions, and the user should know we may misread what changed. Spawned as a user runs it, on
 * a Claude Code and a Codex fixture whose version was bumped.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-newer-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Replaces the last occurrence of `from` only. */
function replaceLast(text: string, from: string, to: string): string {
  const at = text.lastIndexOf(from);
  return at < 0 ? text : text.slice(0, at) + to + text.slice(at + from.length);
}

const CLAUDE = "fixtures/sessions/claude-code/split.jsonl";
const CODEX = "fixtures/sessions/codex/compaction.jsonl";
const NOTICE = (agent: string, version: string, tested: string) =>
  `written by ${agent} ${version}, newer than ${tested}, the version we tested: its format may have changed, and parts of it may be misread`;

const CASES: [string, string, (text: string) => string, string | undefined][] = [
  [
    "Claude Code, every line 2.2.0",
    CLAUDE,
    (t) => t.replaceAll('"version":"2.1.328"', '"version":"2.2.0"'),
    NOTICE("Claude Code", "2.2.0", "2.1.328"),
  ],
  // A session a newer Claude Code resumed is that version's file from then on.
  [
    "Claude Code, resumed by 2.1.400 (its last line)",
    CLAUDE,
    (t) => replaceLast(t, '"version":"2.1.328"', '"version":"2.1.400"'),
    NOTICE("Claude Code", "2.1.400", "2.1.328"),
  ],
  ["Codex 0.170.0", CODEX, (t) => t.replace('"cli_version":"0.169.0"', '"cli_version":"0.170.0"'), NOTICE("Codex", "0.170.0", "0.169.0")],
  ["Claude Code, the version tested", CLAUDE, (t) => t, undefined],
  ["Codex, an older version", CODEX, (t) => t.replace('"cli_version":"0.169.0"', '"cli_version":"0.150.2"'), undefined],
];

describe("a session from a newer agent than the one tested", () => {
  test.each(CASES)("%s", async (_, fixture, edit, notice) => {
    const text = readFileSync(join(REPO, fixture), "utf8");
    const edited = edit(text);
    if (notice !== undefined) expect(edited).not.toBe(text);
    const source = join(dir, "source.jsonl");
    writeFileSync(source, edited);
    const env = cleanEnv(dir);
    const expected = notice === undefined ? [] : [`warning: ${source}: ${notice}`];

    const inspect = await runAgent(["inspect", source], env);
    expect(inspect.code).toBe(0);
    expect(inspect.stderr.split("\n").filter((line) => line.includes("newer than") || line.startsWith("warning:"))).toEqual(expected);

    // Named as its agent resumes a file by (another name would add a warning of its own).
    const out = join(
      dir,
      fixture === CODEX
        ? "rollout-2026-01-02T10-00-00-12345678-1234-4234-8234-123456789abc.jsonl"
        : "12345678-1234-4234-8234-123456789abc.jsonl",
    );
    const handoff = await runAgent(["handoff", source, "--engine", "offline", "-o", out], env);
    expect(handoff.code).toBe(0);
    expect(handoff.stderr.split("\n").filter((line) => line.includes("newer than") || line.startsWith("warning:"))).toEqual(expected);
    expect(readFileSync(out, "utf8")).toContain("<handoff-context>");
  });
});

describe("the file's version is printed in the notice whole or cut short, and never with a secret or a part of one", () => {
  const GITHUB = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0";
  const AWS = "AKIAIOSFODNN7EXAMPLE";
  const VERSIONS: [string, string, string][] = [
    ["a token the cut would have split", `9.9.9 ${GITHUB}`, GITHUB],
    ["a short key, not cut", `9.9.9 ${AWS}`, AWS],
    ["a token after 40 characters", `9.9.9-${"x".repeat(40)} ${GITHUB}`, GITHUB],
  ];
  test.each(VERSIONS)("Codex, %s", async (_, version, secret) => {
    const text = readFileSync(join(REPO, CODEX), "utf8").replace('"cli_version":"0.169.0"', `"cli_version":${JSON.stringify(version)}`);
    const source = join(dir, "source.jsonl");
    writeFileSync(source, text);
    const run = await runAgent(["inspect", source], cleanEnv(dir));
    expect(run.code).toBe(0);
    const [notice] = run.stderr.split("\n").filter((line) => line.includes("newer than"));
    expect(notice).toStartWith(`warning: ${source}: written by Codex 9.9.9`);
    // No 8 characters in a row of the secret are left (a cut placeholder would leave its start).
    const parts = Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
    expect(parts.filter((part) => notice?.includes(part))).toEqual([]);
    expect(notice?.length).toBeLessThan(300);
  });
});
