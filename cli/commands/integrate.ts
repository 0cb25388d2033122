import { existsSync } from "node:fs";
import { defineCommand, type ArgsDef } from "citty";
import {
  agentEngine,
  findFormat,
  findIntegration,
  integrations,
  parseOfferPercent,
  type AgentIntegration,
  type IntegrateOptions,
} from "../../core/index.ts";
import { findOnPath } from "../agents/agent-bin.ts";
import { hookCommandFor, ownCommand } from "../agents/hook-command.ts";
import { applyChanges } from "../agents/integration-apply.ts";
import { installedOptions, integrationState, planChanges, type FileChange } from "../agents/integration-files.ts";
import { withIntegrationLock } from "../agents/integration-lock.ts";
import { hookTrust } from "../agents/integration-trust.ts";
import { LOGGING_ARGS } from "../flags/logging-args.ts";
import { CommandLineError } from "../flags/usage.ts";
import { EXIT } from "../output/stderr.ts";
import { asField } from "../output/terminal.ts";
import { agentHome, joinSegments } from "../sessions/agent-home.ts";
import { runOf, type Run } from "../run.ts";
import type { CommandHelp } from "./help.ts";

function names(): string {
  return integrations()
    .map((i) => i.name)
    .join(", ");
}

const INTEGRATE_ARGS = {
  agent: { type: "positional", required: false, description: `The agent to install /handoff into: ${names()}` },
  all: { type: "boolean", description: "Every agent whose command is on PATH or whose home folder exists" },
  uninstall: {
    type: "boolean",
    description: "Remove what integrate added: the files are as they were before (or, edited since, lose only our entries)",
  },
  status: { type: "boolean", description: "Show, per agent, what is installed and whether it is current; change nothing" },
  offer: {
    type: "string",
    valueHint: "percent",
    description:
      "Also offer /handoff when the session's context passes this share (1–99) of the model's window: one line after the turn, once per crossing; integrate without it takes the offer out",
  },
  "before-compact": {
    type: "boolean",
    description:
      "Claude Code: before an automatic compaction, write the handoff session, and name it at the end of the next turn (to /resume instead of the summary)",
  },
  ...LOGGING_ARGS,
} satisfies ArgsDef;

export const INTEGRATE_HELP: CommandHelp = {
  name: "integrate",
  summary: "Install /handoff into an agent (Claude Code's and pi's /handoff, Codex's $handoff, omp's /agent-handoff), or remove it",
  description:
    "Install /handoff into an agent's home: a hook that runs agent hook <agent> and the command (or skill) that makes the agent accept it; for pi and omp, an extension that runs it and switches to the new session. " +
    "It merges the agent's settings at the text level (every other key, its order and layout kept), changes nothing on a second run, and lists every file it wrote. " +
    "--uninstall gives the files back as they were.",
  args: INTEGRATE_ARGS,
};

/** The agents `--all` means: each whose command is on PATH or whose home folder exists. */
function presentAgents(run: Run): AgentIntegration[] {
  const home = agentHome(run);
  return integrations().filter(
    (integration) =>
      findOnPath(agentEngine(integration.name).command, run.env.PATH) !== undefined || existsSync(joinSegments(integration.home(home))),
  );
}

function chosen(run: Run, agent: string | undefined, all: boolean | undefined): AgentIntegration[] {
  if (all && agent !== undefined) throw new CommandLineError(`give an agent or --all, not both`);
  if (all) return presentAgents(run);
  if (agent === undefined) throw new CommandLineError(`an agent is needed (${names()}), or --all`);
  const integration = findIntegration(findFormat(agent)?.name ?? agent);
  if (integration === undefined) throw new CommandLineError(`${JSON.stringify(agent)} has no /handoff integration; agents: ${names()}`);
  return [integration];
}

/** `--offer` and `--before-compact` for `integration`: checked, or refused in one line (a named agent without the hook). */
function optionsFor(integration: AgentIntegration, offer: number | undefined, beforeCompact: boolean, named: boolean): IntegrateOptions {
  const reason = integration.stop?.beforeCompact;
  if (beforeCompact && typeof reason === "string" && named)
    throw new CommandLineError(`--before-compact is not for ${integration.label}: ${reason}`);
  return { offer, beforeCompact: beforeCompact && typeof reason === "object" ? true : undefined };
}

/** What `--status` says of the extras: the offer's percent, the hook before compaction. */
function describeOptions(options: IntegrateOptions): string[] {
  return [
    ...(options.offer === undefined ? [] : [`  offer: at ${options.offer}% of the model's window`]),
    ...(options.beforeCompact ? ["  before an automatic compaction: writes the handoff session first"] : []),
  ];
}

function describeChange(change: FileChange): string {
  const verb = change.after === undefined ? "removed" : change.before === undefined ? "wrote" : "changed";
  return `${verb} ${asField(change.path)}`;
}

export const integrateCommand = defineCommand({
  meta: { name: INTEGRATE_HELP.name, description: INTEGRATE_HELP.summary },
  args: INTEGRATE_ARGS,
  async run({ args, data }) {
    const run = runOf(data);
    const logger = run.logger({ quiet: args.quiet, verbose: args.verbose });
    if (args.status && args.uninstall) throw new CommandLineError("give --status or --uninstall, not both");
    const beforeCompact = args["before-compact"] === true;
    if ((args.offer !== undefined || beforeCompact) && (args.status || args.uninstall))
      throw new CommandLineError(
        `${args.offer !== undefined ? "--offer" : "--before-compact"} is what integrate installs: not with --${args.status ? "status" : "uninstall"}`,
      );
    const percent = args.offer === undefined ? undefined : parseOfferPercent(args.offer);
    if (typeof percent === "object") throw new CommandLineError(percent.problem);
    const agents = args.status && args.agent === undefined && !args.all ? integrations() : chosen(run, args.agent, args.all);
    if (agents.length === 0) {
      logger.info(`no agent found to integrate with (${names()}): none is on PATH and no home folder exists`);
      return EXIT.ok;
    }
    const own = ownCommand(run);
    const hooked = await Promise.all(
      agents.map(async (integration) => ({ integration, command: await hookCommandFor(run, own, integration) })),
    );
    const lines: string[] = [];
    if (args.status) {
      for (const { integration, command } of hooked) {
        const options = installedOptions(run, integration);
        const states = integrationState(run, integration, command, options);
        const overall = states.some((s) => s.state === "unreadable")
          ? "cannot tell: run agent integrate to see why"
          : states.every((s) => s.state === "current")
            ? "installed, current"
            : states.every((s) => s.state === "absent")
              ? "not installed"
              : states.some((s) => s.state === "absent")
                ? "partly installed: run agent integrate again"
                : "installed, outdated: run agent integrate again";
        lines.push(
          `${integration.name}: ${overall}`,
          ...states.map((s) => `  ${s.state === "unreadable" ? "cannot be read" : s.state}: ${asField(s.path)}`),
          ...(states.every((s) => s.state === "absent") ? [] : describeOptions(options)),
        );
      }
      await run.stdout.printText(`${lines.join("\n")}\n`);
      return EXIT.ok;
    }
    // One integrate at a time: another's changes are read, not overwritten.
    const locked = await withIntegrationLock(run, (state) => {
      // Every agent's files are planned (read, merged) before any is written: one problem stops all.
      // Uninstalling takes out what is there (the offer too); installing writes what the flags ask for.
      const planned = hooked.map(({ integration, command }) => {
        const options = args.uninstall
          ? installedOptions(run, integration)
          : optionsFor(integration, percent, beforeCompact, args.agent !== undefined);
        return { integration, command, options, changes: planChanges(run, integration, command, args.uninstall === true, options) };
      });
      for (const { changes } of planned) applyChanges(run, changes, args.uninstall === true, state);
      return planned;
    });
    if ("held" in locked) {
      logger.error(locked.held);
      return EXIT.failed;
    }
    const plans = locked.value;
    for (const { integration, changes, options } of plans) {
      if (changes.length === 0)
        lines.push(`${integration.name}: nothing to change (${args.uninstall ? "not installed" : "installed, current"})`);
      else lines.push(`${integration.name}:`, ...changes.map((change) => `  ${describeChange(change)}`));
      if (!args.uninstall) {
        lines.push(`  use: ${integration.usage}`, ...describeOptions(options));
        if (beforeCompact && !options.beforeCompact)
          lines.push(`  --before-compact: not for ${integration.label}: ${integration.stop?.beforeCompact}`);
        for (const note of integration.notes) lines.push(`  ${note}`);
        for (const note of integration.trust?.notes(hookTrust(run, integration)) ?? []) lines.push(`  ${note}`);
      }
    }
    await run.stdout.printText(`${lines.join("\n")}\n`);
    if (own.notice && !args.uninstall) logger.info(own.notice);
    return EXIT.ok;
  },
});
