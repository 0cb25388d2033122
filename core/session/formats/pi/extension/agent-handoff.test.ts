/**
 * The extension as pi and omp load it: the installed text (the template with its SETUP line
 * filled in) written to a file and imported, its command driven with a fake agent API that
 * records what it is asked to run, show and switch to. The real agents run it in compat.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ExtensionSetup, renderExtension } from "./setup.ts";

const TEMPLATE = readFileSync(join(import.meta.dir, "agent-handoff.ts"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "ext25-extension-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PI_SETUP: ExtensionSetup = { command: "handoff", agent: "pi", run: ["/opt/bun", "/opt/agent/cli/index.ts"], timeoutMs: 90_000 };
const OMP_SETUP: ExtensionSetup = { command: "agent-handoff", agent: "omp", run: ["/usr/local/bin/agent"], timeoutMs: 600_000 };

interface ExecCall {
  program: string;
  args: string[];
  timeout: number | undefined;
}

type Notice = [string, string | undefined];

/** What the fake agent saw, in order: each step one string, so a test states the whole story. */
interface Story {
  commands: string[];
  exec: ExecCall[];
  steps: string[];
  notices: Notice[];
  /** What the command threw: pi and omp print it on stderr as the command's error. */
  thrown?: string;
}

type ExecReply = { stdout?: string; stderr?: string; code?: number; killed?: boolean } | Error;

interface Fake {
  sessionFile?: string | undefined;
  reply?: ExecReply;
  /** pi calls withSession with the new session's context; omp's switchSession takes no options. */
  switchStyle?: "pi" | "omp" | "cancelled";
  /** False: print mode (`pi -p`), where notify shows nothing. */
  hasUI?: boolean;
}

let loaded = 0;

/** Installs `setup` into a file of its own (a module is imported once per path) and loads it. */
async function loadModule(
  setup: ExtensionSetup,
): Promise<{ default: (pi: unknown) => void; completeArguments: (prefix: string) => unknown }> {
  const file = join(scratch, `agent-handoff-${++loaded}.ts`);
  writeFileSync(file, renderExtension(TEMPLATE, setup));
  return await import(file);
}

async function load(setup: ExtensionSetup): Promise<(pi: unknown) => void> {
  return (await loadModule(setup)).default;
}

/** Loads the extension, runs its one command with `args` against a fake agent, returns what happened. */
async function runCommand(setup: ExtensionSetup, args: string, fake: Fake = {}): Promise<Story> {
  const story: Story = { commands: [], exec: [], steps: [], notices: [] };
  const handlers = new Map<string, (args: string, ctx: unknown) => Promise<void>>();
  const ui = (who: string) => ({
    notify: (message: string, type?: string) => {
      story.notices.push([message, type]);
      story.steps.push(`${who} notify`);
    },
  });
  const pi = {
    registerCommand(name: string, options: { handler: (args: string, ctx: unknown) => Promise<void> }) {
      story.commands.push(name);
      handlers.set(name, options.handler);
    },
    async exec(program: string, argv: string[], options?: { timeout?: number }) {
      story.exec.push({ program, args: argv, timeout: options?.timeout });
      story.steps.push("exec");
      const reply = fake.reply ?? { stdout: '{"message":"done"}\n' };
      if (reply instanceof Error) throw reply;
      return { stdout: reply.stdout ?? "", stderr: reply.stderr ?? "", code: reply.code ?? 0, killed: reply.killed ?? false };
    },
  };
  const ctx = {
    cwd: "/home/me/app",
    ui: ui("old"),
    ...("hasUI" in fake ? { hasUI: fake.hasUI } : {}),
    sessionManager: {
      getSessionFile: () => ("sessionFile" in fake ? fake.sessionFile : "/home/me/.pi/agent/sessions/--home-me-app--/s.jsonl"),
    },
    async waitForIdle() {
      await Bun.sleep(1);
      story.steps.push("idle");
    },
    async switchSession(path: string, options?: { withSession?: (next: unknown) => Promise<void> }) {
      story.steps.push(`switch ${path}`);
      if (fake.switchStyle === "cancelled") return { cancelled: true };
      if (fake.switchStyle !== "omp") await options?.withSession?.({ ui: ui("new") });
      // pi's screen draws the new session after withSession: a line shown before is wiped.
      story.steps.push("redraw");
      return { cancelled: false };
    },
  };
  (await load(setup))(pi);
  const handler = handlers.get(setup.command);
  if (handler === undefined) throw new Error(`no command ${setup.command} registered`);
  try {
    await handler(args, ctx);
  } catch (error) {
    story.thrown = error instanceof Error ? error.message : String(error);
  }
  return story;
}

const START: Notice = ["Handing off: writing the handoff document…", "info"];
const SESSION = "/home/me/.pi/agent/sessions/--home-me-app--/s.jsonl";

describe("the installed extension", () => {
  test("registers the setup's command, once, under its name in each agent", async () => {
    expect((await runCommand(PI_SETUP, "")).commands).toEqual(["handoff"]);
    expect((await runCommand(OMP_SETUP, "")).commands).toEqual(["agent-handoff"]);
  });

  test("waits for idle, runs the recorded agent with the session, cwd and arguments as argv, switches, then tells the new session", async () => {
    const reply = { stdout: `${JSON.stringify({ switchTo: "/home/me/new.jsonl", message: "Switched to the new session" })}\n` };
    const story = await runCommand(PI_SETUP, "finish the parser", { reply });
    expect(story.exec).toEqual([
      {
        program: "/opt/bun",
        args: ["/opt/agent/cli/index.ts", "hook", "pi", "--session", SESSION, "--cwd", "/home/me/app", "--", "finish the parser"],
        timeout: 90_000,
      },
    ]);
    expect(story.steps).toEqual(["idle", "old notify", "exec", "switch /home/me/new.jsonl", "redraw", "new notify"]);
    expect(story.notices).toEqual([START, ["Switched to the new session", "info"]]);
  });

  // The focus is data: whatever the user typed reaches the hook as one argv item, byte for byte.
  const HOSTILE = [
    "",
    "$(touch /tmp/pwned)",
    "`id` and 'quotes' and \"double\"",
    "line one\nline two\r\n\ttab",
    "--to codex --session /etc/passwd -- more",
    "-- ",
    "; rm -rf ~ && echo",
    "émoji 🧪 and \\ backslash",
  ];
  for (const args of HOSTILE) {
    test(`passes ${JSON.stringify(args)} as the one last argument`, async () => {
      const story = await runCommand(OMP_SETUP, args);
      expect(story.exec.map((call) => [call.program, ...call.args])).toEqual([
        ["/usr/local/bin/agent", "hook", "omp", "--session", SESSION, "--cwd", "/home/me/app", "--", args],
      ]);
    });
  }

  test("the agent's own executable, when integrate found one, goes to the hook before the arguments", async () => {
    const story = await runCommand({ ...OMP_SETUP, agentBin: "/opt/omp/bin/omp" }, "--to pi x");
    expect(story.exec.map((call) => call.args)).toEqual([
      ["hook", "omp", "--session", SESSION, "--cwd", "/home/me/app", "--agent-bin", "/opt/omp/bin/omp", "--", "--to pi x"],
    ]);
  });

  // [typed so far after the command, what is offered (each value replaces all that was typed)]
  const COMPLETIONS: [string, unknown][] = [
    ["", null],
    ["fix the", null],
    ["-", [{ value: "--to ", label: "--to", description: "hand off into another agent" }]],
    ["--t", [{ value: "--to ", label: "--to", description: "hand off into another agent" }]],
    [
      "--to ",
      [
        { value: "--to claude-code ", label: "claude-code" },
        { value: "--to codex ", label: "codex" },
        { value: "--to pi ", label: "pi" },
      ],
    ],
    [
      "--to c",
      [
        { value: "--to claude-code ", label: "claude-code" },
        { value: "--to codex ", label: "codex" },
      ],
    ],
    ["--to vim", null],
    ["--to codex fix", null],
    ["--focus", null],
  ];
  for (const [prefix, offered] of COMPLETIONS)
    test(`while ${JSON.stringify(prefix)} is typed, offers ${JSON.stringify(offered)}`, async () => {
      const module = await loadModule({ ...PI_SETUP, targets: ["claude-code", "codex", "pi"] });
      expect(module.completeArguments(prefix)).toEqual(offered);
    });

  test("offers --to alone when integrate listed no agents", async () => {
    expect((await loadModule(PI_SETUP)).completeArguments("--to ")).toBeNull();
  });

  test("omp switches without a callback: the message is shown on the command's context after the switch", async () => {
    const reply = { stdout: '{"switchTo":"/x/new.jsonl","message":"Switched"}' };
    const story = await runCommand(OMP_SETUP, "", { reply, switchStyle: "omp" });
    expect(story.steps).toEqual(["idle", "old notify", "exec", "switch /x/new.jsonl", "redraw", "old notify"]);
    expect(story.notices).toEqual([START, ["Switched", "info"]]);
  });

  // [case, what the hook did, the one line shown after the start notice]
  const ANSWERS: [string, ExecReply, Notice][] = [
    [
      "another agent's session: its continue command, no switch",
      { stdout: '{"message":"New Codex session: codex resume 0199"}\n' },
      ["New Codex session: codex resume 0199", "info"],
    ],
    ["a handoff that failed", { stdout: '{"error":"Handoff failed: no model"}\n', code: 1 }, ["Handoff failed: no model", "error"]],
    ["the JSON after other lines", { stdout: 'noise\n{"message":"ok"}\n\n', stderr: "warning" }, ["ok", "info"]],
    ["a crash with a reason on stderr", { stderr: "Error: boom\n  at x\nsegfault\n", code: 139 }, ["Handoff failed: segfault", "error"]],
    [
      "stderr that already says so",
      { stderr: "Handoff failed: the model is down\n", code: 1 },
      ["Handoff failed: the model is down", "error"],
    ],
    [
      "no answer at all (agent gone: pi reports a spawn error as code 1)",
      { code: 1 },
      ["Handoff failed: /opt/bun /opt/agent/cli/index.ts ended with code 1 and no answer; run `agent integrate pi` again", "error"],
    ],
    [
      "a hook stopped at the timeout",
      { stdout: "", killed: true, code: 143 },
      ["Handoff failed: agent took longer than 90 s and was stopped; nothing was switched", "error"],
    ],
    [
      "JSON of the wrong shape",
      { stdout: '{"switchTo":5,"message":"x"}', code: 0 },
      ["Handoff failed: /opt/bun /opt/agent/cli/index.ts ended with code 0 and no answer; run `agent integrate pi` again", "error"],
    ],
    [
      "exec itself throwing (omp on a missing program)",
      new Error("ENOENT: no such file or directory, posix_spawn '/opt/bun'"),
      [
        "Handoff failed: could not run /opt/bun (Error: ENOENT: no such file or directory, posix_spawn '/opt/bun'); run `agent integrate pi` again",
        "error",
      ],
    ],
  ];
  for (const [name, reply, shown] of ANSWERS) {
    test(`${name}: one line, no switch`, async () => {
      const story = await runCommand(PI_SETUP, "x", { reply });
      expect(story.notices).toEqual([START, shown]);
      expect(story.steps.filter((step) => step.startsWith("switch"))).toEqual([]);
    });
  }

  test("a session not saved to a file: one line, and agent is not run", async () => {
    const story = await runCommand(PI_SETUP, "x", { sessionFile: undefined });
    expect(story.exec).toEqual([]);
    expect(story.notices).toEqual([["Handoff failed: this session is not saved to a file, so there is nothing to hand off", "error"]]);
  });

  test("a switch the agent cancelled: the new file is named so the user can open it", async () => {
    const story = await runCommand(PI_SETUP, "", {
      reply: { stdout: '{"switchTo":"/x/n.jsonl","message":"M"}' },
      switchStyle: "cancelled",
    });
    expect(story.notices).toEqual([
      START,
      ["The new session is written but the switch was cancelled; open it with: /x/n.jsonl", "warning"],
    ]);
  });
});

describe("in print mode (pi -p, omp -p), where nothing is shown", () => {
  // [case, what the fake agent does, the line]: the same line the screen shows, as the command's error (stderr).
  const FAILURES: [string, Fake, string, string][] = [
    [
      "a session not saved to a file",
      { sessionFile: undefined },
      "x",
      "Handoff failed: this session is not saved to a file, so there is nothing to hand off",
    ],
    [
      "the hook's error",
      { reply: { stdout: '{"error":"agent handoff: Nothing to hand off"}\n' } },
      "x",
      "agent handoff: Nothing to hand off",
    ],
    ["a NUL typed", {}, "a\0b", "Handoff failed: the text after /handoff holds a NUL character; type it without one; nothing was run"],
    [
      "exec itself throwing",
      { reply: new Error("spawn E2BIG") },
      "x",
      "Handoff failed: could not run /opt/bun (Error: spawn E2BIG); run `agent integrate pi` again",
    ],
  ];
  test.each(FAILURES)("%s: thrown, for pi to print on stderr, and no switch", async (_, fake, args, line) => {
    const story = await runCommand(PI_SETUP, args, { ...fake, hasUI: false });
    expect(story.thrown).toBe(line);
    expect(story.notices.filter(([, level]) => level === "error")).toEqual([]);
    expect(story.steps.filter((step) => step.startsWith("switch"))).toEqual([]);
  });

  test("a handoff that works: switched, nothing thrown", async () => {
    const story = await runCommand(PI_SETUP, "", { reply: { stdout: '{"switchTo":"/x/n.jsonl","message":"M"}' }, hasUI: false });
    expect(story.thrown).toBeUndefined();
    expect(story.steps).toContain("switch /x/n.jsonl");
  });

  test("with a screen (hasUI true, or not said: omp's RPC): the line is shown, nothing thrown", async () => {
    for (const fake of [{ hasUI: true }, {}] satisfies Fake[]) {
      const story = await runCommand(PI_SETUP, "x", { ...fake, sessionFile: undefined });
      expect(story.thrown).toBeUndefined();
      expect(story.notices).toEqual([["Handoff failed: this session is not saved to a file, so there is nothing to hand off", "error"]]);
    }
  });
});
