import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");
/** Well past the stale limit for a lock without a pid. */
const LONG_AGO = new Date(Date.now() - 3_600_000);

/** A pid no process has now: a child that has exited. */
function deadPid(): number {
  const child = spawnSync("true");
  return child.pid ?? 999_999;
}

/** What a test can compare before and after: the kind of thing, its time, and what it holds. */
function describePath(path: string): string {
  const stats = lstatSync(path);
  const kind = stats.isDirectory()
    ? `dir[${readdirSync(path).join(",")}]`
    : stats.isSymbolicLink()
      ? `link→${readlinkSync(path)}`
      : stats.isFIFO()
        ? "fifo"
        : stats.isSocket()
          ? "socket"
          : `file:${readFileSync(path, "latin1")}`;
  return `${kind} @${stats.mtimeMs}`;
}

/** Something at `<source>.lock` that no run of ours made; each is made older than the stale limit. */
const FOREIGN: { name: string; what: string; make: (lock: string, dir: string) => void | (() => void) }[] = [
  {
    name: "a directory holding a file",
    what: "a directory",
    make: (lock) => (mkdirSync(lock), writeFileSync(join(lock, "notes.txt"), "mine"), utimesSync(lock, LONG_AGO, LONG_AGO)),
  },
  { name: "an empty directory", what: "a directory", make: (lock) => (mkdirSync(lock), utimesSync(lock, LONG_AGO, LONG_AGO)) },
  {
    name: "a symbolic link to a file in our format",
    what: "a symbolic link",
    make: (lock, dir) => (
      writeFileSync(join(dir, "target"), `${deadPid()}\n`), symlinkSync(join(dir, "target"), lock), lutimesSync(lock, LONG_AGO, LONG_AGO)
    ),
  },
  {
    name: "a dangling symbolic link",
    what: "a symbolic link",
    make: (lock, dir) => (symlinkSync(join(dir, "nowhere"), lock), lutimesSync(lock, LONG_AGO, LONG_AGO)),
  },
  { name: "a named pipe", what: "a named pipe", make: (lock) => (spawnSync("mkfifo", [lock]), utimesSync(lock, LONG_AGO, LONG_AGO)) },
  {
    name: "a socket",
    what: "a socket",
    make: (lock) => {
      const server = Bun.listen({ unix: lock, socket: { data() {} } });
      utimesSync(lock, LONG_AGO, LONG_AGO);
      return () => server.stop(true);
    },
  },
  { name: "a file of words", what: "a file", make: (lock) => (writeFileSync(lock, "hello\n"), utimesSync(lock, LONG_AGO, LONG_AGO)) },
  {
    name: "a dead pid followed by more",
    what: "a file",
    make: (lock) => (writeFileSync(lock, `${deadPid()}\nmore\n`), utimesSync(lock, LONG_AGO, LONG_AGO)),
  },
  {
    name: "a pid without its newline",
    what: "a file",
    make: (lock) => (writeFileSync(lock, `${deadPid()}`), utimesSync(lock, LONG_AGO, LONG_AGO)),
  },
  {
    name: "a large file of digits",
    what: "a file",
    make: (lock) => (writeFileSync(lock, `${"1".repeat(4096)}\n`), utimesSync(lock, LONG_AGO, LONG_AGO)),
  },
  // We never leave a lock without its pid (it is linked into place whole): an empty file is another tool's.
  {
    name: "an empty file, long ago",
    what: "an empty file",
    make: (lock) => (writeFileSync(lock, ""), utimesSync(lock, LONG_AGO, LONG_AGO)),
  },
  {
    name: "an empty file another tool holds with flock",
    what: "an empty file",
    make: (lock) => {
      writeFileSync(lock, "");
      utimesSync(lock, LONG_AGO, LONG_AGO);
      if (!Bun.which("flock")) return;
      const holder = Bun.spawn(["flock", lock, "sleep", "30"], { stdout: "ignore", stderr: "ignore" });
      return () => holder.kill();
    },
  },
];

describe("something at <source>.lock that is not a lock of ours is never taken over", () => {
  for (const c of FOREIGN) {
    test(`${c.name}: one line, exit 0, the new session written, the thing and the source untouched`, async () => {
      const src = sandbox.source(EXAMPLE);
      const original = readFileSync(src);
      const lock = `${src}.lock`;
      const stop = c.make(lock, sandbox.dir);
      const before = describePath(lock);
      const others = readdirSync(sandbox.dir).sort();
      try {
        const run = await runAgent(["handoff", src, "--engine", "offline"], cleanEnv(sandbox.home));
        expect(run.code).toBe(0);
        expect(run.stdout).toContain("## Goal");
        const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning:") || line.startsWith("error:"));
        expect(warnings).toEqual([
          `warning: ${src}: not recorded in the source: ${lock} is ${c.what}, not a lock this tool made; it was left alone`,
        ]);
        expect(run.stderr).not.toMatch(/^\s+at /m);
        expect(describePath(lock)).toBe(before);
        expect(readFileSync(src).equals(original)).toBe(true);
        const added = readdirSync(sandbox.dir).filter((f) => !others.includes(f));
        expect(added).toHaveLength(1);
        expect(added[0]).toMatch(/^\d{4}-.*\.jsonl$/);
      } finally {
        if (typeof stop === "function") stop();
      }
    });
  }
});

describe("a lock of ours left by a dead process is still taken over", () => {
  test("a dead pid", async () => {
    const src = sandbox.source(EXAMPLE);
    const before = readFileSync(src, "utf8");
    writeFileSync(`${src}.lock`, `${deadPid()}\n`);
    utimesSync(`${src}.lock`, LONG_AGO, LONG_AGO);
    const run = await runAgent(["handoff", src, "--engine", "offline"], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("not recorded");
    // Recorded: the instruction, the answer and the model entry follow the source's own lines.
    const after = readFileSync(src, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(
      after
        .slice(before.length)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).type),
    ).toEqual(["message", "message", "model_change"]);
    expect(existsSync(`${src}.lock`)).toBe(false);
    expect(readdirSync(sandbox.dir).filter((f) => f.includes("stale"))).toEqual([]);
  });
});
