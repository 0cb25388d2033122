/**
 * `bun run bench offline-grade`: the offline engine graded on fixtures/offline's sessions
 * (misses per session and a total; see fixtures/offline/README.md). A report, not a gate.
 */
import { runReport } from "../fixtures/offline/grade.ts";

process.exitCode = runReport(process.argv.slice(2));
