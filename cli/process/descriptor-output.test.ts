import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DescriptorOutput, isPlainDescriptor } from "./descriptor-output.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-descriptor-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Node's stream as the fallback sees it: what it was given, in order, and whether it was asked at all. */
function fakeNodeStream(options: { isTTY?: boolean; columns?: number } = {}) {
  const chunks: (string | Uint8Array)[] = [];
  const stream = {
    isTTY: options.isTTY,
    columns: options.columns,
    write(text: string | Uint8Array, done: (error?: Error | null) => void) {
      chunks.push(text);
      queueMicrotask(() => done(null));
      return true;
    },
    on() {},
  };
  let asked = 0;
  const get = () => {
    asked++;
    return stream;
  };
  const text = () => chunks.map((chunk) => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"))).join("");
  return { get, chunks, text, asked: () => asked };
}

/** Writes `texts` one after another without waiting, as the run's channels may; resolves with each write's outcome, in order. */
function writeAll(output: DescriptorOutput, texts: readonly string[]): Promise<(string | null)[]> {
  return Promise.all(
    texts.map(
      (text) =>
        new Promise<string | null>((resolve) =>
          output.write(text, (error) => resolve(error ? ((error as { code?: string }).code ?? error.message) : null)),
        ),
    ),
  );
}

/** A named pipe with a reader that does not read: `reader` to read it, `close()` to end both ends. */
function fifo(name: string, writeFlags: number) {
  const path = join(dir, name);
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY | writeFlags);
  return { reader, writer };
}

function readAvailable(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  for (;;) {
    let bytes = 0;
    try {
      bytes = readSync(fd, buffer, 0, buffer.length, null);
    } catch {
      break;
    }
    if (bytes === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, bytes)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

// Texts with what a writer must not change: non-ASCII, a lone surrogate (written as U+FFFD, as
// Node's stream writes it), an empty write between two others.
const TEXTS = ["first line\n", "café → 日本語 🚀\n", "", "lone \ud800 surrogate\n", "last"];
const AS_WRITTEN = "first line\ncafé → 日本語 🚀\nlone \ufffd surrogate\nlast";

describe("a descriptor written directly", () => {
  test("a regular file: every write in order, at the file's own offset (what was there stays), Node's stream never loaded", async () => {
    const path = join(dir, "out.txt");
    writeFileSync(path, "before\n");
    const fd = openSync(path, "a");
    const node = fakeNodeStream();
    const output = new DescriptorOutput(fd, node.get);
    expect(output.isTTY).toBe(false);
    expect(output.columns).toBeUndefined();
    expect(await writeAll(output, TEXTS)).toEqual([null, null, null, null, null]);
    closeSync(fd);
    expect(readFileSync(path, "utf8")).toBe(`before\n${AS_WRITTEN}`);
    expect(node.asked()).toBe(0);
  });

  test("a pipe: the bytes are on it when each write's callback runs", async () => {
    const { reader, writer } = fifo("plain", 0);
    const output = new DescriptorOutput(writer, fakeNodeStream().get);
    let seen = "";
    await new Promise<void>((resolve) =>
      output.write("ping\n", () => {
        seen = readAvailable(reader);
        resolve();
      }),
    );
    expect(seen).toBe("ping\n");
    closeSync(writer);
    closeSync(reader);
  });

  // Each failure reaches its own callback with its code, as Node's stream reports it; the writes after it are still tried.
  test.each([
    ["a reader that left", "EPIPE"],
    ["a full device", "ENOSPC"],
    ["a closed descriptor", "EBADF"],
  ])("%s: %s to the write's callback, and the next write is tried too", async (_what, code) => {
    let fd: number;
    let cleanup = () => {};
    if (code === "EPIPE") {
      const { reader, writer } = fifo("left", 0);
      closeSync(reader);
      fd = writer;
      cleanup = () => closeSync(writer);
    } else if (code === "ENOSPC") {
      fd = openSync("/dev/full", "w");
      cleanup = () => closeSync(fd);
    } else {
      fd = openSync(join(dir, "closed.txt"), "w");
      closeSync(fd);
    }
    // /dev/full is a character device: written directly here to see its failure.
    const output = new DescriptorOutput(fd, fakeNodeStream().get, true);
    expect(await writeAll(output, ["one\n", "two\n"])).toEqual([code, code]);
    cleanup();
  });

  test("a non-blocking pipe that fills: what did not fit, and every later write, go to Node's stream, in order", async () => {
    const { reader, writer } = fifo("full", constants.O_NONBLOCK);
    const node = fakeNodeStream();
    const output = new DescriptorOutput(writer, node.get);
    // More than a pipe holds (64 KiB on Linux): the first write is cut short.
    const big = `${"x".repeat(200_000)}é\n`;
    const outcomes = await writeAll(output, [big, "after\n", "then é\n"]);
    expect(outcomes).toEqual([null, null, null]);
    expect(node.asked()).toBeGreaterThan(0);
    const direct = readAvailable(reader);
    expect(direct.length).toBeGreaterThan(0);
    expect(direct.length).toBeLessThan(big.length);
    expect(direct + node.text()).toBe(`${big}after\nthen é\n`);
    // Once handed over, a write goes straight to Node's stream.
    await writeAll(output, ["later\n"]);
    expect(node.text().endsWith("then é\nlater\n")).toBe(true);
    closeSync(writer);
    closeSync(reader);
  });
});

describe("a descriptor left to Node's stream", () => {
  test("a character device (a terminal, /dev/null): every write, isTTY and the width come from Node's stream", async () => {
    const fd = openSync("/dev/null", "w");
    expect(isPlainDescriptor(fd)).toBe(false);
    const node = fakeNodeStream({ isTTY: true, columns: 77 });
    const output = new DescriptorOutput(fd, node.get);
    expect(output.isTTY).toBe(true);
    expect(output.columns).toBe(77);
    expect(await writeAll(output, TEXTS)).toEqual([null, null, null, null, null]);
    expect(node.chunks).toEqual(TEXTS);
    closeSync(fd);
  });

  test("a descriptor that cannot be read (closed) is not taken for a plain one", () => {
    const fd = openSync(join(dir, "gone.txt"), "w");
    closeSync(fd);
    expect(isPlainDescriptor(fd)).toBe(false);
  });
});
