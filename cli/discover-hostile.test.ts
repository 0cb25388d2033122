/**
 * Finding sessions in a home that fights back: files in the agents' folders that are no
 * sessions, or no files (a pipe, a link to one, a first line of megabytes), sessions that name
 * their folder oddly, and a home with no agent folders at all. Every case: `agent ls` finishes,
 * lists what is a session of the folder and nothing else, and `agent handoff` picks the right one.
 */
import { afterEach, describe, expect, test } from "bun:test";
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentName } from "../core/index.ts";
import { plantSession } from "../fixtures/agent-homes.ts";
import { CLI, cleanEnv, runAgent } from "../fixtures/run-agent.ts";
import { createFakeHome, IDS, OLDER_PI, type FakeHome } from "./discover.testing.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fakeHome(): FakeHome {
  const home = createFakeHome();
  made.push(home.home);
  return home;
}

/** `agent ls --json` in `cwd`: the ids listed, in order; it must finish and exit 0. */
async function listedIds(home: FakeHome, cwd: string, args: string[] = []): Promise<string[]> {
  const run = await runAgent(["ls", "--json", ...args], home.env(), cwd);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout).map((s: { id: string }) => s.id);
}

const APP_IDS = [IDS.app["claude-code"], IDS.app.pi, IDS.app.codex, IDS.app.omp, OLDER_PI];
const PI_HEADER = (id: string, cwd: string) =>
  `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-30T10:00:00.000Z", cwd })}\n`;

describe("files in an agent's folder that are no sessions to list", () => {
  test.each<[string, (piFolder: string, home: FakeHome) => void]>([
    [
      "a named pipe called x.jsonl (never opened in a way that waits for a writer)",
      (folder) => Bun.spawnSync(["mkfifo", join(folder, "fifo.jsonl")]),
    ],
    [
      "a link to a named pipe",
      (folder, home) => {
        Bun.spawnSync(["mkfifo", join(home.home, "pipe")]);
        symlinkSync(join(home.home, "pipe"), join(folder, "pipe-link.jsonl"));
      },
    ],
    ["a link to a folder, named like a session", (folder, home) => symlinkSync(home.app, join(folder, "dir-link.jsonl"))],
    ["a dangling link", (folder, home) => symlinkSync(join(home.home, "gone.jsonl"), join(folder, "dangling.jsonl"))],
    [
      "a first line of 9 MB with no end",
      (folder) => {
        const fd = openSync(join(folder, "huge.jsonl"), "w");
        writeSync(fd, '{"type":"session","version":3,"id":"d0000000-0000-4000-8000-000000000000","pad":"');
        ftruncateSync(fd, 9 * 1024 * 1024);
        closeSync(fd);
      },
    ],
    [
      "a session whose recorded cwd is relative (. would be whichever folder we run in)",
      (folder) => {
        writeFileSync(join(folder, "relative.jsonl"), PI_HEADER("d1000000-0000-4000-8000-000000000000", "."));
      },
    ],
    [
      "a session whose recorded cwd is empty",
      (folder) => writeFileSync(join(folder, "empty-cwd.jsonl"), PI_HEADER("d2000000-0000-4000-8000-000000000000", "")),
    ],
  ])("%s: left out, the folder's sessions listed as ever", async (_, plant) => {
    const home = fakeHome();
    plant(join(home.paths[IDS.app.pi] ?? "", ".."), home);
    expect(await listedIds(home, home.app)).toEqual(APP_IDS);
    const handoff = await runAgent(["handoff", "--dry-run", "--engine", "offline", "--agent", "pi"], home.env(), home.app);
    expect(handoff.code).toBe(0);
    expect(handoff.stderr).toContain(`: ${home.paths[IDS.app.pi]}\n`);
  });

  test("a session file that is a link to a session elsewhere in the agent's folder is listed once", async () => {
    const home = fakeHome();
    const piFolder = join(home.paths[IDS.app.pi] ?? "", "..");
    symlinkSync(home.paths[IDS.app.pi] ?? "", join(piFolder, "again.jsonl"));
    expect(await listedIds(home, home.app)).toEqual(APP_IDS);
  });
});

describe("ids for shell completion (agent ls --all --ids)", () => {
  test.each<[string, string]>([
    ["a command substitution", "$(touch PWNED)"],
    ["backticks", "`touch PWNED`"],
    ["a variable and spaces", "a1 $HOME b2"],
    ["a glob", "a1*"],
    ["a leading dash", "-a1"],
  ])("an id with %s is not offered; bash completes the others and runs nothing", async (_, id) => {
    const home = fakeHome();
    const piFolder = join(home.paths[IDS.app.pi] ?? "", "..");
    writeFileSync(join(piFolder, "odd-id.jsonl"), PI_HEADER(id, home.app));
    const ids = await runAgent(["ls", "--all", "--ids"], home.env(), home.app);
    expect(ids.stdout.split("\n").filter(Boolean).sort()).toEqual(
      [...Object.values(IDS.app), ...Object.values(IDS.other), OLDER_PI].sort(),
    );
    const script = (await runAgent(["completion", "bash"], home.env(), home.app)).stdout;
    const file = join(home.home, "completion.bash");
    writeFileSync(file, script);
    const line = `source '${file}'; agent() { '${process.execPath}' '${CLI}' "$@"; }; COMP_WORDS=(agent handoff --session ''); COMP_CWORD=3; _agent; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const bash = Bun.spawnSync(["bash", "-c", line], { env: home.env(), cwd: home.app, stdout: "pipe", stderr: "pipe" });
    expect(bash.stdout.toString().split("\n").filter(Boolean)).toHaveLength(9);
    expect(existsSync(join(home.app, "PWNED"))).toBe(false);
  });
});

describe("one id in two files", () => {
  test.each<[string, (id: string) => string]>([
    ["the whole id", (id) => id],
    ["a start of it", (id) => id.slice(0, -1)],
  ])("a copied session, --session with %s: exit 2, asking for the path, listing both files", async (_, wanted) => {
    const home = fakeHome();
    const source = home.paths[IDS.app.pi] ?? "";
    const copy = join(source, "..", "copy.jsonl");
    writeFileSync(copy, readFileSync(source));
    const run = await runAgent(["handoff", "--session", wanted(IDS.app.pi)], home.env(), home.app);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith(
      `error: --session ${wanted(IDS.app.pi)} is the id of 2 session files; name the one to hand off by its path:\n`,
    );
    expect(run.stderr).toContain(`${IDS.app.pi}  ${source}\n`);
    expect(run.stderr).toContain(`${IDS.app.pi}  ${copy}`);
  });
});

describe("a folder named with characters a shell or a terminal would act on", () => {
  test.each<[string, string]>([
    ["quotes, $, a backtick and spaces", 'it\'s "my" $HOME `x` dir'],
    ["a tab and non-Latin letters", "日本\tcafé"],
    ["a leading dash", "-rf"],
  ])("%s: every agent's session is found, and the command to continue quotes the folder", async (_, name) => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-odd-home-")));
    made.push(home);
    const cwd = join(home, name);
    mkdirSync(cwd, { recursive: true });
    const agents: AgentName[] = ["pi", "omp", "claude-code", "codex"];
    for (const [i, agent] of agents.entries()) {
      plantSession(
        { home, env: {}, tmpdir: realpathSync(tmpdir()) },
        { agent, id: `e${i}000000-0000-4000-8000-000000000000`, cwd, mtime: 1_789_900_000 + i },
      );
    }
    const run = await runAgent(["ls", "--json"], cleanEnv(home), cwd);
    expect(JSON.parse(run.stdout).map((s: { agent: string; cwd: string }) => [s.agent, s.cwd])).toEqual(
      [...agents].reverse().map((agent) => [agent, cwd]),
    );
    const handoff = await runAgent(["handoff", "--no-record", "--engine", "offline", "--json"], cleanEnv(home), home);
    expect(handoff.code).toBe(2);
    const here = await runAgent(["handoff", "--no-record", "--engine", "offline", "--json"], cleanEnv(home), cwd);
    expect(here.code).toBe(0);
    const out = JSON.parse(here.stdout);
    expect(out.resume).toEqual({ argv: ["codex", "resume", out.sessionId], cwd });
    // Run from elsewhere, the line to paste goes to the folder first, quoted for a POSIX shell.
    const elsewhere = await runAgent(
      ["handoff", "--no-record", "--engine", "offline", "--session", "e0000000-0000-4000-8000-000000000000"],
      cleanEnv(home),
      home,
    );
    expect(elsewhere.code).toBe(0);
    const line = /Continue with: (.*)\n/.exec(elsewhere.stderr)?.[1] ?? "";
    const shell = Bun.spawnSync(["/bin/sh", "-c", line.replace(/ && pi .*/, " && pwd")], { env: cleanEnv(home) });
    expect(shell.stdout.toString()).toBe(`${cwd}\n`);
  });
});

describe("a home with nothing in it", () => {
  test("no agent folders at all: ls prints [] and says where it looked; handoff exits 2 saying the same", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-bare-home-")));
    made.push(home);
    const ls = await runAgent(["ls", "--json", "--all"], cleanEnv(home), home);
    expect(ls).toEqual({
      code: 0,
      stdout: "[]\n",
      stderr: `no sessions (looked in ${join(home, ".pi", "agent", "sessions")}, ${join(home, ".omp", "agent", "sessions")}, ${join(home, ".claude", "projects")}, ${join(home, ".codex", "sessions")})\n`,
    });
    const handoff = await runAgent(["handoff"], cleanEnv(home), home);
    expect(handoff.code).toBe(2);
    expect(handoff.stdout).toBe("");
    expect(handoff.stderr).toStartWith(`error: no session of pi, omp, Claude Code or Codex worked in ${home} (looked in `);
  });
});
