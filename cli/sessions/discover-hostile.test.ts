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
import { describeFormats, type FileAgentName } from "../../core/index.ts";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { CLI, cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { APP_IDS, createFakeHome, everyRoot, IDS, OLDER_PI, OTHER_IDS, type FakeHome } from "./discover.testing.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

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
    const line = `source '${file}'; agent() { ${CLI_ARGV.map((word) => `'${word}'`).join(" ")} "$@"; }; COMP_WORDS=(agent handoff --session ''); COMP_CWORD=3; _agent; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const bash = Bun.spawnSync(["bash", "-c", line], { env: home.env(), cwd: home.app, stdout: "pipe", stderr: "pipe" });
    expect(bash.stdout.toString().split("\n").filter(Boolean)).toHaveLength(APP_IDS.length + OTHER_IDS.length);
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
      `error: --session ${wanted(IDS.app.pi)} is the id of 2 session files; name the one you mean by its path:\n`,
    );
    expect(run.stderr).toContain(`${IDS.app.pi}  ${source}\n`);
    expect(run.stderr).toContain(`${IDS.app.pi}  ${copy}`);
  });
});

describe("a Claude Code session's id is its file name's uuid (what claude --resume opens it by)", () => {
  const FORK = "f0000000-0000-4000-8000-0000000000f0";
  test.each<[string, (parent: string) => string]>([
    ["a fork whose copied history passes the first 64 KB", (parent) => parent],
    ["a fork whose copied history is short", (parent) => `${parent.split("\n").slice(0, 3).join("\n")}\n`],
  ])("%s: listed, completed and found by the fork's own id", async (_, copied) => {
    const home = fakeHome();
    const parentPath = home.paths[IDS.app["claude-code"]] ?? "";
    const parent = readFileSync(parentPath, "utf8");
    const own = JSON.stringify({
      type: "user",
      uuid: "fork-u1",
      parentUuid: null,
      isSidechain: false,
      sessionId: FORK,
      cwd: home.app,
      timestamp: "2026-11-30T12:00:00.000Z",
      message: { role: "user", content: "and now in the fork" },
    });
    const fork = join(parentPath, "..", `${FORK}.jsonl`);
    writeFileSync(fork, `${copied(parent)}${own}\n`);
    const listed = await runAgent(["ls", "--json", "--agent", "claude"], home.env(), home.app);
    expect(JSON.parse(listed.stdout).map((s: { id: string; path: string }) => [s.id, s.path])).toEqual([
      [FORK, fork],
      [IDS.app["claude-code"], parentPath],
    ]);
    const ids = await runAgent(["ls", "--all", "--ids", "--agent", "claude"], home.env(), home.app);
    expect(ids.stdout.split("\n")).toContain(FORK);
    const run = await runAgent(["handoff", "--session", FORK.slice(0, 8), "--dry-run", "--engine", "offline"], home.env(), home.app);
    expect(run.stderr).toStartWith(`Handing off the Claude Code session ${FORK}, updated`);
    expect(run.stderr).toContain(fork);
  });
});

describe("ids and titles from session files, printed: nothing a terminal acts on, no line of their own", () => {
  // Every character a terminal acts on, and the line breaks that would start a line of ours.
  const HOSTILE = "x\u001b]0;PWN\u0007\u001b[2J\u009b31m\u0000\u202eRTL\r\nerror: fake line\u0085end";
  const ACTS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  const plant = (home: FakeHome, id: string, title: string) => {
    const text = readFileSync(home.paths[IDS.app.pi] ?? "", "utf8")
      .replaceAll(IDS.app.pi, JSON.stringify(id).slice(1, -1))
      .replace("Fix the typo in src/greet.txt, then check that notes/todo.txt exists.", JSON.stringify(title).slice(1, -1));
    const path = join(home.paths[IDS.app.pi] ?? "", "..", `planted-${Bun.hash(id)}.jsonl`);
    writeFileSync(path, text);
    return path;
  };
  test.each<[string, string, string]>([
    ["in the title", "e0000000-0000-4000-8000-000000000001", `evil ${HOSTILE}`],
    ["in the id", `zz${HOSTILE}`, "plain"],
    ["in both", `zz${HOSTILE}2`, HOSTILE],
  ])("%s: agent ls in a pipe, and the messages naming it", async (_, id, title) => {
    const home = fakeHome();
    plant(home, id, title);
    const piped = await runAgent(["ls"], home.env(), home.app);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toMatch(ACTS);
    // One line per session, each with its eight fields.
    expect(
      piped.stdout
        .trimEnd()
        .split("\n")
        .map((line) => line.split("\t").length),
    ).toEqual(Array(APP_IDS.length + 1).fill(8));
    // --json keeps the text as it is (the lossless form), escaped.
    const json = await runAgent(["ls", "--json"], home.env(), home.app);
    expect(JSON.parse(json.stdout).map((s: { id: string }) => s.id)).toContain(id);
    // Two ids sharing a start: the message lists both; the newest pick names one. No line but ours.
    plant(home, `${id}-copy`, title);
    const run = await runAgent(["handoff", "--session", id.slice(0, 4), "--dry-run", "--engine", "offline"], home.env(), home.app);
    for (const stderr of [run.stderr, piped.stderr]) {
      expect(stderr).not.toMatch(ACTS);
      expect(
        stderr.split("\n").filter((line) => line.includes("fake line") && !line.startsWith("  pi  ") && !line.startsWith("Handing off")),
      ).toEqual([]);
    }
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
    const agents: FileAgentName[] = ["pi", "omp", "claude-code", "codex"];
    for (const [i, agent] of agents.entries()) {
      plantSession(
        { home, env: {}, tmpdir: realpathSync(tmpdir()), runFolder: home },
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
    // Run from elsewhere, the line to paste goes to the folder first, quoted for bash and zsh.
    const elsewhere = await runAgent(
      ["handoff", "--no-record", "--engine", "offline", "--session", "e0000000-0000-4000-8000-000000000000"],
      cleanEnv(home),
      home,
    );
    expect(elsewhere.code).toBe(0);
    const line = /Continue with: (.*)\n/.exec(elsewhere.stderr)?.[1] ?? "";
    const shell = Bun.spawnSync(["bash", "-c", line.replace(/ && pi .*/, " && pwd")], { env: cleanEnv(home) });
    expect(shell.stdout.toString()).toBe(`${cwd}\n`);
  });
});

describe("the current folder was removed while the shell stayed in it", () => {
  const GONE =
    "error: the current folder no longer exists (it was deleted or moved); cd to one that does, or name the session by its absolute path\n";
  test.each<[string, string[], number, string | undefined]>([
    ["agent ls", ["ls"], 2, GONE],
    ["agent handoff (the newest of this folder)", ["handoff", "--engine", "offline", "--dry-run"], 2, GONE],
    [
      "agent handoff with a relative path",
      ["handoff", "s.jsonl", "--engine", "offline", "--dry-run"],
      2,
      "error: s.jsonl: no such file or folder\n",
    ],
    ["agent ls --all (no folder needed)", ["ls", "--all", "--json"], 0, undefined],
    ["agent handoff --session (no folder needed)", ["handoff", "--session", IDS.app.pi, "--engine", "offline", "--dry-run"], 0, undefined],
  ])("%s", async (_, args, code, stderr) => {
    const home = fakeHome();
    const gone = join(home.home, "gone");
    mkdirSync(gone);
    // The sources, not the built binary: the binary's runtime ends before any of our code runs in
    // a folder that is gone (exit 1, not a word; the runtime's, not ours to word).
    const words = [process.execPath, CLI, ...args].map((w) => `'${w}'`).join(" ");
    const proc = Bun.spawn(["sh", "-c", `cd '${gone}' && rmdir '${gone}' && exec ${words}`], {
      env: home.env(),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, status] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(status).toBe(code);
    if (stderr !== undefined) expect([out, err]).toEqual(["", stderr]);
    else expect(err).not.toContain("internal error");
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
      stderr: `no sessions (looked in ${everyRoot(home)})\n`,
    });
    const handoff = await runAgent(["handoff"], cleanEnv(home), home);
    expect(handoff.code).toBe(2);
    expect(handoff.stdout).toBe("");
    expect(handoff.stderr).toStartWith(`error: no session of ${describeFormats()} worked in ${home} (looked in `);
  });
});
