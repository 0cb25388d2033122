import { defineCommand } from "citty";
import { buildInspectReport, renderInspectReport } from "../core/index.ts";
import { createLogger, EXIT } from "./report.ts";
import { loadSession } from "./session.ts";
import { printJson, printText } from "./stdout.ts";

export const inspectCommand = defineCommand({
  meta: {
    name: "inspect",
    description: "Show what a session holds and what a handoff of it would carry: branch, context size, files, commands.",
  },
  args: {
    session: { type: "positional", description: "The session file (.jsonl) written by pi or omp", required: true },
    leaf: { type: "string", description: "Inspect the branch ending at this entry id instead of the last entry", valueHint: "id" },
    json: { type: "boolean", description: "Print one JSON object on stdout instead of the summary" },
    strict: { type: "boolean", description: "Fail (exit 2) on any malformed line instead of skipping it" },
    quiet: { type: "boolean", alias: "q", description: "Print warnings and errors only" },
    verbose: { type: "boolean", alias: "v", description: "Print debugging detail on stderr" },
  },
  async run({ args }) {
    const logger = createLogger({ quiet: args.quiet, verbose: args.verbose });
    const loaded = loadSession(args.session, { leafId: args.leaf, strict: args.strict, logger });
    const report = buildInspectReport(args.session, loaded.session, loaded.analysis, loaded.warnings);
    await (args.json ? printJson(report) : printText(`${renderInspectReport(report)}\n`));
    return EXIT.ok;
  },
});
