import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../main.ts";
import { createProcessHost } from "../process/host.ts";
import { cleanEnv, memoryIo, REPO } from "../../fixtures/run-agent.ts";
import { LONG_WORK_BYTES } from "./load-session.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-long-work-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** fixtures/example.jsonl with one more user message of `bytes` characters, so the file is about that much larger. */
function sessionOf(bytes: number): string {
  const lines = readFileSync(join(REPO, "fixtures", "example.jsonl"), "utf8")
    .trimEnd()
    .split("\n");
  const last = JSON.parse(lines.at(-1) ?? "{}") as { id: string };
  const long = {
    type: "message",
    id: "b0000001",
    parentId: last.id,
    timestamp: "2026-11-29T11:00:00.000Z",
    message: { role: "user", content: "word ".repeat(Math.ceil(bytes / 5)), timestamp: 1764414000000 },
  };
  return `${[...lines, JSON.stringify(long)].join("\n")}\n`;
}

/** Runs `inspect` in this process on `path` (or stdin from it), with a host that counts the calls to longWork. */
async function inspectCountingLongWork(path: string, viaStdin: boolean): Promise<{ code: number; calls: number }> {
  let calls = 0;
  const fd = viaStdin ? openSync(path, "r") : undefined;
  try {
    const io = memoryIo(cleanEnv(dir), dir, fd);
    const host = { ...createProcessHost(), longWork: () => calls++ };
    const code = await runCli(["inspect", viaStdin ? "-" : path], { ...io, host });
    return { code, calls };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// The binary starts with the JIT reluctant to compile (cli/process/host.ts); a session large enough
// for compiling to pay turns the usual policy back on before it is parsed, a file or a stream alike.
describe("a large session turns the usual JIT policy back on", () => {
  test.each([
    ["a file just under the bound", 0, LONG_WORK_BYTES - 8_000, false],
    ["a file over the bound", 1, LONG_WORK_BYTES + 8_000, false],
    ["a stream just under the bound", 0, LONG_WORK_BYTES - 8_000, true],
    ["a stream over the bound", 1, LONG_WORK_BYTES + 8_000, true],
  ])("%s: longWork called %i times", async (_what, expected, bytes, viaStdin) => {
    const path = join(dir, `session-${bytes}.jsonl`);
    writeFileSync(path, sessionOf(bytes - 7_500));
    const { code, calls } = await inspectCountingLongWork(path, viaStdin);
    expect(code).toBe(0);
    expect(calls).toBe(expected);
  });
});
