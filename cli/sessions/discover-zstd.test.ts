/**
 * Compressed Codex rollouts (`.jsonl.zst`) in discovery: a glance streams through a file with a
 * bounded buffer, so a small file that decompresses to gigabytes (a "bomb") is listed from its
 * first lines with its size unknown instead of being decompressed whole.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import { transcriptAs } from "../../fixtures/agent-homes.ts";
import { cleanEnv, spawnAgent as runAgent } from "../../fixtures/run-agent.ts";
import { zstdWindow } from "../io/zstd-window.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const ID = "c5000000-0000-4000-8000-000000000005";
const FIRST_REQUEST = "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.";
const MiB = 1024 * 1024;

/** `count` zstd frames of `MiB`-sized runs of `a`: decompressed one after another, so a few KB hold gigabytes. */
function runOfA(mebibytes: number): Buffer {
  const frame = zstdCompressSync(Buffer.alloc(16 * MiB, 0x61));
  return Buffer.concat(Array.from({ length: mebibytes / 16 }, () => frame));
}

/** The frame with eight bytes past its header flipped: the decoder stops there with an error. */
/**
 * The frame with its header's reserved bit set, which every decoder refuses. (Flipping bytes inside
 * the compressed data was damage only for some texts: with no checksum, a literal block decodes to
 * other bytes without an error, and the text holds the temporary folder's random name.)
 */
function damaged(frame: Buffer): Buffer {
  const copy = Buffer.from(frame);
  copy[4] = (copy[4] ?? 0) | 0x08;
  return copy;
}

interface Case {
  name: string;
  /** The compressed file, given the rollout's text. */
  bytes: (rollout: string) => Buffer;
  title: string | null;
  /** What `estimatedTokens` says: a number, or null when the size is unknown. */
  tokens: (rollout: string) => number | null;
  /** A line `-v` prints about it, if any. */
  note?: string;
}

const CASES: Case[] = [
  {
    name: "a real rollout, compressed",
    bytes: (text) => zstdCompressSync(Buffer.from(text)),
    title: FIRST_REQUEST,
    tokens: (text) => Math.ceil(Buffer.byteLength(text) / 4),
  },
  {
    name: "a bomb: the header, then 4 GiB of one letter on one line (a few hundred KB compressed)",
    bytes: (text) =>
      Buffer.concat([zstdCompressSync(Buffer.from(`${text.split("\n")[0]}\n`)), runOfA(4096), zstdCompressSync(Buffer.from("\n"))]),
    title: null,
    tokens: () => null,
    note: "decompresses to more than 1000 times its size; listed from its first lines, size unknown",
  },
  {
    name: "a bomb after the whole session (its first request is still read)",
    bytes: (text) => Buffer.concat([zstdCompressSync(Buffer.from(text)), runOfA(2048)]),
    title: FIRST_REQUEST,
    tokens: () => null,
    note: "decompresses to more than 1000 times its size; listed from its first lines, size unknown",
  },
  {
    // The decoder reports damage after the step that found it, as an event: heard, not a crash of ls (exit 1).
    name: "a damaged frame after the whole session",
    bytes: (text) => Buffer.concat([zstdCompressSync(Buffer.from(text)), damaged(zstdCompressSync(Buffer.from(text.repeat(20))))]),
    title: FIRST_REQUEST,
    tokens: () => null,
    note: "is damaged; listed from its first lines, size unknown",
  },
];

describe("agent ls with a compressed rollout", () => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-zst-")));
    made.push(home);
    const app = join(home, "app");
    mkdirSync(app);
    const rollout = transcriptAs("codex", ID, app);
    const day = join(home, ".codex", "sessions", "2026", "11", "30");
    mkdirSync(day, { recursive: true });
    const path = join(day, `rollout-2026-11-30T12-52-57-${ID}.jsonl.zst`);
    const bytes = c.bytes(rollout);
    writeFileSync(path, bytes);
    utimesSync(path, 1_789_900_000, 1_789_900_000);
    const run = await runAgent(["ls", "--json", "-v"], cleanEnv(home), app);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        agent: "codex",
        id: ID,
        path,
        cwd: app,
        updated: new Date(1_789_900_000_000).toISOString(),
        bytes: bytes.length,
        estimatedTokens: c.tokens(rollout),
        title: c.title,
      },
    ]);
    if (c.note) expect(run.stderr).toContain(`${path}: it ${c.note}`);
    else expect(run.stderr).not.toContain(path);
    const tabs = await runAgent(["ls"], cleanEnv(home), app);
    expect(tabs.stdout.split("\t").slice(2, 5)).toEqual([
      ID,
      String(bytes.length),
      c.tokens(rollout) === null ? "" : String(c.tokens(rollout)),
    ]);
  });
});

/** The window on the file at `path`, read from its first byte. */
function windowOf(path: string, headBytes: number, tailBytes: number) {
  const fd = openSync(path, "r");
  try {
    return zstdWindow(fd, new Uint8Array(), { headBytes, tailBytes, firstLineBytes: 256 * 1024 });
  } finally {
    closeSync(fd);
  }
}

describe("the bounded window", () => {
  test("holds at most the head and tail asked for, however large the text", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-zstw-")));
    made.push(dir);
    const path = join(dir, "x.zst");
    writeFileSync(path, Buffer.concat([zstdCompressSync(Buffer.from("head\n")), runOfA(1024)]));
    const window = windowOf(path, 1000, 500);
    expect(window?.head.length).toBe(1000);
    expect(window?.tail).toBeUndefined();
    expect(window?.textBytes).toBeUndefined();
    expect(Buffer.from(window?.head.subarray(0, 6) ?? []).toString()).toBe("head\na");
  });

  test("a text under the caps is read to its end: its size and its last bytes", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-zstw-")));
    made.push(dir);
    const path = join(dir, "x.zst");
    const text = Array.from({ length: 50_000 }, (_, i) => `line ${i}\n`).join("");
    writeFileSync(path, zstdCompressSync(Buffer.from(text)));
    const window = windowOf(path, 100, 20);
    expect(Buffer.from(window?.head ?? []).toString()).toBe(text.slice(0, 100));
    expect(Buffer.from(window?.tail ?? []).toString()).toBe(text.slice(-20));
    expect(window?.textBytes).toBe(Buffer.byteLength(text));
  });
});
