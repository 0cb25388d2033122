import type { SessionFormat } from "../types.ts";
import { readPiFamilyHead } from "./detect.ts";
import { glancePiFamily } from "./glance.ts";
import { piLocation } from "./location.ts";
import { parseSession } from "./parse.ts";
import { renderNewSession, renderRecording } from "./write.ts";

/**
 * pi (pi-mono's coding agent). Its reader reads omp's files too (omp is pi's fork, with one
 * layout) and names the session's agent after reading every line; its writer writes the new
 * session and records the handoff in a way both agents resume.
 */
export const pi: SessionFormat = {
  name: "pi",
  label: "pi",
  aliases: [],
  detect: (head) => {
    const seen = readPiFamilyHead(head);
    return seen.header && !seen.omp;
  },
  read: parseSession,
  renderNewSession,
  record: renderRecording,
  testedVersion: "0.73.1",
  location: piLocation,
  glance: glancePiFamily,
  // pi opens a file named by its path wherever it lies, in the cwd the session records.
  resumeCommand: ({ path, cwd }) => ({ argv: ["pi", "--session", path], cwd }),
};
