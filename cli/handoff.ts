import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { defineCommand } from "citty";
import type { ConsolaInstance } from "consola";
import {
  AgentError,
  assertSomethingToHandOff,
  describeCondensed,
  estimateTokens,
  OFFLINE_MODEL,
  planHandoffRequests,
  runHandoff,
  type Complete,
  type HandoffDeps,
  type HandoffInput,
  type HandoffResult,
} from "../core/index.ts";
import { createModelPort } from "./model.ts";
import { HANDOFF_ARGS } from "./handoff-args.ts";
import { resolveHandoffOptions, type HandoffOptions } from "./options.ts";
import { createProgress } from "./progress.ts";
import { acquireLock } from "./lock.ts";
import { createLogger, EXIT, isInteractive } from "./report.ts";
import { loadSession, type LoadedSession } from "./session.ts";
import { appendIfUnchanged, checkNewFilePath, createFileAtomically, removeTempFiles, replaceIfUnchanged } from "./write.ts";

export const handoffCommand = defineCommand({
  meta: {
    name: "handoff",
    description:
      "Write a handoff document for a session (with a model, or offline when none is configured), start a new session file holding it, and print it. " +
      "The key comes from OPENAI_API_KEY; any OpenAI-compatible endpoint works.",
  },
  args: HANDOFF_ARGS,
  async run({ args }) {
    const logger = createLogger({ quiet: args.quiet, verbose: args.verbose });
    const options = resolveHandoffOptions(args, process.env);
    if (options.engineNotice) logger.info(options.engineNotice);
    const loaded = loadSession(options.sessionPath, { leafId: options.leafId, logger });
    assertSomethingToHandOff(loaded.analysis);
    const input = handoffInput(loaded, options);
    if (options.dryRun) return printDryRun(input, options, logger);
    if (options.out) checkNewFilePath(resolve(options.out));

    const result = await callModel(input, options, logger);
    const target = options.out ? resolve(options.out) : join(dirname(loaded.file.absolutePath), result.newSession.fileName);
    for (const warning of result.warnings) logger.warn(warning);
    if (result.condensed) for (const line of describeCondensed(result.condensed)) logger.info(line);
    if (result.redacted > 0) logger.info(`${result.redacted} likely secret${result.redacted === 1 ? "" : "s"} replaced by placeholders before sending (restored in the document)`);
    createFileAtomically(target, result.newSession.content);
    const recorded = await recordInSource(result, loaded.file, logger);

    if (options.json) {
      const report = {
        document: result.document,
        sessionFile: target,
        sourceFile: loaded.file.absolutePath,
        sessionId: result.newSession.sessionId,
        engine: options.engine,
        model: result.model,
        usage: result.usage,
        missingSections: result.missingSections,
        recorded,
        condensed: result.condensed,
        redacted: result.redacted,
      };
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } else {
      process.stdout.write(`${result.document}\n`);
    }
    logger.success(`New session started with handoff context: ${target}`);
    return EXIT.ok;
  },
});

function handoffInput(loaded: LoadedSession, options: HandoffOptions): HandoffInput {
  const offline = options.engine === "offline";
  return {
    session: loaded.session,
    analysis: loaded.analysis,
    sourcePath: loaded.file.absolutePath,
    focus: options.focus,
    model: offline ? OFFLINE_MODEL : options.model,
    provider: offline ? "agent" : options.provider,
    systemPrompt: options.systemPromptFile ? readSystemPrompt(options.systemPromptFile) : undefined,
    strict: options.strict,
    record: options.record,
    contextWindow: options.contextWindow,
    maxOutputTokens: options.maxOutputTokens,
    engine: options.engine,
    facts: options.facts,
    redact: options.redact,
  };
}

/**
 * `--dry-run`: the model engine's requests exactly as they would leave the machine (redacted),
 * one object or, for a condensed plan, an array in order; the offline engine's document.
 * Nothing is sent and nothing is written.
 */
async function printDryRun(input: HandoffInput, options: HandoffOptions, logger: ConsolaInstance): Promise<number> {
  if (options.engine === "offline") {
    const result = await runHandoff(input, { ...realEffects(), complete: noRequests });
    process.stdout.write(`${result.document}\n`);
    logger.info("dry run: the offline engine sends nothing; nothing written");
    return EXIT.ok;
  }
  const planned = planHandoffRequests(input);
  const printed = planned.requests.length === 1 ? planned.requests[0] : planned.requests;
  process.stdout.write(`${JSON.stringify(printed, null, 2)}\n`);
  for (const line of planned.lines) logger.info(line);
  if (planned.redacted > 0) logger.info(`${planned.redacted} likely secret${planned.redacted === 1 ? "" : "s"} replaced by placeholders`);
  const count = planned.requests.length;
  logger.info(`dry run: ${count} request${count === 1 ? "" : "s"}, ~${estimateTokens(input.analysis.context).toLocaleString("en-US")} tokens of context; nothing sent, nothing written`);
  return EXIT.ok;
}

/** The offline engine never calls the model; reaching this is a bug, and says so. */
const noRequests: Complete = () => Promise.reject(new Error("the offline engine sent a request"));

/** The clock and fresh ids. */
function realEffects(): Omit<HandoffDeps, "complete"> {
  return {
    now: () => new Date(),
    newSessionId: () => crypto.randomUUID(),
    newEntryId: () => crypto.randomUUID().replace(/-/g, "").slice(0, 8),
  };
}

function readSystemPrompt(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new AgentError("FILE", `${path}: cannot read the system prompt (${error instanceof Error ? error.message : String(error)})`, { file: path });
  }
}

/**
 * Runs the pipeline with the real effects: HTTP, the clock, random ids. SIGINT/SIGTERM and
 * the --timeout deadline abort the request; nothing has been written at that point.
 */
async function callModel(input: HandoffInput, options: HandoffOptions, logger: ConsolaInstance): Promise<HandoffResult> {
  const cancel = new AbortController();
  const deadline = new AbortController();
  const onSignal = () => cancel.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const progress = createProgress(isInteractive() && !options.quiet && !options.json && options.engine === "llm", `asking ${options.model}`);
  try {
    logger.debug(`model ${options.model} at ${options.baseUrl ?? "the OpenAI API"}; ${input.analysis.context.length} context messages`);
    return await runHandoff(input, {
      complete: createModelPort({
        apiKey: options.apiKey,
        baseUrl: options.baseUrl,
        timeoutMs: options.timeoutMs,
        retries: options.retries,
        logger,
        onProgress: (chars) => progress.update(chars),
      }),
      ...realEffects(),
      signal: AbortSignal.any([cancel.signal, deadline.signal]),
    });
  } catch (error) {
    removeTempFiles();
    if (deadline.signal.aborted && !cancel.signal.aborted) {
      throw new AgentError("HANDOFF_FAILED", `no document within --timeout ${options.timeoutMs / 1000}s`);
    }
    if (cancel.signal.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    throw error;
  } finally {
    progress.stop();
    clearTimeout(timer);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * Applies the recording to the source under its lock, only if the source is unchanged since
 * we read it; says so when it could not. Returns whether it was recorded.
 */
async function recordInSource(result: HandoffResult, file: { absolutePath: string; path: string; size: number; mtimeMs: number }, logger: ConsolaInstance): Promise<boolean> {
  const recording = result.recording;
  if (!recording) return false;
  if (recording.mode === "skip") {
    logger.warn(`${file.path}: not recorded in the source: ${recording.reason}`);
    return false;
  }
  const lock = await acquireLock(file.absolutePath);
  if (!("release" in lock)) {
    const who = lock.heldBy === undefined ? "another process" : `process ${lock.heldBy}`;
    logger.warn(`${file.path}: not recorded in the source: ${who} holds ${file.path}.lock (another handoff recording into it?)`);
    return false;
  }
  let done: boolean;
  try {
    done =
      recording.mode === "append"
        ? appendIfUnchanged(file.absolutePath, recording.text, file)
        : replaceIfUnchanged(file.absolutePath, recording.text, file);
  } finally {
    lock.release();
  }
  if (!done) logger.warn(`${file.path}: changed while we worked (is an agent still writing it?); the handoff was not recorded in it`);
  else if (recording.mode === "rewrite") logger.info(`${file.path}: upgraded to session format version 3 to record the handoff`);
  return done;
}
