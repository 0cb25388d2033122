/**
 * `/handoff` in pi and `/agent-handoff` in omp, end to end in this process: `agent integrate`
 * installs the extension, the installed file is imported and its command driven with a fake agent
 * API whose `exec` runs the CLI here (the argv the extension built, less the recorded program),
 * and what the user sees is the agent's notify lines, the switch, and the files on disk. The real
 * agents run the same in `bun run compat` (in-agent).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { runCli } from "../main.ts";
import { installFakeAgents } from "../../fixtures/fake-agents.ts";
import { CLI, cleanEnv, memoryIo, REPO } from "../../fixtures/run-agent.ts";

const MARKERS = join(REPO, "fixtures", "handoff-markers.jsonl");
const OMP_SOURCE = join(REPO, "fixtures", "sessions", "omp.jsonl");

let root: string;
let home: string;
let work: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "ext25-hook-"));
  home = join(root, "home");
  work = join(root, "work");
  mkdirSync(home);
  mkdirSync(work);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The program this test's CLI runs as (what integrate records): Bun and the script, as `bun cli/index.ts` runs. */
const PROGRAM = { executable: process.execPath, script: CLI };

function env(extra: Record<string, string> = {}): Record<string, string> {
  return cleanEnv(home, { AGENT_HOOK_ENGINE: "offline", ...extra });
}

async function cli(argv: string[], environment = env()): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIo(environment, work);
  const code = await runCli(argv, { ...io, host: { ...io.host, program: PROGRAM } });
  return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
}

interface Agent {
  name: "pi" | "omp";
  command: string;
  extension: (home: string) => string;
  sessions: (home: string) => string;
  fixture: string;
  cwdInFixture: string;
}

const AGENTS: Agent[] = [
  {
    name: "pi",
    command: "handoff",
    extension: (h) => join(h, ".pi", "agent", "extensions", "agent-handoff.ts"),
    sessions: (h) => join(h, ".pi", "agent", "sessions", `--${work.slice(1).replaceAll("/", "-")}--`),
    fixture: MARKERS,
    cwdInFixture: "/home/me/parser",
  },
  {
    name: "omp",
    command: "agent-handoff",
    extension: (h) => join(h, ".omp", "agent", "extensions", "agent-handoff.ts"),
    // The test's folder is under the temporary folder: omp names it -tmp-….
    sessions: (h) => join(h, ".omp", "agent", "sessions", `-tmp-${work.slice(tmpdir().length + 1).replaceAll("/", "-")}`),
    fixture: OMP_SOURCE,
    cwdInFixture: "/home/dev/uploader",
  },
];

/** The source session the agent has open, in its sessions folder for the test's cwd. */
function placeSource(agent: Agent): string {
  const folder = agent.sessions(home);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, "2026-11-29T09-00-00-000Z_source.jsonl");
  writeFileSync(path, readFileSync(agent.fixture, "utf8").replaceAll(`"cwd":"${agent.cwdInFixture}"`, `"cwd":${JSON.stringify(work)}`));
  return path;
}

type Notice = [string, string | undefined];

interface Story {
  notices: Notice[];
  switchedTo: string[];
  exec: string[][];
}

let loaded = 0;

type Exec = (program: string, argv: string[]) => Promise<{ stdout: string; stderr: string; code: number; killed: boolean }>;

/** pi's own `exec` (pi 0.73's execCommand): a real process, no shell; it throws at a NUL or an argument too long. */
function spawnedExec(environment: Record<string, string>): Exec {
  return (program, argv) =>
    new Promise((resolve, reject) => {
      const child = spawn(program, argv, { cwd: work, shell: false, env: environment, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (data) => (stdout += data));
      child.stderr.on("data", (data) => (stderr += data));
      child.on("error", reject);
      child.on("close", (code) => resolve({ stdout, stderr, code: code ?? 0, killed: false }));
    });
}

/** Imports the installed extension and runs its command with `args`; `exec` runs our CLI in this process (or as `run` does). */
async function typeCommand(agent: Agent, sessionFile: string | undefined, args: string, environment = env(), run?: Exec): Promise<Story> {
  const story: Story = { notices: [], switchedTo: [], exec: [] };
  const installed = agent.extension(home);
  // A module is imported once per path: each run gets a copy of its own.
  const copy = join(root, `loaded-${++loaded}.ts`);
  copyFileSync(installed, copy);
  const module: { default: (pi: unknown) => void } = await import(copy);
  let handler: ((args: string, ctx: unknown) => Promise<void>) | undefined;
  const ui = { notify: (message: string, type?: string) => story.notices.push([message, type]) };
  module.default({
    registerCommand(name: string, options: { handler: (args: string, ctx: unknown) => Promise<void> }) {
      if (name === agent.command) handler = options.handler;
    },
    async exec(program: string, argv: string[]) {
      story.exec.push([program, ...argv]);
      if (run) return run(program, argv);
      if (program !== PROGRAM.executable) throw new Error(`ran ${program}, not the recorded Bun`);
      // A script that is gone: Bun says so and ends with 1.
      if (!existsSync(argv[0] ?? "")) return { stdout: "", stderr: `error: Module not found "${argv[0]}"\n`, code: 1, killed: false };
      // The recorded program is Bun running our script: run what follows it here.
      const result = await cli(argv.slice(1), environment);
      return { ...result, killed: false };
    },
  });
  if (handler === undefined) throw new Error(`the extension registered no /${agent.command}`);
  await handler(args, {
    cwd: work,
    ui,
    sessionManager: { getSessionFile: () => sessionFile },
    waitForIdle: async () => {},
    switchSession: async (path: string, options?: { withSession?: (next: unknown) => Promise<void> }) => {
      story.switchedTo.push(path);
      if (agent.name === "pi") await options?.withSession?.({ ui });
      return { cancelled: false };
    },
  });
  return story;
}

const START: Notice = ["Handing off: writing the handoff document…", "info"];

describe.each(AGENTS)("/handoff inside $name", (agent) => {
  test("integrate installs the extension, which hands off the open session and switches to the new one", async () => {
    const installed = await cli(["integrate", agent.name]);
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain(`wrote ${agent.extension(home)}`);
    const source = placeSource(agent);
    const before = readFileSync(source);

    const story = await typeCommand(agent, source, "finish $(touch pwned) the `parser`\nand 'quote'");

    const made = readdirSync(agent.sessions(home)).filter((name) => !name.includes("_source"));
    expect(made).toHaveLength(1);
    const newFile = join(agent.sessions(home), made[0] ?? "");
    expect(story.switchedTo).toEqual([newFile]);
    expect(story.notices).toEqual([START, [`Handed off: this is the new session, opened with the handoff document (${newFile})`, "info"]]);
    // The source the agent has open is left alone; the new session names it as its parent.
    expect(readFileSync(source)).toEqual(before);
    const text = readFileSync(newFile, "utf8");
    expect(text).toContain(`"parentSession":${JSON.stringify(source)}`);
    // The focus arrived as data, quotes, backticks and $(…) included (the offline engine writes it on one line).
    expect(text).toContain("Focus for this handoff: \\\"finish $(touch pwned) the `parser` and 'quote'\\\"");
    expect(existsSync(join(work, "pwned"))).toBe(false);
    expect(story.exec).toEqual([
      [
        PROGRAM.executable,
        PROGRAM.script,
        "hook",
        agent.name,
        "--session",
        source,
        "--cwd",
        work,
        "--",
        "finish $(touch pwned) the `parser`\nand 'quote'",
      ],
    ]);
  });

  test("--to another agent: no switch, one line with that agent's continue command", async () => {
    await cli(["integrate", agent.name]);
    const source = placeSource(agent);
    const story = await typeCommand(agent, source, "--to claude-code carry on");
    expect(story.switchedTo).toEqual([]);
    expect(story.notices).toHaveLength(2);
    const [, [message, level] = ["", ""]] = story.notices;
    expect(level).toBe("info");
    expect(message).toMatch(/^New session [0-9a-f-]{36}: .*\.jsonl\nContinue in claude-code with: cd .* && claude --resume [0-9a-f-]{36}$/);
  });

  // Each a failure the user sees as one error line, with nothing written.
  const FAILURES: [string, string, (source: string) => string | undefined, RegExp][] = [
    [
      "an option the command does not take",
      "--engine llm fix it",
      (s) => s,
      /^agent handoff: --engine is not an option here: only --to <agent>, then the focus \(put -- before a focus that starts with -\)$/,
    ],
    ["--help typed as the focus", "--help", (s) => s, /^agent handoff: --help is not an option here/],
    ["--to an agent we do not know", "--to vim x", (s) => s, /^agent handoff: --to takes .*, not "vim"$/],
    ["a session file that is gone", "x", (s) => `${s}.gone`, /^agent handoff: the session file .*\.gone does not exist \(yet\)/],
    ["a session that is not saved to a file", "x", () => undefined, /^Handoff failed: this session is not saved to a file/],
  ];
  for (const [name, args, file, shown] of FAILURES) {
    test(`${name}: one error line, nothing written, no switch`, async () => {
      await cli(["integrate", agent.name]);
      const source = placeSource(agent);
      const before = readFileSync(source);
      const story = await typeCommand(agent, file(source), args);
      expect(story.switchedTo).toEqual([]);
      const errors = story.notices.filter(([, level]) => level !== "info");
      expect(errors).toHaveLength(1);
      expect(errors[0]?.[0]).toMatch(shown);
      expect(errors[0]?.[1]).toBe("error");
      expect(readdirSync(agent.sessions(home))).toEqual(["2026-11-29T09-00-00-000Z_source.jsonl"]);
      expect(readFileSync(source)).toEqual(before);
    });
  }

  test("a session too short to hand off: one error line", async () => {
    await cli(["integrate", agent.name]);
    const source = join(agent.sessions(home), "short.jsonl");
    mkdirSync(agent.sessions(home), { recursive: true });
    writeFileSync(source, `${readFileSync(placeSource(agent), "utf8").split("\n").slice(0, 2).join("\n")}\n`);
    const story = await typeCommand(agent, source, "");
    expect(story.notices.at(-1)).toEqual(["agent handoff: Nothing to hand off (no messages yet)", "error"]);
  });

  test("agent moved since integrate: one error line naming what is missing, and the agent keeps working", async () => {
    await cli(["integrate", agent.name]);
    const source = placeSource(agent);
    const installed = agent.extension(home);
    writeFileSync(
      installed,
      readFileSync(installed, "utf8").replace(JSON.stringify(PROGRAM.script), JSON.stringify(join(root, "moved.ts"))),
    );
    const story = await typeCommand(agent, source, "x");
    expect(story.notices.at(-1)).toEqual([`Handoff failed: error: Module not found "${join(root, "moved.ts")}"`, "error"]);
  });
});

describe.each(AGENTS)("hostile text after /handoff inside $name, through a real exec (no shell)", (agent) => {
  const PWNED = () => join(work, "pwned");
  // [typed, the focus the new session holds]: every one is data, passed on as typed, and nothing else runs.
  const DATA: [string, string][] = [
    ["$(touch pwned) `touch pwned`; touch pwned", "$(touch pwned) `touch pwned`; touch pwned"],
    [`"double" 'single' \\ $HOME`, `"double" 'single' \\ $HOME`],
    ["line one\nline two", "line one line two"],
    ["-- --to codex is the focus", "--to codex is the focus"],
  ];
  test.each(DATA)(
    "%p: handed off, the focus as typed, nothing run",
    async (typed, focus) => {
      await cli(["integrate", agent.name]);
      const source = placeSource(agent);
      const story = await typeCommand(agent, source, typed, env(), spawnedExec(env()));
      expect(story.switchedTo).toHaveLength(1);
      expect(story.exec.map((argv) => argv.at(-1))).toEqual([typed]);
      const document = readFileSync(story.switchedTo[0] ?? "", "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; content?: string })
        .find((entry) => entry.type === "custom_message")?.content;
      expect(document).toContain(`Focus for this handoff: "${focus}"`);
      expect(existsSync(PWNED())).toBe(false);
    },
    20_000,
  );

  // [typed, the one error line]: refused before anything runs (the exec itself would throw at these), or by the hook.
  const REFUSED: [string, string, boolean][] = [
    ["a\0b", `Handoff failed: the text after /${agent.command} holds a NUL character; type it without one; nothing was run`, false],
    [
      "z".repeat(1024 * 1024),
      `Handoff failed: the text after /${agent.command} is 1024 KB, more than the 100 KB a handoff takes; nothing was run`,
      false,
    ],
    ["--to /tmp/codex", "agent handoff: --to takes", true],
    ["--to ../../bin/sh", "agent handoff: --to takes", true],
    ["--exec sh", "agent handoff: --exec is not an option here", true],
  ];
  test.each(REFUSED)(
    "%#: one error line, nothing written, no switch",
    async (typed, line, ran) => {
      await cli(["integrate", agent.name]);
      const source = placeSource(agent);
      const story = await typeCommand(agent, source, typed, env(), spawnedExec(env()));
      expect(story.switchedTo).toEqual([]);
      expect(story.exec).toHaveLength(ran ? 1 : 0);
      const errors = story.notices.filter(([, level]) => level === "error");
      expect(errors).toHaveLength(1);
      expect(errors[0]?.[0]).toStartWith(line);
      expect(errors[0]?.[0]).not.toContain("\n");
      expect(readdirSync(agent.sessions(home))).toEqual(["2026-11-29T09-00-00-000Z_source.jsonl"]);
    },
    20_000,
  );
});

describe("the agent itself as the engine", () => {
  // A hook runs with the agent's environment, whose PATH may lack the agent (started by its path):
  // integrate records where it found it, and the hook's engine runs that one.
  test.each(AGENTS)(
    "$name: the executable integrate found is the one the hook's engine runs, unless the environment names another",
    async (agent) => {
      const binFolder = installFakeAgents(join(root, "bin"), [agent.name]);
      const log = join(root, "log");
      mkdirSync(log);
      const fake = { FAKE_AGENT_LOG: log };
      const integrated = await cli(["integrate", agent.name], cleanEnv(home, { PATH: `${binFolder}:${process.env.PATH ?? ""}` }));
      expect(integrated.code).toBe(0);
      expect(readFileSync(agent.extension(home), "utf8")).toContain(`"agentBin":${JSON.stringify(join(binFolder, agent.name))}`);
      const source = placeSource(agent);
      // The agent's PATH at hook time has no such command; no hook engine is set, so the agent itself writes.
      const story = await typeCommand(agent, source, "with the agent", cleanEnv(home, fake));
      expect(story.notices.at(-1)?.[1]).toBe("info");
      expect(story.switchedTo).toHaveLength(1);
      expect(readdirSync(log)).toHaveLength(1);
      // The user's own setting in the agent's environment wins over what integrate found.
      const theirs = join(root, `their-${agent.name}`);
      writeFileSync(theirs, `#!/bin/sh\necho "their ${agent.name} ran" >&2\nexit 3\n`);
      chmodSync(theirs, 0o755);
      const refused = await typeCommand(
        agent,
        source,
        "again",
        cleanEnv(home, { ...fake, [`AGENT_${agent.name.toUpperCase()}_BIN`]: theirs }),
      );
      expect(refused.notices.at(-1)).toEqual([expect.stringContaining(`their ${agent.name} ran`), "error"]);
      expect(readdirSync(log)).toHaveLength(1);
    },
  );
});

describe("agent hook pi|omp read strictly", () => {
  // The argv after `agent hook pi`, each wrong the way a hand-typed or stale call would be: one {"error"} line, exit 0.
  const CALLS: [string[], string][] = [
    [
      [],
      "agent handoff: no -- before the command's arguments (expected --session <file> --cwd <folder> [--agent-bin <path>] -- <arguments>); run agent integrate pi again",
    ],
    [
      ["--session", "/x.jsonl", "--cwd", "/", "--"],
      "agent handoff: 0 items after --, not one (expected --session <file> --cwd <folder> [--agent-bin <path>] -- <arguments>); run agent integrate pi again",
    ],
    [
      ["--session", "rel.jsonl", "--cwd", "/", "--", ""],
      'agent handoff: --session "rel.jsonl" is not an absolute path; run agent integrate pi again',
    ],
    [["--cwd", "/", "--session", "/etc", "--", ""], "agent handoff: /etc is not a file"],
  ];
  for (const [argv, error] of CALLS) {
    test(`${JSON.stringify(argv)}`, async () => {
      const run = await cli(["hook", "pi", ...argv]);
      expect(run).toEqual({ code: 0, stdout: `${JSON.stringify({ error })}\n`, stderr: "" });
    });
  }

  test("a focus of -h or --help is data, not a request for help", async () => {
    const run = await cli(["hook", "omp", "--session", "/nope.jsonl", "--cwd", "/", "--", "-h"]);
    expect(JSON.parse(run.stdout)).toEqual({
      error: expect.stringMatching(/^agent handoff: the session file \/nope\.jsonl does not exist/),
    });
  });
});

describe("agent integrate pi|omp", () => {
  test("twice is once; --status says current; --uninstall leaves the home as it was", async () => {
    for (const agent of AGENTS) {
      const first = await cli(["integrate", agent.name]);
      expect(first.code).toBe(0);
      const text = readFileSync(agent.extension(home), "utf8");
      expect(text.split("\n")[0]).toBe(
        `// Written by \`agent integrate ${agent.name}\`; \`agent integrate ${agent.name} --uninstall\` removes it.`,
      );
      expect(await cli(["integrate", agent.name])).toMatchObject({ code: 0, stdout: expect.stringContaining("nothing to change") });
      expect(readFileSync(agent.extension(home), "utf8")).toBe(text);
      expect((await cli(["integrate", "--status"])).stdout).toContain(
        `${agent.name}: installed, current\n  current: ${agent.extension(home)}`,
      );
    }
    for (const agent of AGENTS) expect((await cli(["integrate", agent.name, "--uninstall"])).code).toBe(0);
    // Only what integrate made goes: the folders it made too, and its own state folder.
    expect(readdirSync(home)).toEqual([]);
  });

  test("PI_CODING_AGENT_DIR moves pi's folder (and omp's default profile's)", async () => {
    const moved = join(root, "pi-dir");
    const run = await cli(["integrate", "pi"], env({ PI_CODING_AGENT_DIR: moved }));
    expect(run.stdout).toContain(`wrote ${join(moved, "extensions", "agent-handoff.ts")}`);
  });

  test("an extension of the user's own at that path is refused, with nothing changed", async () => {
    const path = AGENTS[0]?.extension(home) ?? "";
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "export default function (pi) {}\n");
    const run = await cli(["integrate", "pi"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${path}: is not ours (not written by agent integrate); move it away first; nothing was changed`);
    expect(readFileSync(path, "utf8")).toBe("export default function (pi) {}\n");
  });

  test("a copy from an older agent reads as outdated, and integrate brings it up to date", async () => {
    await cli(["integrate", "omp"]);
    const path = AGENTS[1]?.extension(home) ?? "";
    const current = readFileSync(path, "utf8");
    writeFileSync(path, current.replace('"timeoutMs":600000', '"timeoutMs":1'));
    expect((await cli(["integrate", "--status"])).stdout).toContain(
      `omp: installed, outdated: run agent integrate again\n  outdated: ${path}`,
    );
    await cli(["integrate", "omp"]);
    expect(readFileSync(path, "utf8")).toBe(current);
  });
});
