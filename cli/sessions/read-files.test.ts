/**
 * One rule for every file read whole by its path (the system prompt, the config file, an omp
 * blob): only a regular file is read. A pipe with no writer would hang the run, a device would
 * feed it until memory ran out. Refused at once with exit 2 and one line (a blob: left out).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { BLOB_SHA256 } from "../../fixtures/sessions/omp-session.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const isRoot = process.getuid?.() === 0;

/** [what is at the path, how to make it there (returns a clean-up), the reason printed]. */
const NOT_FILES: [name: string, make: (path: string) => void | (() => void), reason: string][] = [
  ["/dev/zero, through a link", (path) => symlinkSync("/dev/zero", path), "it is a device, not a regular file"],
  ["a named pipe nobody writes to", (path) => void Bun.spawnSync(["mkfifo", path]), "it is a named pipe, not a regular file"],
  [
    "a link to a named pipe",
    (path) => (Bun.spawnSync(["mkfifo", `${path}.fifo`]), symlinkSync(`${path}.fifo`, path)),
    "it is a named pipe, not a regular file",
  ],
  ["a directory", (path) => mkdirSync(path), "it is a directory"],
  [
    "a socket",
    (path) => {
      const server = Bun.listen({ unix: path, socket: { data() {} } });
      return () => server.stop(true);
    },
    "nothing can be read from it (a socket?)",
  ],
  ["nothing", () => {}, "no such file or folder"],
];

describe("--system-prompt-file: only a regular file", () => {
  test.each(NOT_FILES)("%s: exit 2, one line, nothing sent or written", async (_name, make, reason) => {
    const src = sandbox.source();
    const prompt = join(sandbox.home, "prompt");
    const stop = make(prompt);
    try {
      const started = performance.now();
      const run = await runAgent(
        ["handoff", src, "--system-prompt-file", prompt, "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"],
        cleanEnv(sandbox.home),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`error: ${prompt}: cannot read the system prompt (${reason})\n`);
      expect(run.stdout).toBe("");
      expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
      // Refused, not waited on: far below the run's own timeout.
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      if (typeof stop === "function") stop();
    }
  });

  test.skipIf(isRoot)("a file we may not read: exit 2, permission denied", async () => {
    const prompt = join(sandbox.home, "prompt");
    writeFileSync(prompt, "secret prompt");
    chmodSync(prompt, 0o000);
    const run = await runAgent(
      ["handoff", sandbox.source(), "--system-prompt-file", prompt, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`error: ${prompt}: cannot read the system prompt (permission denied)\n`);
  });

  test("a regular file, and a link to one, are read", async () => {
    const prompt = join(sandbox.home, "prompt.md");
    writeFileSync(prompt, "You write handoffs for the payments team.");
    symlinkSync(prompt, join(sandbox.home, "link.md"));
    for (const path of [prompt, join(sandbox.home, "link.md")]) {
      const run = await runAgent(
        ["handoff", sandbox.source(), "--system-prompt-file", path, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"],
        cleanEnv(sandbox.home),
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("You write handoffs for the payments team.");
    }
  });
});

/**
 * [what the file holds, how to make it, the reason printed]: contents refused before anything is
 * sent, the same for every text file read whole. The size is checked before a byte is read (the
 * 3 GiB file is sparse: reading it would take gigabytes of memory).
 */
const BAD_TEXT: [name: string, make: (path: string) => void, reason: string][] = [
  ["3 GiB (sparse)", (path) => void Bun.spawnSync(["truncate", "-s", "3G", path]), "it is 3 GiB; the most read is 1 MiB"],
  ["one byte over 1 MiB", (path) => writeFileSync(path, "a".repeat(1024 * 1024 + 1)), "it is 1.0 MiB; the most read is 1 MiB"],
  ["1,000 random bytes", (path) => writeFileSync(path, randomBytes(1000)), "it looks like binary data: it is not UTF-8 text"],
  ["text with NUL bytes", (path) => writeFileSync(path, "You write handoffs.\0\0\0"), "it looks like binary data"],
  [
    "a PNG signature",
    (path) => writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    "it looks like binary data: it is not UTF-8 text",
  ],
  ["text with an escape sequence", (path) => writeFileSync(path, 'model = "x"\n\u001b[2J'), "it looks like binary data"],
];

describe("a text file read whole is size-checked and content-checked first: exit 2, one line naming it", () => {
  test.each(BAD_TEXT)("--system-prompt-file of %s", async (_name, make, reason) => {
    const src = sandbox.source();
    const prompt = join(sandbox.home, "prompt.md");
    make(prompt);
    const run = await runAgent(
      ["handoff", src, "--system-prompt-file", prompt, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1", "-m", "x"],
      cleanEnv(sandbox.home),
    );
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: ${prompt}: cannot read the system prompt (${reason})\n`,
    });
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });

  test.each(BAD_TEXT)("a config file of %s", async (_name, make, reason) => {
    const config = join(sandbox.home, "config", "agent", "config.toml");
    mkdirSync(join(sandbox.home, "config", "agent"), { recursive: true });
    make(config);
    const run = await runAgent(["config"], cleanEnv(sandbox.home, { XDG_CONFIG_HOME: join(sandbox.home, "config") }));
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `error: ${config}: cannot read the config file (${reason})\n`,
    });
  });

  test("a system prompt of exactly 1 MiB, tabs, CRLF and non-ASCII text included, is read", async () => {
    const prompt = join(sandbox.home, "prompt.md");
    const line = "Écris\tle document — 文書.\r\n";
    const text = line.repeat(Math.floor((1024 * 1024) / Buffer.byteLength(line)));
    writeFileSync(prompt, text + "x".repeat(1024 * 1024 - Buffer.byteLength(text)));
    const run = await runAgent(
      [
        "handoff",
        sandbox.source(),
        "--system-prompt-file",
        prompt,
        "--dry-run",
        "--engine",
        "llm",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "-m",
        "x",
        "--context-window",
        "1000000",
      ],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Écris\\tle document — 文書.");
  });
});

describe("the config file and omp blobs follow the same rule", () => {
  test.each(NOT_FILES.filter(([name]) => name !== "nothing"))("a config file that is %s: exit 2, one line", async (_name, make, reason) => {
    const config = join(sandbox.home, "config", "agent", "config.toml");
    mkdirSync(join(sandbox.home, "config", "agent"), { recursive: true });
    const stop = make(config);
    try {
      const run = await runAgent(
        ["handoff", sandbox.source(), "--engine", "offline", "--dry-run"],
        cleanEnv(sandbox.home, { XDG_CONFIG_HOME: join(sandbox.home, "config") }),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`error: ${config}: cannot read the config file (${reason})\n`);
    } finally {
      if (typeof stop === "function") stop();
    }
  });

  test.each([
    ["over 64 MiB (sparse)", (path: string) => void Bun.spawnSync(["truncate", "-s", "65M", path]), "image not available"],
    ["of a few bytes", (path: string) => writeFileSync(path, Buffer.from([0x89, 0x50, 0x4e, 0x47])), "data:image/png;base64,iVBORw=="],
  ])("an omp blob %s: read only within its bound", async (_name, make, expected) => {
    const blobs = join(sandbox.home, ".omp", "agent", "blobs");
    mkdirSync(blobs, { recursive: true });
    make(join(blobs, BLOB_SHA256));
    const run = await runAgent(
      [
        "handoff",
        join(REPO, "fixtures", "sessions", "omp.jsonl"),
        "--no-record",
        "--dry-run",
        "--engine",
        "llm",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "-m",
        "x",
      ],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(expected);
    expect(run.stdout.length).toBeLessThan(1024 * 1024);
  });

  test("an omp blob that is a named pipe is left out, not waited on", async () => {
    const blobs = join(sandbox.home, ".omp", "agent", "blobs");
    mkdirSync(blobs, { recursive: true });
    Bun.spawnSync(["mkfifo", join(blobs, BLOB_SHA256)]);
    const run = await runAgent(["inspect", join(REPO, "fixtures", "sessions", "omp.jsonl"), "--json"], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ format: "omp" });
  });
});
