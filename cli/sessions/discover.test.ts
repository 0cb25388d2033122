/**
 * No paths to type: `agent handoff` and `agent ls` find sessions in a fake HOME holding sessions
 * of every agent in the format table for several folders (cli/sessions/discover.testing.ts), by
 * the cwd each recorded.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { runAgent } from "../../fixtures/run-agent.ts";
import { type AgentName, describeFormatNames, describeFormats, FORMATS } from "../../core/index.ts";
import {
  createFakeHome,
  everyRoot,
  IDS,
  idsStartingWith,
  NEWEST_FIRST,
  OLDER_PI,
  OTHER_IDS,
  T0,
  type FakeHome,
} from "./discover.testing.ts";

let fake: FakeHome;
beforeAll(() => {
  fake = createFakeHome();
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

/** `agent ls --json` in `cwd`: the sessions as [agent, id]. */
async function listed(cwd: string, args: string[] = [], env = fake.env()): Promise<[string, string][]> {
  const run = await runAgent(["ls", "--json", ...args], env, cwd);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout).map((s: { agent: string; id: string }) => [s.agent, s.id]);
}

describe("agent ls: the sessions that worked in the current folder, newest first", () => {
  test("every agent's, by the cwd each recorded, newest first; subagents, non-sessions and links out of the folders left out", async () => {
    expect(await listed(fake.app)).toEqual([...NEWEST_FIRST.map((agent): [string, string] => [agent, IDS.app[agent]]), ["pi", OLDER_PI]]);
  });

  test("--json: one object per session with the documented fields", async () => {
    const run = await runAgent(["ls", "--json", "--agent", "claude"], fake.env(), fake.app);
    const path = fake.paths[IDS.app["claude-code"]] ?? "";
    const bytes = statSync(path).size;
    expect(JSON.parse(run.stdout)).toEqual([
      {
        agent: "claude-code",
        id: IDS.app["claude-code"],
        path,
        cwd: fake.app,
        updated: new Date((T0 + 40) * 1000).toISOString(),
        bytes,
        estimatedTokens: Math.ceil(bytes / 4),
        title: "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.",
      },
    ]);
    expect(run.stderr).toBe("");
  });

  test("--all: every folder's; --agent narrows to one agent, by any of its names", async () => {
    const all = await listed(fake.empty, ["--all"]);
    expect(all).toHaveLength(NEWEST_FIRST.length + 1 + OTHER_IDS.length);
    expect(all.slice(-OTHER_IDS.length)).toEqual(NEWEST_FIRST.map((agent) => [agent, IDS.other[agent]]));
    expect(await listed(fake.empty, ["--all", "--agent", "Codex"])).toEqual([
      ["codex", IDS.app.codex],
      ["codex", IDS.other.codex],
    ]);
  });

  test("--long adds the messages on each session's branch", async () => {
    const run = await runAgent(["ls", "--json", "--long", "--agent", "pi"], fake.env(), fake.app);
    const messages = JSON.parse(run.stdout).map((s: { messages: unknown }) => s.messages);
    expect(messages).toHaveLength(2);
    for (const count of messages) expect(count).toBeGreaterThan(2);
  });

  test("a folder where no session worked: an empty list, and stderr says where it looked", async () => {
    const run = await runAgent(["ls", "--json"], fake.env(), fake.empty);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("[]\n");
    expect(run.stderr).toContain(`no session worked in ${fake.empty} (looked in ${join(fake.home, ".pi")}`);
  });

  test("in a pipe: one tab-separated line per session, nothing cut", async () => {
    const run = await runAgent(["ls", "--agent", "omp"], fake.env(), fake.app);
    const path = fake.paths[IDS.app.omp] ?? "";
    const bytes = statSync(path).size;
    expect(run.stdout).toBe(
      `${[new Date((T0 + 10) * 1000).toISOString(), "omp", IDS.app.omp, bytes, Math.ceil(bytes / 4), "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.", fake.app, path].join("\t")}\n`,
    );
  });

  test("a session that recorded the folder through a link is the folder's too; the folder reached through a link is the same folder", async () => {
    const link = join(fake.home, "app-link");
    symlinkSync(fake.app, link);
    expect((await listed(link)).map(([, id]) => id)).toContain(IDS.app.pi);
  });

  /** Each agent's override of where it keeps its sessions: the variable, and what of the home moves to the folder it names. */
  const OVERRIDES: Record<AgentName, { variable: string; moves: string; to: string } | undefined> = {
    pi: { variable: "PI_CODING_AGENT_DIR", moves: ".pi/agent", to: "pi" },
    // PI_CODING_AGENT_DIR is omp's override too: pi's folder, moved, holds pi's sessions only.
    omp: undefined,
    "claude-code": { variable: "CLAUDE_CONFIG_DIR", moves: ".claude", to: "claude" },
    codex: { variable: "CODEX_HOME", moves: ".codex", to: "codex" },
    // GEMINI_CLI_HOME stands for the home folder: Gemini CLI keeps its .gemini in it.
    gemini: { variable: "GEMINI_CLI_HOME", moves: ".gemini", to: "gemini-home/.gemini" },
    opencode: { variable: "XDG_DATA_HOME", moves: ".local/share", to: "data" },
  };

  test("each agent's own override of where it keeps sessions is followed, and the default is then not looked in", async () => {
    const moved = join(fake.home, "elsewhere");
    mkdirSync(moved);
    const env: Record<string, string> = {};
    for (const override of Object.values(OVERRIDES)) {
      if (override === undefined) continue;
      cpSync(join(fake.home, override.moves), join(moved, override.to), {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
      });
      env[override.variable] = join(moved, override.to.replace(/\/\.gemini$/, ""));
    }
    try {
      const found = await runAgent(["ls", "--json"], fake.env(env), fake.app);
      const sessions: { agent: string; path: string }[] = JSON.parse(found.stdout);
      expect(sessions.map((s) => [s.agent, s.path.startsWith(`${moved}/`)])).toEqual([
        ...NEWEST_FIRST.filter((agent) => OVERRIDES[agent] !== undefined).map((agent) => [agent, true]),
        ["pi", true],
      ]);
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  // Codex 0.169's find_codex_home: a CODEX_HOME set and not empty is taken as it is (no `~`
  // expansion) and, when relative, in the folder Codex runs in; an empty one is not set.
  test.each([
    ["a relative CODEX_HOME: in the folder the run works in", "state/codex", "state/codex"],
    ["a relative CODEX_HOME with . and ..", "./state/../state/codex", "state/codex"],
    ["a CODEX_HOME starting with ~: a folder named ~ there, not the home folder", "~/.codex", "~/.codex"],
    ["a CODEX_HOME of one blank: a folder of that name, not trimmed", " ", " "],
    ["an empty CODEX_HOME: ~/.codex", "", undefined],
  ])("%s", async (_what, value, under) => {
    const moved = under === undefined ? undefined : join(fake.empty, under);
    if (moved !== undefined)
      cpSync(join(fake.home, ".codex"), moved, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
    try {
      // In-process, in a folder that is not the test process's own: the run's folder decides.
      const run = await runAgent(["ls", "--json", "--all", "--agent", "codex"], fake.env({ CODEX_HOME: value }), fake.empty);
      const paths: string[] = JSON.parse(run.stdout).map((s: { path: string }) => s.path);
      expect(paths).toHaveLength(2);
      const root = moved === undefined ? join(fake.home, ".codex") : join(realpathSync(fake.empty), under ?? "");
      expect(paths.filter((path) => !path.startsWith(`${root}/sessions/`))).toEqual([]);
    } finally {
      if (moved !== undefined) rmSync(join(fake.empty, under?.split("/")[0] ?? ""), { recursive: true, force: true });
    }
  });

  test.skipIf(process.getuid?.() === 0)("a folder that cannot be read: left out, with a warning at -v only", async () => {
    const folder = join(fake.paths[IDS.app.pi] ?? "", "..");
    Bun.spawnSync(["chmod", "000", folder]);
    try {
      const quiet = await runAgent(["ls", "--json"], fake.env(), fake.app);
      expect(quiet.stderr).toBe("");
      const verbose = await runAgent(["ls", "--json", "-v"], fake.env(), fake.app);
      expect(verbose.stderr).toContain(`${folder}: cannot read this folder (permission denied)`);
    } finally {
      Bun.spawnSync(["chmod", "700", folder]);
    }
  });
});

describe("agent handoff without a path", () => {
  /** A copy of the fake home a handoff may write into. */
  function scratchHome(): FakeHome & { dispose(): void } {
    const copy = createFakeHome();
    return { ...copy, dispose: () => rmSync(copy.home, { recursive: true, force: true }) };
  }

  test("hands off the newest session of the current folder, of any agent, and says which file", async () => {
    const home = scratchHome();
    try {
      const run = await runAgent(["handoff", "--json", "--no-record"], home.env(), home.app);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.sourceFile).toBe(home.paths[IDS.app["claude-code"]]);
      expect(run.stderr).toContain(`Handing off the newest Claude Code session ${IDS.app["claude-code"]}, updated `);
      expect(run.stderr).toContain(`: ${home.paths[IDS.app["claude-code"]]}\n`);
    } finally {
      home.dispose();
    }
  });

  test.each<[string, string[], string]>([
    ...FORMATS.map((format): [string, string[], string] => [
      `--agent ${format.name}: its newest of the folder`,
      ["--agent", format.name],
      IDS.app[format.name],
    ]),
    ...FORMATS.flatMap((format) =>
      format.aliases.map((alias): [string, string[], string] => [`--agent ${alias} (an alias)`, ["--agent", alias], IDS.app[format.name]]),
    ),
    ["--session with a unique start of an id, found in any folder", ["--session", "b4"], IDS.other.codex],
    ["--session with a Gemini CLI session's start of an id", ["--session", "b5"], IDS.other.gemini],
    ["--session with an opencode session's whole id", ["--session", IDS.other.opencode], IDS.other.opencode],
    ["--session with a whole id, in any case", ["--session", IDS.other.omp.toUpperCase()], IDS.other.omp],
    ["--session narrowed by --agent", ["--session", "a", "--agent", "codex"], IDS.app.codex],
  ])("%s", async (_, args, id) => {
    const run = await runAgent(["handoff", "--dry-run", "--engine", "offline", ...args], fake.env(), fake.app);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${id}, updated `);
    expect(run.stderr).toContain(`: ${fake.paths[id]}\n`);
  });

  test("a folder argument: the newest session file in it, when it holds session files", async () => {
    const piFolder = join(fake.paths[IDS.other.pi] ?? "", "..");
    const run = await runAgent(["handoff", piFolder, "--dry-run", "--engine", "offline"], fake.env(), fake.empty);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Handing off the newest pi session ${IDS.other.pi}, updated `);
    expect(run.stderr).toContain(` ago, in ${piFolder}: ${fake.paths[IDS.other.pi]}\n`);
  });

  test("a folder argument with no session files in it: the newest session that worked there", async () => {
    const run = await runAgent(["handoff", fake.other, "--dry-run", "--engine", "offline"], fake.env(), fake.empty);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Handing off the newest Claude Code session ${IDS.other["claude-code"]}`);
  });

  test("a folder argument narrowed by --agent: that agent's newest session that worked there", async () => {
    const run = await runAgent(["handoff", fake.other, "--agent", "omp", "--dry-run", "--engine", "offline"], fake.env(), fake.empty);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Handing off the newest omp session ${IDS.other.omp}, updated `);
    expect(run.stderr).toContain(`: ${fake.paths[IDS.other.omp]}\n`);
  });

  test("an ambiguous start of an id: exit 2, listing every match, nothing written", async () => {
    const before = readdirSync(join(fake.paths[IDS.app.pi] ?? "", "..")).sort();
    const run = await runAgent(["handoff", "--session", "b"], fake.env(), fake.app);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const matches = idsStartingWith("b");
    expect(run.stderr).toStartWith(`error: --session b matches ${matches.length} sessions; give more of the id:\n`);
    for (const id of matches) expect(run.stderr).toContain(`${id}  ${fake.paths[id]}`);
    expect(readdirSync(join(fake.paths[IDS.app.pi] ?? "", "..")).sort()).toEqual(before);
  });

  test("--session with the id of a thread Codex ran for itself: exit 2, saying what it is and whose, nothing written", async () => {
    const before = readdirSync(join(fake.paths[IDS.app.codex] ?? "", "..")).sort();
    const run = await runAgent(["handoff", "--session", "A4000000-0000-4000-8000-0000000000AA"], fake.env(), fake.app);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith(
      `error: --session A4000000-0000-4000-8000-0000000000AA: Codex a4000000-0000-4000-8000-0000000000aa is a thread Codex ran for itself (subagent: thread_spawn) of session ${IDS.app.codex}, not a session the user worked in; hand off the session it belongs to, or name its file: `,
    );
    expect(run.stderr).toEndWith("rollout-2026-11-30T12-00-09-a4000000-0000-4000-8000-0000000000aa.jsonl\n");
    expect(readdirSync(join(fake.paths[IDS.app.codex] ?? "", "..")).sort()).toEqual(before);
  });

  test.each<[string, string[], (home: FakeHome) => string]>([
    [
      "no session worked in the folder",
      [],
      (h) =>
        `error: no session of ${describeFormats()} worked in ${h.empty} (looked in ${join(h.home, ".pi", "agent", "sessions", `--${h.empty.slice(1).replaceAll("/", "-")}--`)}, `,
    ],
    [
      "no session of that agent",
      ["--agent", "omp"],
      (h) =>
        `error: no omp session worked in ${h.empty} (looked in ${join(h.home, ".omp", "agent", "sessions", "-work-empty")}); name a session file or use --session <id> (agent ls --all lists them)\n`,
    ],
    // The advice fits what was given: no "use --session" to one who did, none to name a file to one whose word was no file.
    [
      "no id starts so, with --session",
      ["--session", "ffff"],
      (h) =>
        `error: no session of ${describeFormats()} has an id starting with ffff (looked in ${everyRoot(h.home)}); agent ls --all lists every session with its id\n`,
    ],
    [
      "no id starts so, as a word",
      ["ffff"],
      (h) =>
        `error: ffff: no such file or folder, and no session of ${describeFormats()} has an id starting with ffff (looked in ${everyRoot(h.home)}); check the path, or give an id agent ls --all lists\n`,
    ],
    [
      "no id starts so, with --session and --agent",
      ["--session", "ffff", "--agent", "codex"],
      (h) =>
        `error: no Codex session has an id starting with ffff (looked in ${join(h.home, ".codex", "sessions")}); agent ls --all lists every session with its id\n`,
    ],
  ])("none found (%s): exit 2 with where it looked", async (_, args, message) => {
    const run = await runAgent(["handoff", ...args], fake.env(), fake.empty);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith(message(fake));
  });

  test.each<[string[], string]>([
    [
      ["handoff", "x.jsonl", "--agent", "pi"],
      "error: --agent picks among the sessions found on this machine, and x.jsonl names one file; leave out one of them (see agent handoff --help)\n",
    ],
    [["handoff", "x.jsonl", "--session", "a1"], "error: give a session path or --session a1, not both (see agent handoff --help)\n"],
    [["handoff", "--agent", "aider"], `error: --agent takes ${describeFormatNames()}, not "aider" (see agent handoff --help)\n`],
    [["ls", "--agent", "aider"], `error: --agent takes ${describeFormatNames()}, not "aider" (see agent ls --help)\n`],
    [["handoff", "--session="], "error: option --session needs an id, not an empty string (see agent handoff --help)\n"],
  ])("agent %p: a usage error", async (args, stderr) => {
    expect(await runAgent(args, fake.env(), fake.app)).toEqual({ code: 2, stdout: "", stderr });
  });
});

describe("after a handoff, the new session is the one the agent continues", () => {
  test("recorded into its source, it is still the newest file: ls lists it first, and its mtime is after the source's", async () => {
    const home = createFakeHome();
    try {
      const source = home.paths[IDS.app.pi] ?? "";
      const run = await runAgent(["handoff", "--agent", "pi", "--json"], home.env(), home.app);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.recorded).toBe(true);
      expect(statSync(out.sessionFile).mtimeMs).toBeGreaterThan(statSync(source).mtimeMs);
      const [first] = await listed(home.app, ["--agent", "pi"], home.env());
      expect(first).toEqual(["pi", out.sessionId]);
    } finally {
      rmSync(home.home, { recursive: true, force: true });
    }
  });

  test("a source modified in the future (a clock set back) is still older than the new session", async () => {
    const home = createFakeHome();
    try {
      const source = home.paths[IDS.app.omp] ?? "";
      const future = Date.now() / 1000 + 3600;
      Bun.spawnSync(["touch", "-d", `@${future}`, source]);
      const run = await runAgent(["handoff", "--agent", "omp", "--json"], home.env(), home.app);
      const out = JSON.parse(run.stdout);
      expect(out.recorded).toBe(true);
      expect(statSync(out.sessionFile).mtimeMs).toBeGreaterThan(statSync(source).mtimeMs);
    } finally {
      rmSync(home.home, { recursive: true, force: true });
    }
  });
});
