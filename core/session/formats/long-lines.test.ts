/**
 * A line that is absurdly long, or holds NUL bytes (what a crash can leave), is skipped unread
 * with its number, in every format, and the rest of the session still reads. The bound is
 * lowered here so a few MB show it (the real one is `MAX_LINE_BYTES`, 64 MiB).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reusedChunks, utf8 } from "../../../fixtures/chunks.ts";
import { REPO } from "../../../fixtures/run-agent.ts";
import { MAX_LINE_BYTES } from "../lines.ts";
import { readSession } from "./read.ts";

const LIMIT = 1024 * 1024;
const CHUNK = 64 * 1024;

const SOURCES = [
  ["pi", "fixtures/real/pi/session.jsonl"],
  ["omp", "fixtures/real/omp/session.jsonl"],
  ["claude-code", "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl"],
  ["codex", "fixtures/real/codex/rollout.jsonl"],
] as const;

const TOO_LONG = /^longer than 1 MiB; skipped unread$/;
const NULS = /^holds NUL bytes \(a write cut short by a crash\?\); skipped unread$/;

/** Bad lines, and where they go: after the file's second line, or as its torn tail (no line break). */
const BAD: { name: string; bytes: () => Uint8Array; at: "middle" | "tail"; reason: RegExp }[] = [
  { name: "a 3 MB JSON line", bytes: () => utf8(`{"type":"message","pad":"${"a".repeat(3 * LIMIT)}"}`), at: "middle", reason: TOO_LONG },
  { name: "a 3 MB run of NUL bytes", bytes: () => new Uint8Array(3 * LIMIT), at: "middle", reason: NULS },
  {
    name: "a line cut short by NUL bytes",
    bytes: () => new Uint8Array([...utf8('{"type":"mess'), ...new Uint8Array(3 * LIMIT)]),
    at: "middle",
    reason: NULS,
  },
  { name: "a 3 MB tail of NUL bytes", bytes: () => new Uint8Array(3 * LIMIT), at: "tail", reason: NULS },
  { name: "a 3 MB tail of text", bytes: () => utf8(`{"type":"message","pad":"${"a".repeat(3 * LIMIT)}`), at: "tail", reason: TOO_LONG },
];

function withBadLine(original: Buffer, bad: Uint8Array, at: "middle" | "tail"): { bytes: Buffer; line: number } {
  const lines = original.toString("utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  if (at === "tail") return { bytes: Buffer.concat([original, bad]), line: lines.length + 1 };
  const cut = Buffer.byteLength(`${lines.slice(0, 2).join("\n")}\n`);
  return { bytes: Buffer.concat([original.subarray(0, cut), bad, Buffer.from("\n"), original.subarray(cut)]), line: 3 };
}

test("the bound is 64 MiB", () => {
  expect(MAX_LINE_BYTES).toBe(64 * 1024 * 1024);
});

describe("a line too long or holding NUL bytes is skipped unread, named by its number", () => {
  for (const [agent, file] of SOURCES)
    for (const bad of BAD)
      test(`${agent}: ${bad.name} (${bad.at})`, () => {
        const original = readFileSync(join(REPO, file));
        const expected = readSession(reusedChunks(original, CHUNK), file).session;
        const { bytes, line } = withBadLine(original, bad.bytes(), bad.at);
        const { session } = readSession(reusedChunks(bytes, CHUNK), file, { maxLineBytes: LIMIT });
        const problem = session.problems.find((p) => p.line === line);
        expect(problem?.reason).toMatch(bad.reason);
        expect(session.problems.length).toBe(expected.problems.length + 1);
        expect(session.entries.length).toBe(expected.entries.length);
        if (bad.at === "tail") expect(session.missingFinalNewline).toBe(true);
      });
});
