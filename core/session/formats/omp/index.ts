import { readPiFamilyHead } from "../pi/detect.ts";
import { glancePiFamily } from "../pi/glance.ts";
import { parseSession } from "../pi/parse.ts";
import { renderRecording } from "../pi/write.ts";
import type { SessionFormat } from "../types.ts";
import { ompBlobFolder, ompLocation } from "./location.ts";
import { renderNewSession } from "./write.ts";

/**
 * oh-my-pi, pi's fork: pi's layout plus a title line, entry types of its own and blobs (large
 * images kept beside the sessions). pi's reader and recording serve it; its new sessions open
 * with its title line, and its files are kept elsewhere.
 */
export const omp: SessionFormat = {
  name: "omp",
  label: "omp",
  aliases: [],
  detect: (head) => {
    const seen = readPiFamilyHead(head);
    return seen.header && seen.omp;
  },
  read: parseSession,
  renderNewSession,
  record: renderRecording,
  testedVersion: "18.2.3",
  location: ompLocation,
  blobFolder: ompBlobFolder,
  glance: glancePiFamily,
  // omp's own hint is `omp --resume <id>`; by its path (any argument with a `/`) it opens the
  // file wherever it lies, whatever profile it was made under.
  resumeCommand: ({ path, cwd }) => ({ argv: ["omp", "--resume", path], cwd }),
};
