import type { Run } from "../run.ts";
import { lstatSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { ConsolaInstance } from "consola/core";
import {
  formatCount,
  countOf,
  AgentError,
  agentEngine,
  agentEnvironment,
  describeAgentFailure,
  MESSAGE_LIMIT,
  describeAgentTimeout,
  describeRunPlan,
  planTargetOf,
  fromInertText,
  renderAgentPrompt,
  runHandoff,
  type AgentEngine,
  type EngineName,
  type Complete,
  type HandoffInput,
} from "../../core/index.ts";
import { findAgentExecutable } from "./agent-bin.ts";
import { OUTPUT_LIMIT_BYTES, runAgentProcess } from "./agent-process.ts";
import { makeScratchFolder, removeScratchFolder } from "./agent-scratch.ts";
import { realEffects } from "../io/clock-and-ids.ts";
import type { HandoffOptions } from "../flags/options.ts";
import { createProgress, type Progress } from "../output/progress.ts";
import { asField } from "../output/terminal.ts";
import { countingUsage, usageComplete, type ReportedHandoffResult, type UsageReports } from "../model/usage-reports.ts";
import { fsReason } from "../io/fs-errors.ts";

/**
 * The model port for an agent engine: each request the pipeline makes (the handoff request, a
 * notes request when the session is condensed, a `--strict` repair) becomes one headless run
 * of the agent's own CLI, in a new empty folder that is removed afterwards, with the request
 * written as one transcript prompt. Whatever the run left (logged out, refused, nothing,
 * something unreadable) is one line naming the agent and what to do.
 */
export function createAgentPort(run: Run, engine: AgentEngine, executable: string, logger: ConsolaInstance): Complete {
  return async (request, { signal, beforeSend }) => {
    beforeSend?.(request);
    const prompt = renderAgentPrompt(request);
    // Not the user's project, nor under a shared TMPDIR: the agent finds no files, settings or
    // instructions of anyone's there, nor in any folder above it that another user could write.
    const root = makeScratchFolder(run.scratch, engine, run.env);
    try {
      // It runs in one folder and keeps its temporary files in the other (Claude Code leaves
      // some in TMPDIR): both go when the run ends.
      const scratch = join(root, "work");
      const temp = join(root, "tmp");
      for (const folder of [scratch, temp]) mkdirSync(folder, { mode: 0o700 });
      const planned = engine.plan(prompt, scratch);
      const plan = { ...planned, env: { ...planned.env, TMPDIR: temp } };
      if (engine.promptLimit !== undefined && plan.stdin.length > engine.promptLimit) {
        const size = formatCount(plan.stdin.length);
        throw new AgentError(
          "HANDOFF_FAILED",
          `the prompt is ${size} characters, more than the ${formatCount(engine.promptLimit)} ${engine.label} takes; lower --context-window`,
        );
      }
      for (const [name, text] of Object.entries(plan.files ?? {})) writeFileSync(join(scratch, name), text, { mode: 0o600 });
      logger.debug(`running ${executable} in ${scratch} (${countOf(prompt.body.length, "character")} on stdin)`);
      const ran = await runAgentProcess(executable, plan, {
        agents: run.agents,
        cwd: scratch,
        env: agentEnvironment(engine, run.env, plan.env),
        signal: signal ?? new AbortController().signal,
        skipLine: engine.skipLine,
      }).catch((error: unknown) => {
        // The file is there and executable, yet the system would not start it (no `#!` line, another platform's binary).
        throw new AgentError("HANDOFF_FAILED", `could not start ${executable}: ${fsReason(error)}; is it the ${engine.label} executable?`);
      });
      if (signal?.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
      if (ran.overflowed)
        throw new AgentError(
          "HANDOFF_FAILED",
          `${engine.command} printed more than ${OUTPUT_LIMIT_BYTES / 1024 / 1024} MB; it was stopped`,
        );
      const outcome = engine.read(ran);
      if ("failure" in outcome) {
        removeSavedRequests(outcome.remove ?? [], logger);
        throw new AgentError(
          "HANDOFF_FAILED",
          describeAgentFailure(engine, outcome.failure, run.printed.shortForPeople(outcome.message, MESSAGE_LIMIT)),
        );
      }
      // "length" gives the same warning as the llm engine: the document may be cut short. The
      // joiners that made the prompt inert come out of an answer that quotes it.
      return {
        text: fromInertText(outcome.answer.text),
        finishReason: outcome.answer.cutShort === true ? "length" : "stop",
        usage: outcome.answer.usage,
        model: outcome.answer.model,
      };
    } finally {
      removeScratchFolder(run.scratch, root, logger);
    }
  };
}

/**
 * Removes the copies of a refused request an agent saved (omp: `~/.omp/logs/http-400-requests/
 * <ms>-<id>.json`): they hold the prompt. Only a regular file in a folder of that name, named
 * as omp names them, is removed; nothing else, whatever the agent's message said.
 */
function removeSavedRequests(paths: readonly string[], logger: ConsolaInstance): void {
  for (const path of paths) {
    if (!isAbsolute(path) || basename(dirname(path)) !== "http-400-requests" || !/^[\w-]+\.json$/.test(basename(path))) continue;
    try {
      if (!lstatSync(path).isFile()) continue;
      unlinkSync(path);
      logger.debug(`removed ${asField(path)}, the copy of the refused request the agent saved`);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/** A handoff's result, and whether the engine said what it cost (`--json` prints `usage: null` when not). */
export type AgentHandoffResult = ReportedHandoffResult;

/**
 * Runs the pipeline with an agent as the model, within --timeout (all its runs together) and
 * cancelled by `cancel` (Ctrl-C): either ends the running agent.
 */
export async function callAgent(
  run: Run,
  name: EngineName,
  input: HandoffInput,
  options: HandoffOptions,
  logger: ConsolaInstance,
  cancel: AbortSignal,
): Promise<AgentHandoffResult> {
  const engine = agentEngine(name);
  const executable = findAgentExecutable(engine, options.agentBin, run.env, run.cwd);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = AbortSignal.any([cancel, deadline.signal]);
  let progress: Progress | undefined;
  const reported: UsageReports = { runs: 0, withUsage: 0 };
  try {
    logger.debug(`engine ${name}: ${executable}; ${countOf(input.analysis.context.length, "context message")}`);
    const result = await runHandoff(input, {
      complete: countingUsage(createAgentPort(run, engine, executable, logger), reported),
      ...realEffects(),
      signal,
      notice: (line) => logger.debug(line),
      // The plan is said before the status line starts: both are on stderr.
      onPlan: (plan) => {
        logger.info(describeRunPlan(plan, planTargetOf(input)));
        progress = createProgress(run, run.interactive && !options.quiet && !options.json, `${engine.command} is writing the handoff`);
      },
    });
    return { ...result, usageReported: usageComplete(reported) };
  } catch (error) {
    if (deadline.signal.aborted && !cancel.aborted)
      throw new AgentError("HANDOFF_FAILED", describeAgentTimeout(engine, options.timeoutMs / 1000));
    throw error;
  } finally {
    progress?.stop();
    clearTimeout(timer);
  }
}
