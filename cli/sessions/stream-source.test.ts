import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, REPO } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

/** Runs the CLI through bash, so stdin, pipes and `<(…)` are the shell's own; `$SRC` is the session. */
async function viaShell(shell: string, args: string[], env: Record<string, string>, cwd: string) {
  const proc = Bun.spawn(["bash", "-c", shell, "agent", ...CLI_ARGV, ...args], {
    env,
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

/** Ways to hand a session over as a stream; each names what it reads from as the user sees it. */
const STREAMS: { name: string; shell: string; named: string; reason: string }[] = [
  {
    name: "/dev/stdin redirected from the file",
    shell: '"$@" /dev/stdin < "$SRC"',
    named: "/dev/stdin",
    reason: "it names an open descriptor",
  },
  { name: "/dev/stdin from a pipe", shell: 'cat "$SRC" | "$@" /dev/stdin', named: "/dev/stdin", reason: "it is a pipe" },
  { name: "- redirected from the file", shell: '"$@" - < "$SRC"', named: "-", reason: "it was read from stdin" },
  { name: "- from a pipe", shell: 'cat "$SRC" | "$@" -', named: "-", reason: "it was read from stdin" },
  { name: "process substitution", shell: '"$@" <(cat "$SRC")', named: "/dev/fd/", reason: "it is a pipe" },
  {
    name: "/dev/fd/0 redirected from the file",
    shell: '"$@" /dev/fd/0 < "$SRC"',
    named: "/dev/fd/0",
    reason: "it names an open descriptor",
  },
  {
    name: "/proc/self/fd/0 redirected from the file",
    shell: '"$@" /proc/self/fd/0 < "$SRC"',
    named: "/proc/self/fd/0",
    reason: "it names an open descriptor",
  },
  {
    name: "a link to /dev/stdin",
    shell: 'ln -s /dev/stdin "$PWD/in.jsonl" && "$@" "$PWD/in.jsonl" < "$SRC"',
    named: "/in.jsonl",
    reason: "it names an open descriptor",
  },
  {
    name: "a named pipe",
    shell:
      'mkfifo "$PWD/fifo.jsonl" && { cat "$SRC" > "$PWD/fifo.jsonl" & } && "$@" "$PWD/fifo.jsonl"; s=$?; kill $! 2>/dev/null; rm "$PWD/fifo.jsonl"; exit $s',
    named: "/fifo.jsonl",
    reason: "it is a pipe",
  },
];

describe("a session read as a stream is read, never recorded into, and has no parent", () => {
  for (const c of STREAMS) {
    test(`${c.name}: the new session goes to the current folder`, async () => {
      const src = sandbox.source(EXAMPLE);
      const original = readFileSync(src);
      const cwd = join(sandbox.dir, "work");
      mkdirSync(cwd);
      const devBefore = readdirSync("/dev");
      const run = await viaShell(c.shell, ["handoff", "--engine", "offline", "--json"], cleanEnv(sandbox.home, { SRC: src }), cwd);
      expect(run.code).toBe(0);
      const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning:"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(c.named);
      expect(warnings[0]).toEndWith(`: not recorded in the source: ${c.reason}, not a file it could be written back to`);
      const out = JSON.parse(run.stdout);
      expect(out).toMatchObject({ recorded: false, sourceFile: null });
      expect(out.document).toContain("- Source session: read from `");
      expect(out.document).toContain("`, a stream (no file to return to)");

      const created = readdirSync(cwd).filter((f) => f.endsWith(".jsonl") && /^\d{4}-/.test(f));
      expect(created).toHaveLength(1);
      expect(out.sessionFile).toBe(join(cwd, created[0] ?? ""));
      const header = JSON.parse(readFileSync(out.sessionFile, "utf8").split("\n")[0] ?? "{}");
      expect(header.parentSession).toBeUndefined();
      expect(header.cwd).toBe("/home/me/app");
      expect(readFileSync(src).equals(original)).toBe(true);
      expect(readdirSync(sandbox.dir).sort()).toEqual(["source.jsonl", "work"]);
      expect(readdirSync("/dev").filter((f) => !devBefore.includes(f) && f.endsWith(".jsonl"))).toEqual([]);
    });
  }

  test("--out is still where the new session goes", async () => {
    const src = sandbox.source(EXAMPLE);
    const out = join(sandbox.dir, "new.jsonl");
    const run = await viaShell(
      '"$@" - < "$SRC"',
      ["handoff", "--engine", "offline", "-o", out],
      cleanEnv(sandbox.home, { SRC: src }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(readdirSync(sandbox.dir).sort()).toEqual(["new.jsonl", "source.jsonl"]);
  });

  test("--no-record: nothing to say about recording", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await viaShell(
      '"$@" - < "$SRC"',
      ["handoff", "--engine", "offline", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      cleanEnv(sandbox.home, { SRC: src }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("not recorded");
  });

  test("inspect reads a stream too", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await viaShell('cat "$SRC" | "$@" - --json', ["inspect"], cleanEnv(sandbox.home, { SRC: src }), sandbox.dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ file: "-", sessionId: "3f0c9a52-8d1e-4b7a-9c61-2f4e5d6a7b80" });
  });
});

describe("what cannot be a session stream is refused, exit 2", () => {
  test.each([
    ["a device that never ends", '"$@" /dev/zero', "error: /dev/zero: is a device, not a session file"],
    ["a pipe of zeros", 'head -c 5000000 /dev/zero | "$@" -', "error: -: not a session: it looks like binary data"],
    ["an empty pipe", 'true | "$@" -', "error: -: not a session: the file is empty"],
    ["stdin closed", '"$@" - <&-', "error: -: not a session: the file is empty"],
  ])("%s", async (_, shell, message) => {
    const run = await viaShell(shell, ["inspect"], cleanEnv(sandbox.home), sandbox.dir);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `${message}\n`]);
  });

  test.skipIf(Bun.spawnSync(["script", "--version"]).exitCode !== 0)("- when stdin is a terminal", async () => {
    const command = `${CLI_ARGV.join(" ")} inspect -`;
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], {
      env: cleanEnv(sandbox.home),
      cwd: sandbox.dir,
      stdin: "ignore",
      stdout: "pipe",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(2);
    expect(out.trim()).toBe("error: -: stdin is a terminal; pipe or redirect a session into it (agent handoff - < session.jsonl)");
  });
});
