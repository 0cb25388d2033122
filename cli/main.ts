import { runCommand, type CommandDef } from "citty";
import { describeFormats } from "../core/index.ts";
import { findFlagProblem, suggest } from "./flags/args.ts";
import { CommandLineError, withQuoteHint } from "./flags/usage.ts";
import { CONFIG_HELP, configCommand } from "./commands/config.ts";
import { handoffCommand } from "./commands/handoff/handoff.ts";
import { HANDOFF_HELP } from "./commands/handoff/handoff-args.ts";
import { helpWidth, renderCommandHelp, renderMainHelp, type CommandHelp } from "./commands/help.ts";
import { INSPECT_HELP, inspectCommand } from "./commands/inspect.ts";
import { LS_HELP, lsCommand } from "./commands/ls/ls.ts";
import { COMPLETION_HELP, completionCommand } from "./commands/completion/completion.ts";
import { INTEGRATE_HELP, integrateCommand } from "./commands/integrate.ts";
import { HOOK_HELP, hookCommand } from "./commands/hook.ts";
import { EXIT, reportError } from "./output/stderr.ts";
import { configuredSecrets } from "./model/secrets.ts";
import { Run, type RunIo } from "./run.ts";
import packageJson from "../package.json" with { type: "json" };

interface Command {
  // Loose type here: citty's CommandDef is generic over each command's own args.
  // biome-ignore lint/suspicious/noExplicitAny: one table of heterogeneous commands
  run: CommandDef<any>;
  help: CommandHelp;
  /**
   * The words after the command's first are items handed over whole (`agent hook pi --session
   * <file> -- <what the user typed>`), not flags of ours: neither checked nor read as --help.
   */
  takesItems?: true;
}

/** Every command, in the order `agent --help` lists them. */
const COMMANDS: Record<string, Command> = {
  handoff: { run: handoffCommand, help: HANDOFF_HELP },
  ls: { run: lsCommand, help: LS_HELP },
  inspect: { run: inspectCommand, help: INSPECT_HELP },
  config: { run: configCommand, help: CONFIG_HELP },
  integrate: { run: integrateCommand, help: INTEGRATE_HELP },
  // The hook hands off in this process, as `agent handoff` would run.
  hook: { run: hookCommand((argv, io) => runCli(argv, io)), help: HOOK_HELP, takesItems: true },
  completion: { run: completionCommand(() => Object.values(COMMANDS).map((command) => command.help)), help: COMPLETION_HELP },
};

const SUMMARY = `agent ${packageJson.version}: hand a coding-agent session (${describeFormats()}) off to a fresh one, in the same agent or another.`;

function mainHelp(run: Run): string {
  return renderMainHelp(
    SUMMARY,
    Object.values(COMMANDS).map((command) => command.help),
    helpWidth(run.stdout.columns, run.env),
  );
}

function unknownCommand(name: string): CommandLineError {
  const hint = suggest(name, Object.keys(COMMANDS));
  return new CommandLineError(`unknown command "${name}"${hint ? `; did you mean "${hint}"?` : ""}`);
}

/** The commands, in words: `handoff, ls, inspect, config or completion`. */
function commandNames(): string {
  const names = Object.keys(COMMANDS);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/**
 * Runs the CLI for `argv` (without the `bun script` prefix) on `io` and returns the exit status.
 * Help goes to stdout; every problem goes to stderr as one line. `onRun` is given the run as soon
 * as it exists (the host sends it the signals).
 */
export async function runCli(argv: readonly string[], io: RunIo, onRun?: (run: Run) => void): Promise<number> {
  const run = new Run(argv, io);
  // Ending at once (a second Ctrl-C) leaves nothing behind either.
  const removeExitHook = io.host.onExit(() => run.end());
  onRun?.(run);
  const quiet = argv.includes("-q") || argv.includes("--quiet");
  const verbose = argv.includes("-v") || argv.includes("--verbose");
  // Before anything can print: the key and OPENAI_BASE_URL's credentials are never printed.
  run.printed.withholdFromOutput(configuredSecrets(run.env));
  const logger = run.logger({ quiet, verbose });
  const [name, ...rest] = argv;

  try {
    // No command is a usage error, in the one style: stdout stays empty.
    if (name === undefined) throw new CommandLineError(`a command is needed: ${commandNames()}`);
    return await runCommandLine(run, name, rest);
  } catch (error) {
    return reportError(error, logger, run.cancel.message);
  } finally {
    run.end();
    removeExitHook();
  }
}

/** `agent help`, `agent --help`, `agent help <command>`, `agent --help <command>`; a word after that is a usage error. */
async function printHelp(run: Run, words: readonly string[]): Promise<number> {
  const [first, ...rest] = words;
  // `agent help --help` is the same request as `agent help`.
  const [topic, extra] = first === "--help" || first === "-h" ? rest : words;
  if (extra !== undefined) throw new CommandLineError(`unexpected argument "${extra}": agent help takes one command`);
  if (topic === undefined) {
    await run.stdout.printOwnText(mainHelp(run));
    return EXIT.ok;
  }
  const command = COMMANDS[topic];
  if (!command) throw unknownCommand(topic);
  await run.stdout.printOwnText(renderCommandHelp(command.help, helpWidth(run.stdout.columns, run.env)));
  return EXIT.ok;
}

async function runCommandLine(run: Run, name: string, rest: string[]): Promise<number> {
  if (name === "help" || name === "--help" || name === "-h") return printHelp(run, rest);
  if (name === "--version" || name === "-V") {
    if (rest[0] !== undefined) throw new CommandLineError(`unexpected argument "${rest[0]}" after ${name}`);
    await run.stdout.printOwnText(`${packageJson.version}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) throw unknownCommand(name);
  const own = command.takesItems ? rest.slice(0, 1) : rest;
  if (own.includes("--help") || own.includes("-h")) return printHelp(run, [name]);
  const args = (typeof command.run.args === "function" ? await command.run.args() : await command.run.args) ?? {};
  try {
    const problem = findFlagProblem(own, args);
    if (problem) throw new CommandLineError(problem);
    const { result } = await runCommand(command.run, { rawArgs: rest, data: run });
    return typeof result === "number" ? result : EXIT.ok;
  } catch (error) {
    throw withQuoteHint(inWordsOf(name, error), rest, args);
  }
}

/** `error` as a problem with the words given to `name` when it is one; citty's own (none expected: findFlagProblem comes first) in our words. */
function inWordsOf(name: string, error: unknown): unknown {
  if (error instanceof CommandLineError)
    return error.command === undefined ? new CommandLineError(error.problem, name, error.example) : error;
  if (!(error instanceof Error) || error.name !== "CLIError") return error;
  const message = error.message.replace(/\x1b\[[0-9;]*m/g, "");
  return new CommandLineError(message.charAt(0).toLowerCase() + message.slice(1), name);
}
