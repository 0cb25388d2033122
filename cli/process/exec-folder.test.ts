/**
 * `--exec` runs the command computed for the folder it really runs in: the session's own while
 * it is there, else the current folder, where Claude Code cannot find a session by id and gets
 * the file's path instead. Every target × the session's folder present or gone, with stand-in
 * agents on the PATH (never a real agent) in a terminal (script(1)).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { cleanEnv, HAS_SCRIPT, REPO } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { shellQuote } from "../output/paste-line.ts";

const sandbox = useHandoffSandbox();

/** fixtures/example.jsonl (pi) working in `cwd`. */
function sourceIn(cwd: string): string {
  const [header = "", ...rest] = readFileSync(join(REPO, "fixtures", "example.jsonl"), "utf8").split("\n");
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, `${JSON.stringify({ ...JSON.parse(header), cwd })}\n${rest.join("\n")}`);
  return path;
}

/** Stand-ins for every agent: each writes where it ran and what it was given, then exits 7. */
function fakeAgents(): string {
  const bin = join(sandbox.home, "bin");
  mkdirSync(bin, { recursive: true });
  for (const name of ["pi", "omp", "claude", "codex"]) {
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "cwd=$(pwd -P)" "$@" > "${join(sandbox.home, "ran.txt")}"\nexit 7\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/** What each agent must be given to open `file` (whose name carries `id` for Claude Code and Codex), run in its session's project folder or not. */
const ARGV: Record<string, (file: string, id: string, inOwnFolder: boolean) => string[]> = {
  pi: (file) => ["pi", "--session", file],
  omp: (file) => ["omp", "--resume", file],
  claude: (file, id, inOwnFolder) => ["claude", "--resume", inOwnFolder ? id : file],
  codex: (_, id) => ["codex", "resume", id],
};

describe.skipIf(!HAS_SCRIPT || process.platform !== "linux")("--exec: the command for the folder it runs in", () => {
  const rows = Object.keys(ARGV).flatMap((to) => [
    [to, "present"],
    [to, "gone"],
  ]);
  test.each(rows)("--to %s, the session's folder %s", async (to, state) => {
    const bin = fakeAgents();
    const project = join(sandbox.dir, "project");
    const here = join(sandbox.dir, "here");
    mkdirSync(here);
    if (state === "present") mkdirSync(project);
    const src = sourceIn(project);
    const env = cleanEnv(sandbox.home, { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, SHELL: "/bin/sh" });
    const command = [...CLI_ARGV, "handoff", src, "--no-record", "--engine", "offline", "--to", to, "--exec"].map(shellQuote).join(" ");
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], { env, cwd: here, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const [screen, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(7);
    const file = /New session started with handoff context: (\S+)\r?\n/.exec(screen)?.[1] ?? "";
    const id = /([0-9a-f-]{36})\.jsonl$/.exec(basename(file))?.[1] ?? "";
    expect(id).not.toBe("");
    const ranIn = state === "present" ? project : here;
    const [name = "", ...args] = ARGV[to]?.(file, id, state === "present") ?? [];
    expect(readFileSync(join(sandbox.home, "ran.txt"), "utf8")).toBe(`cwd=${realpathSync(ranIn)}\n${args.join("\n")}\n`);
    expect(name).toBe(to);
    if (state === "gone") expect(screen).toContain(`${project} (the session's folder) is not there any more; running ${to} in ${here}`);
    else expect(screen).not.toContain("not there any more");
  });
});
