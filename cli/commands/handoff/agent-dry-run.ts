import type { Run } from "../../run.ts";
import type { ConsolaInstance } from "consola/core";
import {
  countOf,
  agentEngine,
  AgentError,
  checkRunPlan,
  describeRunPlan,
  planHandoffRequests,
  renderAgentPrompt,
  type EngineName,
  type DryRunAgentJson,
  type HandoffInput,
} from "../../../core/index.ts";
import { findAgentExecutable } from "../../agents/agent-bin.ts";
import { describeNotPrivate, runsFolder, whyRunsFolderNotPrivate } from "../../agents/agent-scratch.ts";
import type { HandoffOptions } from "../../flags/options.ts";
import { EXIT } from "../../output/stderr.ts";
import { shellQuote } from "../../output/paste-line.ts";
import { planTarget } from "./run-plan.ts";
import { asField } from "../../output/terminal.ts";

/** Where a dry run's command line shows the folders a real run makes for the agent: to run in, and for its temporary files. */
export const SCRATCH_PLACEHOLDER = "<new empty folder>";
export const TEMP_PLACEHOLDER = "<new temporary folder>";

/** The executable a run would start; when there is none, the bare command, and the line the run would fail with. */
function executableFor(run: Run, name: EngineName, options: HandoffOptions, logger: ConsolaInstance): string {
  const engine = agentEngine(name);
  try {
    return findAgentExecutable(engine, options.agentBin, run.env, run.cwd);
  } catch (error) {
    if (!(error instanceof AgentError)) throw error;
    logger.warn(`a real run would fail: ${error.message}`);
    return engine.command;
  }
}

/**
 * `--dry-run` with an agent engine: the exact prompt each run would get on stdin (stdout) and
 * the command line that would start it (stderr), or both in one object with `--json`. Nothing
 * runs; only PATH is looked at.
 */
export async function printAgentDryRun(
  run: Run,
  name: EngineName,
  input: HandoffInput,
  options: HandoffOptions,
  logger: ConsolaInstance,
): Promise<number> {
  const planned = planHandoffRequests(input);
  const executable = executableFor(run, name, options, logger);
  // Where the run's folders would be made, checked as a real run checks it (nothing is made).
  const runsHome = runsFolder(run.env);
  const notPrivate = whyRunsFolderNotPrivate(runsHome);
  if (notPrivate !== undefined) logger.warn(`a real run would fail: ${describeNotPrivate(agentEngine(name), notPrivate)}`);
  const runs = planned.requests.map((request) => {
    const plan = agentEngine(name).plan(renderAgentPrompt(request), SCRATCH_PLACEHOLDER);
    return {
      command: [executable, ...plan.args],
      env: { ...plan.env, TMPDIR: TEMP_PLACEHOLDER },
      files: plan.files ?? {},
      prompt: plan.stdin,
    };
  });
  const estimatedTokens = input.analysis.estimatedTokens;
  await run.cancel.checkpoint();
  if (options.json) {
    await run.stdout.printJson({
      dryRun: true,
      engine: name,
      runs,
      plan: planned.lines,
      estimatedTokens,
      redacted: planned.redacted,
      condensed: planned.condensed,
    } satisfies DryRunAgentJson);
  } else {
    const many = runs.length > 1;
    // A file the run writes first (Codex's instructions) is part of what the agent gets: shown before the prompt.
    const filesOf = (run: (typeof runs)[number]) =>
      Object.entries(run.files)
        .map(([name, text]) => `# file ${SCRATCH_PLACEHOLDER}/${name}\n${text}\n# stdin\n`)
        .join("");
    await run.stdout.printText(
      runs.map((run, i) => `${many ? `# run ${i + 1} of ${runs.length}\n` : ""}${filesOf(run)}${run.prompt}\n`).join("\n"),
    );
  }
  // The line a real run prints before it sends anything, with the same numbers.
  logger.info(describeRunPlan(planned.plan, planTarget(input)));
  for (const line of planned.lines) logger.info(line);
  for (const [i, run] of runs.entries()) {
    const env = Object.entries(run.env)
      .map(([k, v]) => `${k}=${shellQuote(v)} `)
      .join("");
    logger.info(
      `${runs.length > 1 ? `run ${i + 1} of ${runs.length}` : "would run"}: ${env}${run.command.map(shellQuote).join(" ")} < the prompt (in ${SCRATCH_PLACEHOLDER})`,
    );
  }
  logger.info(`${SCRATCH_PLACEHOLDER} and ${TEMP_PLACEHOLDER}: made for each run under ${asField(runsHome)}, removed when it ends`);
  if (planned.redacted > 0) logger.info(`${countOf(planned.redacted, "likely secret")} replaced by placeholders`);
  logger.info(
    `dry run: ${countOf(runs.length, "run")} of ${executable}, ~${countOf(estimatedTokens, "token")} of context; nothing run, nothing written`,
  );
  // Refused after it is shown, as the real run would be (see cli/commands/handoff/dry-run.ts).
  checkRunPlan(planned.plan, planTarget(input), input.inputLimit);
  return EXIT.ok;
}
