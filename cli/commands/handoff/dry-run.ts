import type { Run } from "../../run.ts";
import type { ConsolaInstance } from "consola/core";
import { checkRunPlan, countOf, describeRunPlan, planHandoffRequests, runHandoff, type HandoffInput } from "../../../core/index.ts";
import type { DryRunDocumentJson, DryRunRequestsJson } from "../../../core/index.ts";
import { printAgentDryRun } from "./agent-dry-run.ts";
import { isAgentEngine } from "../../flags/engine.ts";
import { NO_REQUESTS } from "./handoff-run.ts";
import { realEffects } from "../../io/clock-and-ids.ts";
import type { HandoffOptions } from "../../flags/options.ts";
import { EXIT } from "../../output/stderr.ts";
import { planTarget } from "./run-plan.ts";
import { describeUrl } from "../../model/secrets.ts";

/**
 * `--dry-run`: sends nothing and writes nothing. The model engine's requests are printed
 * exactly as they would leave the machine (redacted): one object, or an array in order for a
 * condensed plan; the offline engine's document is printed as it would be written. With
 * `--json`, stdout is one object either way. A plan over `--max-input-tokens` is printed, then
 * refused as the real run would refuse it (exit 2): a script sees the real run's answer.
 */
const NO_PROJECT = { root: undefined, cached: undefined };

export async function printDryRun(run: Run, input: HandoffInput, options: HandoffOptions, logger: ConsolaInstance): Promise<number> {
  if (isAgentEngine(options.engine)) return printAgentDryRun(run, options.engine, input, options, logger);
  if (options.engine === "offline") {
    // A target kept as rows (opencode) renders its rows for a project; a dry run writes none, so any project does.
    const placed = input.target?.rows && input.projectPlace === undefined ? { ...input, projectPlace: NO_PROJECT } : input;
    const { document } = await runHandoff(placed, { ...realEffects(), complete: NO_REQUESTS });
    // A signal that came while the document was computed ends the run before anything prints.
    await run.cancel.checkpoint();
    await (options.json
      ? run.stdout.printJson({ dryRun: true, engine: "offline", document } satisfies DryRunDocumentJson)
      : run.stdout.printText(`${document}\n`));
    logger.info("dry run: the offline engine sends nothing; nothing written");
    return EXIT.ok;
  }
  const planned = planHandoffRequests(input);
  const estimatedTokens = input.analysis.estimatedTokens;
  await run.cancel.checkpoint();
  if (options.json) {
    const report: DryRunRequestsJson = {
      dryRun: true,
      engine: "llm",
      requests: planned.requests,
      plan: planned.lines,
      estimatedTokens,
      redacted: planned.redacted,
      condensed: planned.condensed,
    };
    await run.stdout.printJson(report);
  } else {
    const printed = planned.requests.length === 1 ? planned.requests[0] : planned.requests;
    await run.stdout.printJson(printed, { indent: 2 });
  }
  // The line a real run prints before it sends anything, with the same numbers.
  logger.info(describeRunPlan(planned.plan, planTarget(input)));
  for (const line of planned.lines) logger.info(line);
  if (options.model === undefined && options.baseUrl !== undefined)
    logger.info(
      `no model named: the model is asked of ${describeUrl(options.baseUrl)} (its list of models) when the handoff runs; nothing is contacted now`,
    );
  if (planned.redacted > 0) logger.info(`${countOf(planned.redacted, "likely secret")} replaced by placeholders`);
  logger.info(
    `dry run: ${countOf(planned.requests.length, "request")}, ~${countOf(estimatedTokens, "token")} of context; nothing sent, nothing written`,
  );
  // Shown whole, then refused as the real run would be: the same line and exit status (see README: --max-input-tokens).
  checkRunPlan(planned.plan, planTarget(input), input.inputLimit);
  return EXIT.ok;
}
