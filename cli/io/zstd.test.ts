import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAgentError } from "../../core/index.ts";
import { decompressIfZstd, framesAreWhole } from "./zstd.ts";
import { runAgent } from "../../fixtures/run-agent.ts";

const REPO = join(import.meta.dir, "../..");
const SESSION = readFileSync(join(REPO, "fixtures/sessions/v3-branches.jsonl"));
const compressed = (bytes: Uint8Array) => new Uint8Array(Bun.zstdCompressSync(bytes));

/** Chunks of `size` bytes from one reused buffer, as the file reader hands them out. */
function* reusedChunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  const buffer = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += size) {
    const part = bytes.subarray(at, at + size);
    buffer.set(part);
    yield buffer.subarray(0, part.length);
    buffer.fill(0xee); // what a careless reader would see if it kept the chunk
  }
}

/** The chunks' bytes, each copied before the next is asked for (the producer may reuse it). */
function joined(chunks: Iterable<Uint8Array>): Buffer {
  const copies: Buffer[] = [];
  for (const chunk of chunks) copies.push(Buffer.from(chunk));
  return Buffer.concat(copies);
}

/**
 * A zstd bomb, built by hand (RFC 8878): one frame whose first block holds `head` as it is, then
 * RLE blocks of `byte`, each 4 bytes that inflate to `BLOCK` bytes (at most 128 KiB), to
 * `textBytes` in all: a few KB that inflate to gigabytes, with no compressor to run.
 */
function zstdBomb(head: Uint8Array, byte: number, textBytes: number, BLOCK = 128 * 1024): Uint8Array {
  const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]; // magic; no content size, no checksum; a 128 KiB window
  const blockHeader = (last: boolean, type: number, size: number) => {
    const value = (size << 3) | (type << 1) | (last ? 1 : 0);
    parts.push(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff);
  };
  blockHeader(false, 0, head.length);
  parts.push(...head);
  for (let left = textBytes; left > 0; left -= BLOCK) {
    blockHeader(left <= BLOCK, 1, Math.min(BLOCK, left));
    parts.push(byte);
  }
  return new Uint8Array(parts);
}

/** A skippable frame (RFC 8878 §3.1.2): magic 0x184D2A5?, a size, that many bytes. */
const skippable = new Uint8Array([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);

describe("decompressIfZstd", () => {
  test.each([
    ["plain text, in 1 MiB chunks", SESSION, 1 << 20],
    ["plain text, in 1-byte chunks", SESSION, 1],
    ["one zstd stream", compressed(SESSION), 1 << 20],
    ["one zstd stream, in 3-byte chunks (the magic split)", compressed(SESSION), 3],
    ["two zstd frames one after the other", Buffer.concat([compressed(SESSION.subarray(0, 500)), compressed(SESSION.subarray(500))]), 64],
    ["a skippable frame, then the stream", Buffer.concat([skippable, compressed(SESSION)]), 64],
  ])("%s gives the session's bytes", (_, bytes, size) => {
    expect(joined(decompressIfZstd(reusedChunks(bytes, size), "s.jsonl")).equals(SESSION)).toBe(true);
  });

  test("plain text passes through chunk by chunk, never all at once", () => {
    const sizes = [...decompressIfZstd(reusedChunks(SESSION, 1000), "s.jsonl")].map((c) => c.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1000);
  });

  test("a zstd session is inflated chunk by chunk, never all at once", () => {
    const sizes = [...decompressIfZstd([compressed(Buffer.concat(Array(400).fill(SESSION)))], "s.jsonl")].map((c) => c.length);
    expect(sizes.length).toBeGreaterThan(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1 << 20);
  });

  test.each([
    ["just past the limit", 8 << 20],
    ["a thousand times the limit", 8000 * 2 ** 20],
  ])("a bomb that inflates %s stops at the first chunk past it, having given no more than the limit", (_, size) => {
    const limit = 8 << 20;
    let given = 0;
    let error: unknown;
    try {
      for (const chunk of decompressIfZstd([zstdBomb(new TextEncoder().encode("{}\n"), 0x61, size + 1)], "b.jsonl.zst", limit))
        given += chunk.length;
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error) ? error.message : error).toBe(
      "b.jsonl.zst: not a session: it is zstd-compressed and decompresses to more than 8 MiB",
    );
    expect(given).toBeLessThanOrEqual(limit);
  });

  test("the hand-built bomb is zstd as the runtime reads it", () => {
    const text = zstdBomb(new TextEncoder().encode("{}\n"), 0x61, 300_000);
    expect(Buffer.from(Bun.zstdDecompressSync(text)).equals(Buffer.concat([Buffer.from("{}\n"), Buffer.alloc(300_000, 0x61)]))).toBe(true);
  });

  test("nothing gives nothing", () => {
    expect([...decompressIfZstd([], "s.jsonl")]).toEqual([]);
  });

  const whole = compressed(SESSION);
  test.each([
    [
      "cut short",
      whole.subarray(0, whole.length - 7),
      "s.jsonl: not a session: it is zstd-compressed and cut short (a copy still being written?)",
    ],
    ["only the magic", whole.subarray(0, 4), "s.jsonl: not a session: it is zstd-compressed and cut short (a copy still being written?)"],
    [
      "damaged inside",
      Uint8Array.from(whole, (byte, i) => (i > 12 && i < whole.length - 8 ? byte ^ 0x5a : byte)),
      "s.jsonl: not a session: it is zstd-compressed and damaged",
    ],
    [
      "larger than the limit",
      compressed(new Uint8Array(4096).fill(0x61)),
      "s.jsonl: not a session: it is zstd-compressed and decompresses to more than 0.001953125 MiB",
    ],
  ])("%s: refused with one line naming the file", (name, bytes, message) => {
    let error: unknown;
    try {
      // Damage is found where inflating reaches it: past a limit smaller than the text before it, the limit speaks first.
      joined(decompressIfZstd([bytes], "s.jsonl", name === "damaged inside" ? 1 << 20 : 2048));
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error) ? [error.code, error.message] : error).toEqual(["NOT_A_SESSION", message]);
  });

  test("framesAreWhole reads frame and block sizes only", () => {
    expect([
      framesAreWhole(whole),
      framesAreWhole(whole.subarray(0, 10)),
      framesAreWhole(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd])),
      framesAreWhole(skippable),
    ]).toEqual([true, false, false, true]);
  });
});

describe("agent inspect on a zstd-compressed session", () => {
  const dir = mkdtempSync(join(tmpdir(), "agent-zstd-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const zst = join(dir, "v3-branches.jsonl.zst");
  writeFileSync(zst, compressed(SESSION));
  const run = async (args: string[], stdin?: Uint8Array) => {
    const result = await runAgent(
      ["inspect", ...args, "--json"],
      { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, NO_COLOR: "1" },
      REPO,
      stdin,
    );
    return { exitCode: result.code, stdout: result.stdout, stderr: result.stderr };
  };
  const plain = run(["fixtures/sessions/v3-branches.jsonl"]);
  const withoutFile = (stdout: string) => ({ ...JSON.parse(stdout), file: undefined, sizeBytes: undefined });

  test("reads like the uncompressed file, from a path or from stdin", async () => {
    for (const result of [await run([zst]), await run(["-"], compressed(SESSION))]) {
      expect([result.exitCode, result.stderr]).toEqual([0, ""]);
      expect(withoutFile(result.stdout)).toEqual(withoutFile((await plain).stdout));
    }
  });

  const HEAD = readFileSync(join(REPO, "fixtures/real/codex/rollout.jsonl")).subarray(0, 4096);
  test.each([
    ["packed 32,000 to one (RLE blocks of 128 KiB)", () => zstdBomb(HEAD, 0x61, 1 << 30), "decompresses to more than 1000 times its size"],
    [
      "past 1 GiB at 512 to one (RLE blocks of 2 KiB)",
      () => zstdBomb(HEAD, 0x61, (1 << 30) + 1, 2048),
      "decompresses to more than 1024 MiB",
    ],
  ])("a bomb %s: exit 2, one line naming it and the bound", async (_, bomb, reason) => {
    const path = join(dir, "bomb.jsonl.zst");
    writeFileSync(path, bomb());
    const result = await run([path]);
    expect(result).toEqual({ exitCode: 2, stdout: "", stderr: `error: ${path}: not a session: it is zstd-compressed and ${reason}\n` });
  });

  test("a cut-short file: exit 2, one line naming it, no stack", async () => {
    const torn = join(dir, "torn.jsonl.zst");
    writeFileSync(torn, compressed(SESSION).subarray(0, 40));
    const result = await run([torn]);
    expect([result.exitCode, result.stdout]).toEqual([2, ""]);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(`${torn}: not a session: it is zstd-compressed and cut short`);
  });
});
