/**
 * Compressed rollouts whose text ends on a buffer boundary. A decompression step that uses up its
 * input exactly as it fills the output buffer is followed by an empty step: with no input left,
 * that means "read more" (a glance) or "done" (a read), never damage. Sizes around every buffer
 * the two readers use (64 KiB for `ls`, 1 MiB for `inspect` and `handoff`), at several levels and
 * in several frames; one of them (the text exactly 2 MiB) was refused as damaged.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { transcriptAs } from "../../fixtures/agent-homes.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { readFileEnds } from "../sessions/glance-file.ts";
import { decompressIfZstd } from "./zstd.ts";
import { zstdCompressedOnce } from "../../fixtures/zstd-once.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const WORDS = "the of and to in is for on that with as at by from parser file test line read write session tool".split(" ");

/** The rollouts made so far: each size is read in six shapes, and making one is most of a case's time. */
const made = new Map<string, Buffer>();

/** A real Codex rollout, padded with events of ordinary words to exactly `bytes` of text (made once). */
function rolloutOfSize(base: string, bytes: number): Buffer {
  const key = `${bytes}\n${base}`;
  const known = made.get(key);
  if (known) return known;
  const text = padRollout(base, bytes);
  made.set(key, text);
  return text;
}

function padRollout(base: string, bytes: number): Buffer {
  const line = (delta: string) =>
    `{"timestamp":"2026-11-30T12:53:00.000Z","type":"event_msg","payload":{"type":"agent_message_delta","delta":"${delta}"}}\n`;
  const parts = [base];
  let size = Buffer.byteLength(base);
  let x = 2463534242;
  while (bytes - size > 600) {
    let words = "";
    while (words.length < 180) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words += `${WORDS[(x >>> 0) % WORDS.length]} `;
    }
    const padding = line(words);
    parts.push(padding);
    size += padding.length;
  }
  parts.push(line("x".repeat(bytes - size - line("").length)));
  const text = Buffer.from(parts.join(""));
  if (text.length !== bytes) throw new Error(`padded to ${text.length} bytes, not ${bytes}`);
  return text;
}

/** A skippable frame (RFC 8878 §3.1.2), as a tool may put before the data. */
const SKIPPABLE = new Uint8Array([0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]);

interface Shape {
  name: string;
  compress: (text: Buffer) => Uint8Array;
}

/** Level 19 takes seconds a megabyte: each text is compressed at it once a machine (fixtures/zstd-once.ts). */
const level = (n: number): Shape => ({
  name: `level ${n}`,
  compress: (text) => (n === 19 ? zstdCompressedOnce(text, n) : Bun.zstdCompressSync(text, { level: n })),
});
/** The text in frames of `size` bytes (the last one shorter), each compressed on its own. */
const frames = (size: number): Shape => ({
  name: `frames of ${size / KiB} KiB`,
  compress: (text) => {
    const parts: Uint8Array[] = [];
    for (let at = 0; at < text.length; at += size) parts.push(Bun.zstdCompressSync(text.subarray(at, at + size)));
    return Buffer.concat(parts);
  },
});
const skippableFirst: Shape = {
  name: "a skippable frame first",
  compress: (text) => Buffer.concat([SKIPPABLE, Bun.zstdCompressSync(text)]),
};

const BASE = transcriptAs("codex", "c5000000-0000-4000-8000-000000000000", "/home/me/app");
const SIZES = [
  64 * KiB,
  128 * KiB,
  17 * 64 * KiB,
  MiB - 1,
  MiB,
  MiB + 1,
  2 * MiB - 1,
  2 * MiB,
  2 * MiB + 1,
  2 * MiB + 64 * KiB,
  3 * MiB,
  4 * MiB,
];

/**
 * A Codex home holding the rollouts that ls, inspect and handoff read (the last describe). They
 * worked in a fixed folder, not one under the temporary home, so each text is the same every run
 * and its level-19 stream is made once a machine; `ls --all` lists them from anywhere.
 */
const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-zstb-")));
const WORKED_IN = "/home/me/app";
const day = join(home, ".codex", "sessions", "2026", "11", "30");
mkdirSync(day, { recursive: true });
const COMMAND_CASES: [size: number, shape: Shape][] = [
  [MiB, level(3)],
  [2 * MiB - 1, level(3)],
  [2 * MiB, level(3)],
  [2 * MiB + 1, level(3)],
  [4 * MiB, level(3)],
  [2 * MiB, level(1)],
  [2 * MiB, level(19)],
  [2 * MiB, frames(MiB)],
  [2 * MiB, skippableFirst],
];
const files = COMMAND_CASES.map(([size, shape], n) => {
  const id = `c5000000-0000-4000-8000-${String(n + 1).padStart(12, "0")}`;
  const base = transcriptAs("codex", id, WORKED_IN);
  const path = join(day, `rollout-2026-11-30T12-52-${String(n).padStart(2, "0")}-${id}.jsonl.zst`);
  writeFileSync(path, shape.compress(rolloutOfSize(base, size)));
  return { id, base, path, size, label: `${size} bytes, ${shape.name}` };
});

describe("every size around a buffer boundary reads whole, in-process", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-zstb-")));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const shapes = [level(1), level(3), level(9), frames(64 * KiB), frames(MiB), skippableFirst];
  test.each(SIZES.flatMap((size) => shapes.map((shape) => [size, shape.name, shape] as const)))("%d bytes, %s", (size, _, shape) => {
    const text = rolloutOfSize(BASE, size);
    const compressed = shape.compress(text);
    // What inspect and handoff read: the whole text, byte for byte.
    const copies: Buffer[] = [];
    for (const chunk of decompressIfZstd([compressed], "r.jsonl.zst")) copies.push(Buffer.from(chunk));
    expect(Buffer.concat(copies).equals(text)).toBe(true);
    // What ls reads: the size and the last line, read to the end.
    const path = join(dir, "r.jsonl.zst");
    writeFileSync(path, compressed);
    const ends = readFileEnds(path);
    const lastLine = text.subarray(text.lastIndexOf(10, text.length - 2) + 1, text.length - 1).toString();
    expect([ends?.textBytes, ends?.note, ends?.tail.at(-1)]).toEqual([size, undefined, lastLine]);
  });

  test("level 19, on the two sizes a level could matter most for", () => {
    // At 2 MiB, the text the commands read at level 19 below (compressed once for both).
    const twoMiB = files.find((f) => f.label === `${2 * MiB} bytes, level 19`);
    if (!twoMiB) throw new Error("no 2 MiB rollout at level 19 among the commands' cases");
    for (const [size, base] of [
      [MiB, BASE],
      [2 * MiB, twoMiB.base],
    ] as const) {
      const text = rolloutOfSize(base, size);
      let length = 0;
      for (const chunk of decompressIfZstd([level(19).compress(text)], "r.jsonl.zst")) length += chunk.length;
      expect(length).toBe(size);
    }
  });
});

describe("ls, inspect and handoff on compressed rollouts whose text ends on a boundary", () => {
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  test("ls lists each with its size and no line saying it is damaged", async () => {
    const run = await runAgent(["ls", "--all", "--json", "-v"], cleanEnv(home), home);
    expect([run.code, run.stderr.includes("damaged")]).toEqual([0, false]);
    const listed: unknown = JSON.parse(run.stdout);
    const tokens = Array.isArray(listed) ? Object.fromEntries(listed.map((s) => [s.id, s.estimatedTokens])) : {};
    expect(tokens).toEqual(Object.fromEntries(files.map((f) => [f.id, Math.ceil(f.size / 4)])));
  });

  test.each(files.map((f) => [f.label, f] as const))("%s: inspect and handoff --dry-run read it (exit 0)", async (_, file) => {
    const inspect = await runAgent(["inspect", file.path, "--json"], cleanEnv(home), home);
    expect([inspect.code, inspect.stderr]).toEqual([0, ""]);
    expect(JSON.parse(inspect.stdout).sessionId).toBe(file.id);
    const handoff = await runAgent(["handoff", file.path, "--dry-run", "--json"], cleanEnv(home), home);
    expect([handoff.code, handoff.stderr.includes("not a session")]).toEqual([0, false]);
    expect(JSON.parse(handoff.stdout).document).toContain("Fix the typo in src/greet.txt");
  });
});
