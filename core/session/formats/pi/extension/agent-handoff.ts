/**
 * `/handoff` inside pi, `/agent-handoff` inside omp (omp's own `/handoff` compacts in place and
 * keeps its name): hands the session the agent has open off to a fresh one through `agent hook`,
 * then switches the running agent to the new file.
 *
 * `agent integrate pi|omp` copies this file into the agent's extensions folder with the SETUP
 * line below filled in. It imports nothing: it runs inside the agent, far from our code, and
 * the agent's API is described here by the little of it this file uses. The focus is data: the
 * text after the command goes to `agent hook` as one argument, never through a shell.
 */

/** What `agent integrate` writes into the SETUP line. */
interface Setup {
  /** The command's name in the agent (`handoff`, omp: `agent-handoff`). */
  command: string;
  /** The agent this copy is installed in, as `agent hook <agent>` names it. */
  agent: string;
  /** The program and first arguments that run `agent`, absolute (the agent's PATH may not have it). */
  run: string[];
  /** The longest the hook may take before it is stopped, in milliseconds. */
  timeoutMs: number;
  /** This agent's own executable as integrate found it (the hook's engine runs it; the agent's PATH may lack it). */
  agentBin?: string;
  /** The agents `--to` takes, offered as the user types. */
  targets?: string[];
  /** The share of the model's window (percent) past which a notice after a turn offers the command; absent: none. */
  offer?: number;
}

// `agent integrate` rewrites this one line; `agent integrate --status` compares it.
const SETUP: Setup = { command: "handoff", agent: "pi", run: ["agent"], timeoutMs: 600_000 };

type Level = "info" | "warning" | "error";

interface Ui {
  notify(message: string, type?: Level): void;
}

/** The command context of pi 0.73 and omp 18 (omp's switchSession takes no options). */
interface CommandContext {
  cwd: string;
  ui: Ui;
  /** False in print mode (`pi -p`, `--mode json`), where `ui.notify` shows nothing. */
  hasUI?: boolean;
  sessionManager: { getSessionFile(): string | undefined };
  waitForIdle(): Promise<void>;
  switchSession(path: string, options?: { withSession?: (next: { ui: Ui }) => Promise<void> }): Promise<{ cancelled: boolean }>;
}

/** An event handler's context in pi 0.73 and omp 18: the open session, and the model with its window. */
interface EventContext {
  cwd: string;
  ui: Ui;
  sessionManager: { getSessionFile(): string | undefined };
  model?: { contextWindow?: number } | undefined;
}

interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed?: boolean;
}

interface Completion {
  value: string;
  label: string;
  description?: string;
}

/** The part of pi's and omp's extension API used here. */
export interface AgentApi {
  registerCommand(
    name: string,
    options: {
      description?: string;
      getArgumentCompletions?: (prefix: string) => Completion[] | null;
      handler: (args: string, ctx: CommandContext) => Promise<void>;
    },
  ): void;
  exec(command: string, args: string[], options?: { timeout?: number }): Promise<ExecResult>;
  on(event: "agent_end", handler: (event: unknown, ctx: EventContext) => void): void;
}

/** What `agent hook pi|omp` answers on stdout, as one JSON line. */
type HookAnswer = { switchTo?: string; message: string } | { error: string };

const FAILED = "Handoff failed:";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The hook's answer: its last line of JSON, else one line saying why there is none. */
function readAnswer(result: ExecResult): HookAnswer {
  const last = result.stdout.trimEnd().split("\n").at(-1) ?? "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) {
    const { switchTo, message, error } = parsed;
    if (typeof error === "string") return { error };
    if (typeof message === "string" && (switchTo === undefined || typeof switchTo === "string")) return { switchTo, message };
  }
  const seconds = Math.round(SETUP.timeoutMs / 1000);
  if (result.killed) return { error: `${FAILED} agent took longer than ${seconds} s and was stopped; nothing was switched` };
  const said = result.stderr.trim().split("\n").at(-1)?.trim();
  if (said) return { error: said.startsWith(FAILED) ? said : `${FAILED} ${said}` };
  return {
    error: `${FAILED} ${SETUP.run.join(" ")} ended with code ${result.code} and no answer; run \`agent integrate ${SETUP.agent}\` again`,
  };
}

/**
 * The most bytes of typed text passed on: Linux takes at most 128 KiB in one argument of a
 * program, and the agent's exec throws past it (or at a NUL) with words that name neither.
 */
const MAX_ARGS_BYTES = 100_000;

/** Why the typed text cannot be passed on as one argument, or undefined when it can. */
function unpassable(args: string): string | undefined {
  const command = `/${SETUP.command}`;
  if (args.includes("\0")) return `${FAILED} the text after ${command} holds a NUL character; type it without one; nothing was run`;
  const bytes = new TextEncoder().encode(args).length;
  if (bytes > MAX_ARGS_BYTES)
    return `${FAILED} the text after ${command} is ${Math.ceil(bytes / 1024)} KB, more than the ${MAX_ARGS_BYTES / 1000} KB a handoff takes; nothing was run`;
  return undefined;
}

/**
 * A failure, where the user sees it: on the screen; in print mode, where nothing is shown, as the
 * command's error, which pi and omp print on stderr (`Extension error (command:handoff): …`).
 * Neither lets a command set the exit status: print mode takes it from the last answer only.
 */
function failed(ctx: CommandContext, message: string): void {
  if (ctx.hasUI === false) throw new Error(message);
  ctx.ui.notify(message, "error");
}

async function handOff(pi: AgentApi, args: string, ctx: CommandContext): Promise<void> {
  const refused = unpassable(args);
  if (refused) return failed(ctx, refused);
  await ctx.waitForIdle();
  const file = ctx.sessionManager.getSessionFile();
  if (!file) return failed(ctx, `${FAILED} this session is not saved to a file, so there is nothing to hand off`);
  const [program = "agent", ...first] = SETUP.run;
  ctx.ui.notify("Handing off: writing the handoff document…", "info");
  let result: ExecResult;
  try {
    const bin = SETUP.agentBin === undefined ? [] : ["--agent-bin", SETUP.agentBin];
    result = await pi.exec(program, [...first, "hook", SETUP.agent, "--session", file, "--cwd", ctx.cwd, ...bin, "--", args], {
      timeout: SETUP.timeoutMs,
    });
  } catch (error) {
    // omp throws where pi answers code 1 (a program that is gone); String() as this file imports nothing.
    return failed(ctx, `${FAILED} could not run ${program} (${String(error)}); run \`agent integrate ${SETUP.agent}\` again`);
  }
  const answer = readAnswer(result);
  if ("error" in answer) return failed(ctx, answer.error);
  if (answer.switchTo === undefined) return ctx.ui.notify(answer.message, "info");
  // pi hands the new session's context to withSession (the old one is stale after the switch) and
  // then redraws its screen, which would wipe a line shown from there: the line is shown after.
  let replaced: { ui: Ui } | undefined;
  const { cancelled } = await ctx.switchSession(answer.switchTo, {
    withSession: async (next) => {
      replaced = next;
    },
  });
  if (cancelled)
    return ctx.ui.notify(`The new session is written but the switch was cancelled; open it with: ${answer.switchTo}`, "warning");
  // omp switches without a callback, and its context stays usable.
  (replaced ?? ctx).ui.notify(answer.message, "info");
}

/** How long the check after a turn may take: it reads the session's tail and answers at once. */
const OFFER_TIMEOUT_MS = 30_000;

/** Whether the check after a turn has failed once already in this run: said once, not after every turn. */
let offerFailed = false;

/**
 * After a turn: has `agent hook` compare the context with the model's window (it keeps what it
 * offered, so the line comes once per crossing) and shows the line it answers, if any.
 */
async function offerAfterTurn(pi: AgentApi, ctx: EventContext, percent: number): Promise<void> {
  const file = ctx.sessionManager.getSessionFile();
  if (!file) return;
  const [program = "agent", ...first] = SETUP.run;
  const window = ctx.model?.contextWindow;
  const known = typeof window === "number" && Number.isInteger(window) && window > 0 ? ["--window", String(window)] : [];
  const argv = [...first, "hook", SETUP.agent, "--stop", "--offer", String(percent), "--session", file, "--cwd", ctx.cwd, ...known];
  let result: ExecResult;
  try {
    result = await pi.exec(program, argv, { timeout: OFFER_TIMEOUT_MS });
  } catch (error) {
    result = { stdout: "", stderr: String(error), code: 1 };
  }
  const last = result.stdout.trimEnd().split("\n").at(-1) ?? "";
  let parsed: unknown;
  try {
    parsed = last === "" ? {} : JSON.parse(last);
  } catch {
    parsed = undefined;
  }
  if (result.code === 0 && isRecord(parsed)) {
    if (typeof parsed.message === "string") ctx.ui.notify(parsed.message, "info");
    return;
  }
  if (offerFailed) return;
  offerFailed = true;
  const said = result.stderr.trim().split("\n").at(-1)?.trim() || `${program} ended with code ${result.code}`;
  ctx.ui.notify(`The handoff offer could not check the context (${said}); run \`agent integrate ${SETUP.agent}\` again`, "warning");
}

/** What to offer while the arguments are typed (the agent replaces them all with the value): `--to`, then the agents. */
export function completeArguments(prefix: string): Completion[] | null {
  const to = /^--to\s+(\S*)$/.exec(prefix);
  if (to) {
    const typed = to[1] ?? "";
    const offered = (SETUP.targets ?? []).filter((name) => name.startsWith(typed)).map((name) => ({ value: `--to ${name} `, label: name }));
    return offered.length > 0 ? offered : null;
  }
  if (prefix.startsWith("-") && "--to".startsWith(prefix))
    return [{ value: "--to ", label: "--to", description: "hand off into another agent" }];
  return null;
}

/** The extension's entry: pi and omp call the default export with their API. */
export default function agentHandoff(pi: AgentApi): void {
  pi.registerCommand(SETUP.command, {
    description: "Hand this session off to a fresh one: [--to <agent>] [focus…]",
    getArgumentCompletions: completeArguments,
    handler: (args, ctx) => handOff(pi, args, ctx),
  });
  const percent = SETUP.offer;
  // Not awaited: the agent goes on at once, and the line comes when the check answers.
  if (percent !== undefined)
    pi.on("agent_end", (_event, ctx) => {
      void offerAfterTurn(pi, ctx, percent);
    });
}
