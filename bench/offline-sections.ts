/**
 * `bun run bench offline-sections`: words per section of the offline document on the two real
 * sessions (../shared/sessions/) and the four real agents' transcripts (fixtures/real/), and the
 * words before Session Facts (the part read in two minutes; issue 26 keeps it at most 1,200).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { offlineDocument } from "../fixtures/offline/engine.ts";
import { countWords, splitSections } from "../fixtures/offline/grade-doc.ts";
import { SECTIONS } from "../fixtures/offline/expectations.ts";
import { REAL_SESSIONS_DIR } from "../fixtures/offline/real.ts";
import { transcriptFile, TRANSCRIPTS } from "../fixtures/offline/transcripts.ts";

const SHOWN = SECTIONS.filter((s) => !s.startsWith("Progress/"));
const files: [string, string][] = [
  ...["before-compaction", "large-session"].map((n): [string, string] => [n, join(REAL_SESSIONS_DIR, `${n}.jsonl`)]),
  ...Object.keys(TRANSCRIPTS).map((n): [string, string] => [n, transcriptFile(n)]),
];

const short = (s: string) =>
  s.replace("Constraints & Preferences", "Constraints").replace("Session Facts", "Facts").replace("Last Exchanges", "Tail");
console.log(`words per section of the offline document (body: before Session Facts)`);
console.log(["session".padEnd(18), ...SHOWN.map((s) => short(s).padStart(14)), "body".padStart(7)].join(""));
for (const [name, file] of files) {
  if (!existsSync(file)) {
    console.log(`${name.padEnd(18)}skipped (no ${file})`);
    continue;
  }
  const sections = splitSections(offlineDocument(readFileSync(file, "utf8"), file));
  const words = (s: (typeof SHOWN)[number]) => (sections.has(s) ? String(countWords(sections.get(s) ?? "")) : "-");
  console.log(
    [name.padEnd(18), ...SHOWN.map((s) => words(s).padStart(14)), String(countWords(sections.get("body") ?? "")).padStart(7)].join(""),
  );
}
