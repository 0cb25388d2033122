import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../index.ts";
import { renderSessionFacts } from "./facts-section.ts";
import { writeOfflineDocument } from "./offline.ts";
import { HANDOFF_HEADINGS, headingsOf, sectionOf as section } from "./offline.testing.ts";

// The two real pi sessions live beside the project, never inside it (see ../shared/sessions/README.md).
const SESSIONS = join(import.meta.dir, "..", "..", "..", "shared", "sessions");

async function offlineHandoff(name: string): Promise<{ document: string; facts: string } | undefined> {
  const file = Bun.file(join(SESSIONS, name));
  if (!(await file.exists())) return undefined;
  const session = parseSession(await file.text(), name);
  const { context, facts } = analyzeBranch(session);
  const input = session.header.cwd === undefined ? { context, facts } : { context, facts, cwd: session.header.cwd };
  return { document: writeOfflineDocument(input), facts: renderSessionFacts(facts, `../shared/sessions/${name}`) };
}

const present = await Bun.file(join(SESSIONS, "large-session.jsonl")).exists();
const label = present ? "" : " (skipped: ../shared/sessions/ is not next to this checkout)";

describe(`the offline engine on the real sessions${label}`, () => {
  test.skipIf(!present)("large-session.jsonl: the headings, the failed publish, the open request, the user's rule", async () => {
    const result = await offlineHandoff("large-session.jsonl");
    if (!result) throw new Error("large-session.jsonl disappeared");
    const { document, facts } = result;
    expect(headingsOf(document)).toEqual([...HANDOFF_HEADINGS]);
    // Checked by reading the file: the session ends with `npm run publish` failing on a missing
    // export, never re-run, after the user's "yeah, do it all"; the user said invalid themes must never explode.
    expect(section(document, "## Next Steps")).toContain("`npm run publish` → exit 1: `src/theme/theme.ts(5,15): error TS2305");
    expect(section(document, "### Pending")).toContain('"yeah, do it all"');
    expect(section(document, "### In Progress")).toContain("Did we revert");
    expect(section(document, "## Constraints & Preferences")).toContain("invalid themes must NEVER explode");
    expect(section(document, "### Done")).toContain("`packages/coding-agent/CHANGELOG.md`");
    expect(section(document, "## Critical Context")).toContain("- Working directory: `/Users/badlogic/workspaces/pi-mono`");
    expect(document.length).toBeLessThan(8000);
    expect(facts).toContain("- Commands run (192;");
    expect(facts).toContain("  > yeah, do it all");
  });

  test.skipIf(!present)("before-compaction.jsonl: the compaction summary as labelled background, the errors, the user's own runs", async () => {
    const result = await offlineHandoff("before-compaction.jsonl");
    if (!result) throw new Error("before-compaction.jsonl disappeared");
    const { document } = result;
    expect(headingsOf(document)).toEqual([...HANDOFF_HEADINGS]);
    // Checked by reading the file: the newest compaction's summary states the goal and "E2E tests only";
    // a tsx one-liner failed on a missing module; the user ran `ls` and `find .` with `!`; the last reply was "👍".
    expect(section(document, "## Goal")).toContain("- From the earlier compaction summary: Refactor `coding-agent` to eliminate code duplication");
    expect(section(document, "## Constraints & Preferences")).toContain("- From the earlier compaction summary: **E2E tests only** - no unit tests");
    expect(section(document, "## Critical Context")).toContain("`Error: Cannot find module './src/utils/config.js'`");
    expect(section(document, "## Critical Context")).toContain("- The user ran these themselves with `!`: `ls`, `find .`");
    expect(section(document, "### In Progress")).toContain('"👍"');
    expect(document.length).toBeLessThan(8000);
  });
});
