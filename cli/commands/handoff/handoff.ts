import { resolve } from "node:path";
import { defineCommand } from "citty";
import {
  countOf,
  AGENT_ENGINES,
  AgentError,
  assertSomethingToHandOff,
  chooseProfile,
  describeCondensed,
  findFormat,
  OFFLINE_MODEL,
  type HandoffInput,
  type SessionFormat,
} from "../../../core/index.ts";
import { findOnPath } from "../../agents/agent-bin.ts";
import { callAgent } from "../../agents/agent-run.ts";
import { isAgentEngine, noModelNotice } from "../../flags/engine.ts";
import { type HandoffJson, stringField } from "../../../core/index.ts";
import { agentHome } from "../../sessions/agent-home.ts";
import { newSessionPlace, type NewSessionPlace } from "../../sessions/new-session-place.ts";
import { readConfigFile } from "../../flags/config-file.ts";
import { printDryRun } from "./dry-run.ts";
import { callModel, withCancellation, writeOutputs } from "./handoff-run.ts";
import { HANDOFF_ARGS, HANDOFF_HELP } from "./handoff-args.ts";
import { MODEL_ASKED_OF_ENDPOINT, resolveHandoffOptions, type HandoffOptions } from "../../flags/options.ts";
import { EXIT } from "../../output/stderr.ts";
import { runOf, type Run } from "../../run.ts";
import { notRecordable, sayRecordOutcome } from "../../sessions/record.ts";
import { configuredSecrets } from "../../model/secrets.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../../io/read-whole.ts";
import { loadSession, type LoadedSession } from "../../sessions/load-session.ts";
import { findSession } from "../../sessions/find-session.ts";
import { pickSession } from "../../sessions/pick.ts";
import { checkCanContinue, continueInAgent, resumeCommandFor, resumeJson, sayHowToContinue } from "./resume.ts";
import { asField } from "../../output/terminal.ts";

export const handoffCommand = defineCommand({
  meta: { name: HANDOFF_HELP.name, description: HANDOFF_HELP.summary },
  args: HANDOFF_ARGS,
  async run({ args, data }) {
    const run = runOf(data);
    const logger = run.logger({ quiet: args.quiet, verbose: args.verbose });
    const options = resolveHandoffOptions(args, run.env, await readConfigFile(run.env, run.cancel.signal));
    // The base URL may come from a flag or the config file: its credentials are withheld too.
    const withheld = configuredSecrets(run.env, options.baseUrl);
    run.printed.withholdFromOutput(withheld);
    const sessionPath = options.pick ? await pickSession(run, options.agent, logger) : findSession(run, options, "Handing off", logger);
    const loaded = await loadSession(run, sessionPath, { leafId: options.leafId, logger });
    // Folder names and paths printed later are made from the cwd: its secrets are known by then.
    // As written too: normalising (`//` → `/`) can break the shape that gives a secret away (`postgres://u:pw@db`).
    const { header } = loaded.session;
    run.printed.recogniseInOutput([header.cwd, stringField(header.raw, "cwd")].filter((cwd): cwd is string => cwd !== undefined));
    assertSomethingToHandOff(
      loaded.session,
      loaded.analysis,
      loaded.file.path === "-" ? "the session on stdin" : loaded.file.path,
      asField,
    );
    if (options.engineNotice) logger.info(noModelNotice(AGENT_ENGINES.find((e) => findOnPath(e.command, run.env.PATH))));
    if (options.unusedByAgent.length > 0) {
      logger.warn(
        `${options.unusedByAgent.join(", ")} not used with --engine ${options.engine}: the agent answers with its own model and settings`,
      );
    }
    const target = (options.to && findFormat(options.to)) || loaded.format;
    const stream = loaded.file.stream;
    if (options.record && !options.dryRun) {
      // One line, the first reason that applies: the format keeps no record of ours, or there is no file to write back to.
      const why = notRecordable(loaded.format, stream);
      if (why) sayRecordOutcome({ recorded: false, why }, loaded.file.path, logger);
    }
    const place = options.dryRun ? undefined : placeOfNewSession(run, options.out, loaded, target);
    const input = {
      ...handoffInput(run, loaded, options, withheld, target),
      sessionId: place && "path" in place ? place.namedId : undefined,
      projectPlace: place && "database" in place ? place.project : undefined,
    };
    if (options.dryRun || place === undefined) return printDryRun(run, input, options, logger);
    if (options.exec) checkCanContinue(run, target, place, loaded.session.header.cwd);

    const { result, sessionFile, recorded } = await withCancellation(run, async (cancel) => {
      const engine = options.engine;
      const result = isAgentEngine(engine)
        ? await callAgent(run, engine, input, options, logger, cancel)
        : await callModel(run, input, options, logger, cancel);
      for (const warning of result.warnings) logger.warn(warning);
      if (result.condensed) for (const line of describeCondensed(result.condensed)) logger.info(line);
      if (result.redacted > 0)
        logger.info(`${countOf(result.redacted, "likely secret")} replaced by placeholders before sending (restored in the document)`);
      return { result, ...(await writeOutputs(run, result, place, target, loaded.file, logger, cancel)) };
    });

    // The files are written: a failure to print now must say so (see printText).
    const written = [
      ...(sessionFile ? [`${sessionFile} (the new session)`] : []),
      ...(recorded ? [`${loaded.file.realPath} (the handoff recorded)`] : []),
    ];
    // From here a signal ends the run at once, naming the files (which are complete).
    run.cancel.markWritten(written);
    const resume =
      sessionFile === undefined
        ? undefined
        : resumeCommandFor(agentHome(run), target, sessionFile, result.newSession.sessionId, loaded.session.header.cwd);
    if (sessionFile === undefined) {
      // `-o -`: the session is the product; the document is for a person watching, on request.
      if (options.verbose) logger.log(result.document);
      await run.stdout.printText(result.newSession.content, { written });
    } else if (options.json) {
      const report: HandoffJson = {
        document: result.document,
        sessionFile,
        sourceFile: stream ? null : loaded.file.absolutePath,
        sessionId: result.newSession.sessionId,
        sourceFormat: loaded.format.name,
        sessionFormat: target.name,
        engine: options.engine,
        model: result.model,
        // An agent that did not say what it cost: unknown, not zero. The offline engine costs nothing.
        usage: result.usageReported || options.engine === "offline" ? result.usage : null,
        missingSections: result.missingSections,
        recorded,
        condensed: result.condensed,
        redacted: result.redacted,
        resume: resumeJson(resume),
      };
      // The command that resumes our own new session: exact, whatever the key is (a script runs it).
      await run.stdout.printJson(report, { written, exact: ["resume"] });
    } else {
      await run.stdout.printText(`${result.document}\n`, { written });
    }
    if (sessionFile === undefined && run.stdout.readerLeft)
      // The spec's exit 0 for a closed pipe stands (the reader chose to stop), but the session did not arrive whole.
      logger.warn("the new session was not written whole to stdout: the reader closed it");
    else
      logger.success(`New session started with handoff context: ${sessionFile === undefined ? "written to stdout" : asField(sessionFile)}`);
    if (sessionFile !== undefined) sayHowToContinue(run, resume, target, sessionFile, logger);
    if (options.exec && sessionFile !== undefined)
      return await continueInAgent(run, target, sessionFile, result.newSession.sessionId, loaded.session.header.cwd, logger);
    return EXIT.ok;
  },
});

/** Where the new session goes (see new-session-place.ts), for this source and target; checked before the model is called. */
function placeOfNewSession(run: Run, out: string | undefined, loaded: LoadedSession, target: SessionFormat): NewSessionPlace {
  return newSessionPlace(
    {
      out,
      // Beside the file itself, not a link to it: the folder its agent lists and picks "the most recent" in.
      sourcePath: loaded.file.stream ? undefined : loaded.file.realPath,
      sourceFormat: loaded.format,
      target,
      cwd: loaded.session.header.cwd,
      home: agentHome(run),
      currentFolder: run.cwd,
    },
    new Date(),
  );
}

function handoffInput(
  run: Run,
  loaded: LoadedSession,
  options: HandoffOptions,
  withheld: readonly string[],
  target: SessionFormat,
): HandoffInput {
  const offline = options.engine === "offline";
  const agent = isAgentEngine(options.engine) ? options.engine : undefined;
  return {
    session: loaded.session,
    analysis: loaded.analysis,
    sourcePath: loaded.file.absolutePath,
    sourceIsStream: loaded.file.stream !== undefined,
    sourceRow: loaded.format.rows === undefined ? undefined : { id: loaded.session.header.id, label: loaded.format.rows.label },
    focus: options.focus,
    // Unnamed at a local endpoint: callModel asks it; a dry run shows that it will.
    // An agent uses its own model: recorded as the model it reports, else by the agent's name.
    model: offline ? OFFLINE_MODEL : (agent ?? options.model ?? MODEL_ASKED_OF_ENDPOINT),
    provider: offline ? "agent" : (agent ?? options.provider),
    // An agent gets the plain request, written out as a transcript: no provider's quirks apply.
    profile: agent ? chooseProfile(undefined, "generic") : options.profile,
    api: agent ? "agent-cli" : undefined,
    systemPrompt: options.systemPromptFile
      ? readSystemPrompt(resolve(run.cwd, options.systemPromptFile), options.systemPromptFile)
      : undefined,
    strict: options.strict,
    // A stream has no file to write back to.
    record: options.record && loaded.file.stream === undefined,
    sourceFormat: loaded.format,
    target,
    contextWindow: options.contextWindow,
    maxOutputTokens: options.maxOutputTokens,
    inputLimit: options.inputLimit,
    engine: offline ? "offline" : "llm",
    facts: options.facts,
    lastExchanges: options.lastExchanges,
    redact: options.redact,
    // The key and the base URL's credentials are never sent, written or restored, whatever the
    // session, the focus or the endpoint quoted.
    withheld,
  };
}

function readSystemPrompt(absolute: string, path: string): string {
  return readTextFile(
    absolute,
    (reason) => new AgentError("FILE", `${path}: cannot read the system prompt (${reason})`, { file: path }),
    MAX_TEXT_FILE_BYTES,
  );
}
