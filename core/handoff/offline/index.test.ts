import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../../index.ts";
import { appendSessionFacts, renderSessionFacts } from "../facts-section.ts";
import { writeOfflineDocument } from "./index.ts";
import { extractNotes } from "./extract.ts";
import { HANDOFF_HEADINGS, headingsOf, sectionOf as section } from "./sections.testing.ts";
import { findMissingSections } from "../validate.ts";

const ROOT = join(import.meta.dir, "..", "..", "..");

async function load(relativePath: string) {
  const session = parseSession(await Bun.file(join(ROOT, relativePath)).text(), relativePath);
  return { session, analysis: analyzeBranch(session) };
}

/** The offline document as `agent handoff --engine offline` shows it: the six sections, then the facts. */
async function offlineHandoff(relativePath: string, focus?: string): Promise<{ document: string; facts: string }> {
  const { session, analysis } = await load(relativePath);
  const input = { context: analysis.context, facts: analysis.facts, cwd: session.header.cwd };
  const document = writeOfflineDocument(focus === undefined ? input : { ...input, focus });
  return { document, facts: renderSessionFacts(analysis.facts, relativePath) };
}

/** Byte-compares with a golden file; `UPDATE_GOLDEN=1` rewrites it instead (review the diff). */
async function expectGolden(name: string, actual: string): Promise<void> {
  const file = Bun.file(join(ROOT, "fixtures", "golden", name));
  if (process.env.UPDATE_GOLDEN === "1") await Bun.write(file, actual);
  if (!(await file.exists())) throw new Error(`fixtures/golden/${name} is missing; run the tests with UPDATE_GOLDEN=1 to write it`);
  expect(actual).toBe(await file.text());
}

describe.each([
  ["fixtures/example.jsonl", "offline-example.md"],
  ["fixtures/sessions/planted-facts.jsonl", "offline-planted-facts.md"],
])("the offline document for %s", (fixture, golden) => {
  test("matches the golden file byte for byte, Session Facts included (UPDATE_GOLDEN=1 rewrites it)", async () => {
    const { document, facts } = await offlineHandoff(fixture);
    await expectGolden(golden, `${appendSessionFacts(document, facts)}\n`);
  });

  test("has all six sections and the three Progress parts, in order, as the validator wants them", async () => {
    const { document } = await offlineHandoff(fixture);
    expect(headingsOf(document)).toEqual([...HANDOFF_HEADINGS]);
    expect(findMissingSections(document)).toEqual([]);
  });

  test("is the same bytes on a second run", async () => {
    expect((await offlineHandoff(fixture)).document).toBe((await offlineHandoff(fixture)).document);
  });

  test("is written from notes already read, when given them, without reading the context again", async () => {
    const { session, analysis } = await load(fixture);
    const input = { facts: analysis.facts, cwd: session.header.cwd };
    const fromNotes = writeOfflineDocument({ ...input, context: [], notes: extractNotes(analysis.context) });
    expect(fromNotes).toBe(writeOfflineDocument({ ...input, context: analysis.context }));
    expect(fromNotes).not.toBe(writeOfflineDocument({ ...input, context: [] }));
  });

  test("leaves no section empty", async () => {
    const { document } = await offlineHandoff(fixture);
    for (const heading of HANDOFF_HEADINGS.filter((h) => h !== "## Progress")) expect(section(document, heading)).not.toBe("");
  });
});

describe("the planted facts", () => {
  const fixture = "fixtures/sessions/planted-facts.jsonl";

  test("the file edited early is in the offline document and in Session Facts", async () => {
    const { document, facts } = await offlineHandoff(fixture);
    expect(section(document, "### Done")).toContain("`src/api/checkout.ts`");
    expect(facts).toContain("  - `src/api/checkout.ts`");
  });

  test("the command that failed is in both, with its exit code and the error's first line", async () => {
    const { document, facts } = await offlineHandoff(fixture);
    // The failure was fixed later: Session Facts keeps the failed run; the document's state says the latest run passed.
    expect(section(document, "## Critical Context")).toContain("- Commands: 3 run, 1 failed (Session Facts lists them)");
    expect(section(document, "### Done")).toContain("- Latest result of each check: `bun test test/checkout.test.ts` (exit 0)");
    expect(facts).toContain("  - `bun test test/checkout.test.ts` — exit 1, failed");
  });

  test("the user's constraint from the first message is under Constraints & Preferences", async () => {
    const { document } = await offlineHandoff(fixture);
    expect(section(document, "## Constraints & Preferences")).toContain(
      "Never touch src/payments/stripe.ts, it is shared with the billing service.",
    );
  });

  test("the last request is the work in progress, the next step, and quoted verbatim in Session Facts", async () => {
    const { document, facts } = await offlineHandoff(fixture);
    const request =
      "Now make the limit configurable with the RATE_LIMIT_PER_MINUTE environment variable (default 10), and document it in README.md.";
    const stated =
      "Make the limit configurable with the RATE_LIMIT_PER_MINUTE environment variable (default 10), and document it in README.md.";
    expect(section(document, "### In Progress")).toContain(`- Working on: ${stated}`);
    expect(section(document, "## Next Steps").split("\n")[0]).toContain(stated.slice(0, -1));
    expect(facts).toContain(`  > ${request}`);
  });

  test("the interrupted work is in progress, and the choice between options is a key decision", async () => {
    const { document } = await offlineHandoff(fixture);
    expect(section(document, "### In Progress")).toContain("I'll add RATE_LIMIT_PER_MINUTE to src/config.ts first");
    expect(section(document, "## Key Decisions")).toContain("in memory rather than in Redis");
  });

  test("an earlier recorded handoff instruction and its answer are neither requests nor progress", async () => {
    const { document, facts } = await offlineHandoff(fixture);
    for (const text of [
      "Write a handoff document",
      "Deploy the limiter to staging",
      "Handoff-only claim",
      "Always run the load test",
      "sliding window",
    ]) {
      expect(document).not.toContain(text);
      expect(facts).not.toContain(text);
    }
  });

  test("a custom message is not taken for something the user said", async () => {
    const { document } = await offlineHandoff(fixture);
    expect(document).not.toContain("Always deploy on Fridays");
  });

  test("the focus picks the Goal and shapes the Next Steps", async () => {
    const { document } = await offlineHandoff(fixture, "only the README part");
    const goal = section(document, "## Goal").split("\n");
    expect(goal[0]).toContain("document it in README.md");
    expect(goal).toContain('- Focus for this handoff: "only the README part"');
    const steps = section(document, "## Next Steps").split("\n");
    expect(steps[0]).toContain("README.md");
    // The re-run of the checkout test is not a step of the README part.
    expect(steps.join("\n")).not.toContain("bun test");
  });
});

describe("summaries from earlier compactions and other branches", () => {
  const fixture = "fixtures/sessions/v3-branches.jsonl";

  test("are read without their wrapper: no tag of ours, escaped or not, reaches the document", async () => {
    const { document } = await offlineHandoff(fixture);
    expect(document).not.toContain("<\\/summary>");
    expect(document).not.toContain("<summary>");
    expect(section(document, "## Critical Context").split("\n")).toContain(
      '- The user left another branch of this session; its summary begins: "Tried a redis-backed limiter; dropped it because production has no redis."',
    );
  });

  test("keep a closing tag the summary itself contains, as recorded; a summary with no goal of its own is progress, not the Goal", async () => {
    const { document } = await offlineHandoff(fixture);
    const summary = "Added an in-memory limiter to POST /login; the test for it fails. Literal </summary> in a note.";
    expect(document).toContain(`### Done\n- From the earlier compaction summary:\n  - ${summary}\n`);
    expect(section(document, "## Goal")).not.toContain("compaction summary");
    expect(document.match(/<\/summary>/g)).toHaveLength(1);
  });
});
