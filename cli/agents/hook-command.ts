import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { AgentError, agentEngine, type AgentIntegration, type HookCommand } from "../../core/index.ts";
import { readConfigFile } from "../flags/config-file.ts";
import { agentBinSetting, resolveSettings } from "../flags/settings.ts";
import { tmpdirOf } from "../sessions/agent-home.ts";
import type { Run } from "../run.ts";
import { findAgentExecutable } from "./agent-bin.ts";

/** A word for a POSIX shell (`sh -c`, which the agents run hooks with): always single-quoted, nothing expanded. */
export function posixQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A folder up from `path` holding `.git`: `agent` runs from a checkout, which may move or change. */
function checkoutOf(path: string): string | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The `agent` this run is, as a hook calls it, and what the user should know about that path. */
export interface OwnCommand {
  argv: string[];
  /** Said once by `integrate`: the path is a checkout that may move. */
  notice: string | undefined;
}

/** The `agent` this run is, by absolute paths: the binary, or Bun and the script (a hook runs with the agent's own PATH). */
export function ownCommand(run: Run): OwnCommand {
  const program = run.host.program;
  if (program === undefined) throw new AgentError("USAGE", "cannot tell where this agent's executable is, so no hook can call it");
  const argv = program.script === undefined ? [real(program.executable)] : [real(program.executable), real(program.script)];
  for (const word of argv)
    if (/[\n\r\0]/.test(word)) throw new AgentError("USAGE", "the path of agent holds a line break: no hook can call it safely");
  const own = argv.at(-1) ?? "";
  const checkout = program.script === undefined ? undefined : checkoutOf(own);
  // A copy run by bunx or npx lives in a cache or temp folder that is cleaned without a word.
  const temporary = [tmpdirOf(run.env), "/tmp"].some((dir) => own.startsWith(`${dir}/`)) || /\/(?:_npx|\.bunx?|bunx-[^/]*)\//.test(own);
  const notice = temporary
    ? `the hook runs agent from ${own}, a temporary copy: once it is cleaned away the hook says so; install agent and run agent integrate again`
    : checkout === undefined
      ? undefined
      : `the hook runs agent from the checkout ${checkout} (with Bun at ${argv[0]}): if that folder moves, run agent integrate again`;
  return { argv, notice };
}

/**
 * The hook's shell line for `integration`: run `agent hook <name>` when the program is still there,
 * else answer as the agent expects for a failure (one line, the agent keeps working). An agent
 * whose hook sees every prompt (`handoffPrompt`) gets that answer only for a handoff prompt.
 * The words `agent integrate` are in the line: they tell our entry from the user's.
 */
export function hookShellLine(own: OwnCommand, integration: AgentIntegration): HookCommand {
  const [program = "", ...rest] = own.argv;
  const exists = [`[ -x ${posixQuote(program)} ]`, ...rest.map((file) => `[ -f ${posixQuote(file)} ]`)].join(" && ");
  const run = [...own.argv.map(posixQuote), "hook", integration.name].join(" ");
  const goneText = `agent is not at ${own.argv.at(-1)} any more: run agent integrate ${integration.name} again (or remove the hook)`;
  const gone = integration.answer({ kind: "failed", text: goneText });
  const sayer = (text: string) => (text.trim() === "" ? ":" : `printf '%s\\n' ${posixQuote(text.trimEnd())}`);
  const say = sayer(gone.stdout);
  // Another entry of ours (the offer's Stop, the PreCompact): the same check, its own arguments and answer.
  const shellWith = (args: readonly string[], goneAnswer: (text: string) => string) =>
    `if ${exists}; then exec ${[run, ...args.map(posixQuote)].join(" ")}; else ${sayer(goneAnswer(goneText))}; exit 0; fi # agent integrate`;
  const pattern = integration.handoffPromptPattern;
  if (pattern === undefined) {
    return {
      argv: [...own.argv, "hook", integration.name],
      shell: `if ${exists}; then exec ${run}; else ${say}; exit 0; fi # agent integrate`,
      shellWith,
    };
  }
  // An agent that calls the hook for every prompt: the shell passes every other prompt at once
  // (a few milliseconds; starting agent takes half a second), and runs agent for a handoff only.
  const input = `printf '%s' "$input"`;
  return {
    argv: [...own.argv, "hook", integration.name],
    shell: `input=$(cat); ${input} | grep -Eq ${posixQuote(pattern)} || exit 0; if ${exists}; then ${input} | exec ${run}; else ${say}; exit 0; fi # agent integrate`,
    shellWith,
  };
}

/**
 * The hooked agent's own executable as the hook's engine would run it, found now (its
 * `<agent>-bin` setting, else PATH): a hook runs with the agent's environment, whose PATH may not
 * have it (an agent started by its path, or from a launcher). Undefined when there is none.
 */
async function ownAgentBin(run: Run, integration: AgentIntegration): Promise<string | undefined> {
  try {
    const settings = resolveSettings({}, run.env, await readConfigFile(run.env, run.cancel.signal));
    const bin = findAgentExecutable(agentEngine(integration.name), agentBinSetting(settings, integration.name), run.env, run.cwd);
    return /[\n\r\0]/.test(bin) ? undefined : bin;
  } catch {
    // Not installed here, or a setting that names nothing: the hook then looks on the agent's own PATH.
    return undefined;
  }
}

/** What the agent's hook runs for `integration`: our command line, and the agent's own executable for its engine. */
export async function hookCommandFor(run: Run, own: OwnCommand, integration: AgentIntegration): Promise<HookCommand> {
  return { ...hookShellLine(own, integration), agentBin: await ownAgentBin(run, integration) };
}
