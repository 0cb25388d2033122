import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspectAfterCrash } from "../../fixtures/crash-check.ts";
import { CANNED_DOCUMENT, startFakeOpenAI, type FakeHandler, type FakeServer } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

let dir: string;
let home: string;
let server: FakeServer | undefined;
let src: string;
let original: Buffer;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-safety-"));
  home = mkdtempSync(join(tmpdir(), "agent-home-"));
  src = join(dir, "source.jsonl");
  copyFileSync(EXAMPLE, src);
  original = readFileSync(src);
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

function serve(handler: FakeHandler = () => ({ text: CANNED_DOCUMENT })): string {
  server = startFakeOpenAI(handler);
  return server.url;
}

function env(url: string): Record<string, string> {
  return cleanEnv(home, { OPENAI_API_KEY: "sk-test-safety", OPENAI_BASE_URL: url });
}

function addedLines(): unknown[] {
  const now = readFileSync(src);
  expect(now.subarray(0, original.length).equals(original)).toBe(true);
  return now
    .subarray(original.length)
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe("recording into the source", () => {
  test("a source changed while we worked is not recorded into; the new session is still written", async () => {
    const url = serve(() => {
      appendFileSync(src, '{"type":"label","id":"ffff0001","parentId":"a0000011","timestamp":"2026-11-29T11:00:00.000Z","label":"x"}\n');
      return { text: CANNED_DOCUMENT };
    });
    const run = await runAgent(["handoff", src], env(url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("changed while we worked");
    expect(addedLines()).toEqual([
      { type: "label", id: "ffff0001", parentId: "a0000011", timestamp: "2026-11-29T11:00:00.000Z", label: "x" },
    ]);
    expect(readdirSync(dir).filter((f) => f !== "source.jsonl")).toHaveLength(1);
  });

  /** Puts `content` in place of the source by rename, with the source's modification time: only the inode tells them apart. */
  function replaceKeepingTime(content: Buffer): void {
    const times = statSync(src);
    const next = `${src}.next`;
    writeFileSync(next, content);
    utimesSync(next, times.atime, times.mtime);
    renameSync(next, src);
  }

  test.each([
    ["the same bytes (a copy renamed over it)", (bytes: Buffer) => bytes],
    [
      "other bytes of the same size",
      (bytes: Buffer) => Buffer.from(bytes.toString("latin1").replace("drops the last row", "DROPS THE LAST ROW"), "latin1"),
    ],
  ])("a v3 source replaced mid-run by %s, same size and time, is not recorded into", async (_, replacement) => {
    // A whole second, so the copy can carry the very same time (a Date keeps only milliseconds).
    utimesSync(src, new Date("2026-11-29T10:00:00Z"), new Date("2026-11-29T10:00:00Z"));
    const next = replacement(original);
    expect(next.length).toBe(original.length);
    const url = serve(() => {
      replaceKeepingTime(next);
      return { text: CANNED_DOCUMENT };
    });
    const run = await runAgent(["handoff", src], env(url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("changed while we worked");
    expect(readFileSync(src).equals(next)).toBe(true);
    expect(readdirSync(dir).filter((f) => f !== "source.jsonl")).toHaveLength(1);
  });

  test("a v1 source (recorded by a rewrite) replaced mid-run by a copy with the same time is not rewritten", async () => {
    copyFileSync(join(REPO, "fixtures", "sessions", "v1.jsonl"), src);
    // A whole second, so the copy can carry the very same time (a Date keeps only milliseconds).
    utimesSync(src, new Date("2026-11-29T10:00:00Z"), new Date("2026-11-29T10:00:00Z"));
    const before = readFileSync(src);
    const url = serve(() => {
      replaceKeepingTime(before);
      return { text: CANNED_DOCUMENT };
    });
    const run = await runAgent(["handoff", src], env(url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("changed while we worked");
    expect(readFileSync(src).equals(before)).toBe(true);
  });

  test("a source without a final newline gets one before our lines", async () => {
    writeFileSync(src, original.subarray(0, original.length - 1));
    const cut = readFileSync(src);
    const url = serve();
    const run = await runAgent(["handoff", src], env(url));
    expect(run.code).toBe(0);
    const now = readFileSync(src, "utf8");
    expect(now.startsWith(cut.toString("utf8"))).toBe(true);
    const lines = now.slice(cut.length).split("\n");
    expect(lines[0]).toBe("");
    expect(
      lines
        .slice(1)
        .filter(Boolean)
        .map((l) => JSON.parse(l).type),
    ).toEqual(["message", "message", "model_change"]);
  });

  test("a lock held by a live process: we wait, then say who holds it, and do not record", async () => {
    writeFileSync(`${src}.lock`, `${process.pid}\n`);
    const url = serve();
    const run = await runAgent(["handoff", src], env(url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`process ${process.pid} holds`);
    expect(readFileSync(src).equals(original)).toBe(true);
    expect(readFileSync(`${src}.lock`, "utf8")).toBe(`${process.pid}\n`);
  });

  test("a stale lock of a dead process is taken over, and removed when done", async () => {
    const dead = Bun.spawnSync(["true"]).pid;
    writeFileSync(`${src}.lock`, `${dead}\n`);
    const url = serve();
    const run = await runAgent(["handoff", src], env(url));
    expect(run.code).toBe(0);
    expect(addedLines()).toHaveLength(3);
    expect(existsSync(`${src}.lock`)).toBe(false);
  });

  test("two handoffs on one source at once: both finish, the source stays valid with every original byte", async () => {
    const url = serve(() => ({ text: CANNED_DOCUMENT, delayMs: 50 }));
    const [a, b] = await Promise.all([runAgent(["handoff", src], env(url)), runAgent(["handoff", src], env(url))]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const added = addedLines();
    // The second to finish sees the first one's lines and does not record on top of them.
    expect(added).toHaveLength(3);
    expect(`${a.stderr}${b.stderr}`).toMatch(/changed while we worked|holds/);
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toHaveLength(3);
  });
});

describe("output paths", () => {
  test("--out that is a symlink is refused, nothing written", async () => {
    const url = serve();
    const link = join(dir, "link.jsonl");
    symlinkSync(join(dir, "elsewhere.jsonl"), link);
    const run = await runAgent(["handoff", src, "--out", link], env(url));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("is a symbolic link");
    expect(existsSync(join(dir, "elsewhere.jsonl"))).toBe(false);
    expect(readFileSync(src).equals(original)).toBe(true);
  });

  test("--out in a missing folder is refused before any request", async () => {
    const url = serve();
    const run = await runAgent(["handoff", src, "--out", join(dir, "no", "such", "x.jsonl")], env(url));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("does not exist");
    expect(server?.requests).toHaveLength(0);
  });
});

describe("kill -9 at random moments", () => {
  // bench/kill.ts runs the same check 200+ times; this keeps a smaller sample in every test run.
  const RUNS = 10;
  test.each([
    ["a v3 source (recorded by an append)", EXAMPLE],
    ["a v1 source (recorded by a whole rewrite: temp file + rename)", join(REPO, "fixtures", "sessions", "v1.jsonl")],
  ])(`${RUNS} handoffs of %s killed mid-run leave the source whole and no partial file`, async (_, source) => {
    const before = readFileSync(source);
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const url = serve(() => ({ text: CANNED_DOCUMENT, delayMs: Math.floor(random() * 40) }));
    const outcomes = { unchanged: 0, recorded: 0 };
    for (let i = 0; i < RUNS; i++) {
      const runDir = mkdtempSync(join(dir, "run-"));
      copyFileSync(source, join(runDir, "source.jsonl"));
      const proc = Bun.spawn([...CLI_ARGV, "handoff", "source.jsonl"], {
        cwd: runDir,
        env: env(url),
        stdout: "ignore",
        stderr: "ignore",
      });
      await Bun.sleep(40 + Math.floor(random() * 260));
      proc.kill(9);
      await proc.exited;
      const state = inspectAfterCrash(runDir, "source.jsonl", before);
      expect(state.problems).toEqual([]);
      if (state.source === "unchanged") outcomes.unchanged++;
      else outcomes.recorded++;
    }
    expect(outcomes.unchanged + outcomes.recorded).toBe(RUNS);
  });
});
