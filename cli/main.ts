import { defineCommand, renderUsage, runCommand, type CommandDef } from "citty";
import { AgentError } from "../core/index.ts";
import { findUnknownFlag, suggest } from "./args.ts";
import { handoffCommand } from "./handoff.ts";
import { HANDOFF_HELP_FOOTER } from "./handoff-args.ts";
import { inspectCommand } from "./inspect.ts";
import { createLogger, EXIT, reportError } from "./report.ts";
import { configuredSecrets, withholdFromLogger } from "./secrets.ts";
import packageJson from "../package.json" with { type: "json" };

// Loose types here: citty's CommandDef is generic over each command's own args.
// biome-ignore lint: one table of heterogeneous commands
const COMMANDS: Record<string, CommandDef<any>> = {
  handoff: handoffCommand,
  inspect: inspectCommand,
};

const HELP_FOOTERS: Record<string, string> = { handoff: HANDOFF_HELP_FOOTER };

export const mainCommand = defineCommand({
  meta: {
    name: "agent",
    version: packageJson.version,
    description: "Hand a pi or oh-my-pi coding-agent session off to a fresh one.",
  },
  subCommands: COMMANDS,
});

function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}

/** citty colours its usage text; keep colour for a terminal only. */
function printUsage(text: string): void {
  const plain = !process.stdout.isTTY || Boolean(process.env.NO_COLOR);
  process.stdout.write(`${plain ? stripAnsi(text) : text}\n`);
}

/**
 * Runs the CLI for `argv` (without the `bun script` prefix) and returns the exit status.
 * Help goes to stdout; every problem goes to stderr as one line.
 */
export async function runCli(argv: string[]): Promise<number> {
  const quiet = argv.includes("-q") || argv.includes("--quiet");
  const verbose = argv.includes("-v") || argv.includes("--verbose");
  const logger = withholdFromLogger(createLogger({ quiet, verbose }), configuredSecrets(process.env));
  const [name, ...rest] = argv;

  if (name === undefined) {
    // No command is a usage error: the usage goes where errors go, and stdout stays empty.
    logger.error(`a command is needed\n\n${stripAnsi(await renderUsage(mainCommand))}`);
    return EXIT.usage;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    printUsage(await renderUsage(mainCommand));
    return EXIT.ok;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`${packageJson.version}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    const hint = suggest(name, Object.keys(COMMANDS));
    logger.error(`unknown command "${name}"${hint ? `; did you mean "${hint}"?` : ""} (see agent --help)`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    const footer = HELP_FOOTERS[name];
    printUsage(`${(await renderUsage(command, mainCommand)).trimEnd()}${footer ? `\n\n${footer}` : ""}\n`);
    return EXIT.ok;
  }
  const args = typeof command.args === "function" ? await command.args() : await command.args;
  const unknown = findUnknownFlag(rest, args ?? {});
  if (unknown) {
    logger.error(`${unknown} (see agent ${name} --help)`);
    return EXIT.usage;
  }

  try {
    const { result } = await runCommand(command, { rawArgs: rest });
    return typeof result === "number" ? result : EXIT.ok;
  } catch (error) {
    if (error instanceof Error && error.name === "CLIError") {
      return reportError(new AgentError("USAGE", `${stripAnsi(error.message)} (see agent ${name} --help)`), logger);
    }
    return reportError(error, logger);
  }
}
