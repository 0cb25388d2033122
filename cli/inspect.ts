import { defineCommand, type ArgsDef } from "citty";
import type { CommandHelp } from "./help.ts";
import { buildInspectReport, describeFormats, renderInspectReport } from "../core/index.ts";
import { checkpoint } from "./cancel.ts";
import { createLogger, EXIT } from "./report.ts";
import { loadSession } from "./session.ts";
import { fieldForStdout } from "./printed.ts";
import { printJson, printText } from "./stdout.ts";
import { LOGGING_ARGS } from "./logging-args.ts";

const INSPECT_ARGS = {
  session: {
    type: "positional",
    description: `The session file (.jsonl) written by ${describeFormats()}; - reads it from stdin`,
    required: true,
  },
  leaf: { type: "string", description: "Inspect the branch ending at this entry id instead of the last entry", valueHint: "id" },
  json: { type: "boolean", description: "Print one JSON object on stdout instead of the summary" },
  strict: { type: "boolean", description: "Fail (exit 2) on any malformed line instead of skipping it" },
  ...LOGGING_ARGS,
} satisfies ArgsDef;

export const INSPECT_HELP: CommandHelp = {
  name: "inspect",
  summary: "Show what a session holds and what a handoff of it would carry",
  description: "Show what a session holds and what a handoff of it would carry: branch, context size, files, commands.",
  args: INSPECT_ARGS,
};

export const inspectCommand = defineCommand({
  meta: { name: INSPECT_HELP.name, description: INSPECT_HELP.summary },
  args: INSPECT_ARGS,
  async run({ args }) {
    const logger = createLogger({ quiet: args.quiet, verbose: args.verbose });
    const loaded = await loadSession(args.session, { leafId: args.leaf, strict: args.strict, logger, asWritten: true });
    const report = buildInspectReport(args.session, loaded.session, loaded.analysis, loaded.warnings);
    // A signal that came while a large session loaded ends the run before anything prints.
    await checkpoint();
    await (args.json ? printJson(report) : printText(`${renderInspectReport(report, loaded.session.version, fieldForStdout)}\n`));
    return EXIT.ok;
  },
});
