/**
 * The offer inside pi and omp, end to end in this process: `agent integrate <agent> --offer 80`
 * installs the extension, the installed file is imported and its `agent_end` handler called as
 * the agent calls it after a turn, its `exec` running the CLI here; what the user sees is the
 * agent's notify lines. The real agents run the same in `bun run compat` (in-agent).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../main.ts";
import { CLI, cleanEnv, memoryIo, REPO } from "../../fixtures/run-agent.ts";

const root = mkdtempSync(join(tmpdir(), "agent-offer-ext-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PROGRAM = { executable: process.execPath, script: CLI };
const MARKERS = join(REPO, "fixtures", "handoff-markers.jsonl");

let homes = 0;
function setUp() {
  const home = join(root, `home-${++homes}`);
  const work = join(home, "work");
  mkdirSync(work, { recursive: true });
  const env = cleanEnv(home, {});
  const cli = async (argv: string[]) => {
    const io = memoryIo(env, work);
    const code = await runCli(argv, { ...io, host: { ...io.host, program: PROGRAM } });
    return { code, stdout: io.stdout.text(), stderr: io.stderr.text() };
  };
  return { home, work, cli };
}

type Notice = [string, string | undefined];
let loaded = 0;

/** Imports the installed extension; `endTurn` calls its `agent_end` handler as the agent would and waits for its line. */
async function loadExtension(file: string, run: (argv: string[]) => Promise<{ code: number; stdout: string; stderr: string }>) {
  const copy = join(root, `loaded-${++loaded}.ts`);
  copyFileSync(file, copy);
  const module: { default: (pi: unknown) => void } = await import(copy);
  const notices: Notice[] = [];
  const execs: string[][] = [];
  let pending: Promise<unknown> = Promise.resolve();
  let handler: ((event: unknown, ctx: unknown) => void) | undefined;
  module.default({
    registerCommand() {},
    on(event: string, on: (event: unknown, ctx: unknown) => void) {
      if (event === "agent_end") handler = on;
    },
    exec(program: string, argv: string[]) {
      execs.push([program, ...argv]);
      const result = run(argv.slice(1)).then((r) => ({ ...r, killed: false }));
      pending = result;
      return result;
    },
  });
  return {
    registered: () => handler !== undefined,
    execs,
    async endTurn(sessionFile: string, cwd: string, contextWindow: number | undefined): Promise<Notice[]> {
      const before = notices.length;
      handler?.(
        { type: "agent_end", messages: [] },
        {
          cwd,
          ui: { notify: (message: string, type?: string) => notices.push([message, type]) },
          sessionManager: { getSessionFile: () => sessionFile },
          model: contextWindow === undefined ? undefined : { contextWindow },
        },
      );
      await pending;
      // The handler shows the line after exec's answer: one turn of the event loop later.
      await new Promise((resolve) => setTimeout(resolve, 0));
      return notices.slice(before);
    },
  };
}

const answer = (tokens: number) =>
  `${JSON.stringify({ type: "message", id: `u${tokens}`, message: { role: "assistant", model: "gpt-5", usage: { totalTokens: tokens } } })}\n`;

describe.each([
  { agent: "pi", folder: ".pi/agent", command: "/handoff" },
  { agent: "omp", folder: ".omp/agent", command: "/agent-handoff" },
])("the offer inside $agent", ({ agent, folder, command }) => {
  test("after a turn past the share: one notice naming the command, once; nothing below it", async () => {
    const { home, work, cli } = setUp();
    expect((await cli(["integrate", agent, "--offer", "80"])).code).toBe(0);
    const source = join(home, folder, "sessions", "s", "2026-11-29T09-00-00-000Z_source.jsonl");
    mkdirSync(join(source, ".."), { recursive: true });
    writeFileSync(source, readFileSync(MARKERS, "utf8"));
    const extension = await loadExtension(join(home, folder, "extensions", "agent-handoff.ts"), cli);
    expect(extension.registered()).toBe(true);

    appendFileSync(source, answer(50_000));
    expect(await extension.endTurn(source, work, 200_000)).toEqual([]);
    appendFileSync(source, answer(170_000));
    const before = readFileSync(source, "utf8");
    expect(await extension.endTurn(source, work, 200_000)).toEqual([
      [`Context 85% full (170,000 of 200,000 tokens): type ${command} to continue in a fresh session with a handoff document.`, "info"],
    ]);
    expect(readFileSync(source, "utf8")).toBe(before);
    expect(await extension.endTurn(source, work, 200_000)).toEqual([]);
    expect(extension.execs.at(-1)).toEqual([
      PROGRAM.executable,
      PROGRAM.script,
      "hook",
      agent,
      "--stop",
      "--offer",
      "80",
      "--session",
      source,
      "--cwd",
      work,
      "--window",
      "200000",
    ]);
    // No model known to the agent: no window passed, and with no setting nothing is said.
    appendFileSync(source, answer(10));
    await extension.endTurn(source, work, 200_000);
    appendFileSync(source, answer(190_000));
    expect(await extension.endTurn(source, work, undefined)).toEqual([]);
    expect(extension.execs.at(-1)).not.toContain("--window");
  });

  test("without --offer the extension listens to no turn", async () => {
    const { home, cli } = setUp();
    await cli(["integrate", agent]);
    const extension = await loadExtension(join(home, folder, "extensions", "agent-handoff.ts"), cli);
    expect(extension.registered()).toBe(false);
  });

  test("agent gone: one warning in the session, not one per turn", async () => {
    const { home, work, cli } = setUp();
    await cli(["integrate", agent, "--offer", "80"]);
    const gone = async () => ({ code: 1, stdout: "", stderr: 'error: Module not found "/gone/cli/index.ts"' });
    const extension = await loadExtension(join(home, folder, "extensions", "agent-handoff.ts"), gone);
    const source = join(work, "s.jsonl");
    writeFileSync(source, answer(190_000));
    expect(await extension.endTurn(source, work, 200_000)).toEqual([
      [
        `The handoff offer could not check the context (error: Module not found "/gone/cli/index.ts"); run \`agent integrate ${agent}\` again`,
        "warning",
      ],
    ]);
    expect(await extension.endTurn(source, work, 200_000)).toEqual([]);
  });
});
