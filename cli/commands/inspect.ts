import { defineCommand, type ArgsDef } from "citty";
import type { CommandHelp } from "./help.ts";
import { buildInspectReport, renderInspectReport } from "../../core/index.ts";
import { findSession } from "../sessions/find-session.ts";
import { resolveSessionSource, SESSION_ARGS } from "../flags/handoff-source.ts";
import { EXIT } from "../output/stderr.ts";
import { runOf } from "../run.ts";
import { loadSession } from "../sessions/load-session.ts";
import { LOGGING_ARGS } from "../flags/logging-args.ts";

const INSPECT_ARGS = {
  // The same selectors as every command that names a session (`agent handoff`'s).
  ...SESSION_ARGS,
  leaf: { type: "string", description: "Inspect the branch ending at this entry id instead of the last entry", valueHint: "id" },
  json: { type: "boolean", description: "Print one JSON object on stdout instead of the summary" },
  strict: { type: "boolean", description: "Fail (exit 2) on any malformed line instead of skipping it" },
  ...LOGGING_ARGS,
} satisfies ArgsDef;

export const INSPECT_HELP: CommandHelp = {
  name: "inspect",
  summary: "Show what a session holds and what a handoff of it would carry",
  description:
    "Show what a session holds and what a handoff of it would carry: branch, context size, files, commands. " +
    "The session is chosen as agent handoff chooses it: without one named, the newest that worked in the current folder (stderr says which file).",
  args: INSPECT_ARGS,
};

export const inspectCommand = defineCommand({
  meta: { name: INSPECT_HELP.name, description: INSPECT_HELP.summary },
  args: INSPECT_ARGS,
  async run({ args, data }) {
    const run = runOf(data);
    const logger = run.logger({ quiet: args.quiet, verbose: args.verbose });
    const path = findSession(run, resolveSessionSource(args), "Inspecting", logger);
    const loaded = await loadSession(run, path, { leafId: args.leaf, strict: args.strict, logger, asWritten: true });
    const report = buildInspectReport(loaded.file.path, loaded.session, loaded.analysis, loaded.warnings);
    // A signal that came while a large session loaded ends the run before anything prints.
    await run.cancel.checkpoint();
    const field = (text: string, max?: number) => run.printed.fieldForStdout(text, max);
    await (args.json
      ? run.stdout.printJson(report)
      : run.stdout.printText(`${renderInspectReport(report, loaded.session.version, field)}\n`));
    return EXIT.ok;
  },
});
