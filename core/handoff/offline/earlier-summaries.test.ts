import { describe, expect, test } from "bun:test";
import { readBackground } from "./earlier-summaries.ts";

describe("an earlier summary gives a goal only through its own goal section", () => {
  test.each([
    ["a one-line report of what was done", "Fixed the typo in src/greet.txt; notes/todo.txt does not exist.", undefined],
    ["a report of several lines", "Added the limiter.\nThe test for it fails.", undefined],
    ["pi's sections", "## Goal\nShip the payment intents.\n\n## Progress\n- Added the client.", "Ship the payment intents."],
    ["a task heading", "# Task\nMigrate the CLI to citty.\n\n# Done\n- parsed flags", "Migrate the CLI to citty."],
    ["an objective heading", "### Objective\nPort the lexer.", "Port the lexer."],
    ["a line stating what the user wants", "The user wants the login bug fixed.\nAdded a test.", "The user wants the login bug fixed."],
    ["a goal label", "Goal: ship v2.\nTagged v2.0.0.", "ship v2."],
    ["a bold goal label in a list", "- **Goal:** ship v2.\n- Tagged v2.0.0.", "ship v2."],
    ["a user's wish mid-report is not read as the goal label", "Fixed it; the user wants more later.", undefined],
    ["headings but no goal", "## Done\n- Added the client.\n## Next\n- Wire it up.", undefined],
  ])("%s", (_name, summary, goal) => {
    expect(readBackground(summary, "compaction").goal).toBe(goal);
  });
});

describe("a summary with no headings is progress, without the agents' bookkeeping", () => {
  test.each([
    ["one line", "Fixed the typo in src/greet.txt.", ["Fixed the typo in src/greet.txt."]],
    ["several lines", "Added the limiter.\nThe test for it fails.", ["Added the limiter.", "The test for it fails."]],
    [
      "omp's split-turn summary with its file list",
      "No prior history.\n\n---\n\n**Turn Context (split turn):**\n\nFixed the typo.\n\n<files>\n# src/\ngreet.txt (RW)\n</files>",
      ["Fixed the typo."],
    ],
    [
      "pi's file lists",
      "Fixed the typo.\n\n<read-files>\nsrc/a.ts\n</read-files>\n<modified-files>\nsrc/greet.txt\n</modified-files>",
      ["Fixed the typo."],
    ],
    ["a list", "- Added the client.\n- Wired the route.", ["Added the client.", "Wired the route."]],
  ])("%s", (_name, summary, done) => {
    const background = readBackground(summary, "compaction");
    expect(background.done).toEqual(done);
    expect(background.goal).toBeUndefined();
  });

  test("the line stating the goal is not progress too", () => {
    expect(readBackground("Goal: ship v2.\nTagged v2.0.0.", "compaction").done).toEqual(["Tagged v2.0.0."]);
  });

  test("a branch named in a report without headings is kept", () => {
    expect(readBackground("Pushed the fix on branch `feat/x`.", "compaction").branch).toBe("feat/x");
  });

  test("a section that names progress still wins over the text around it", () => {
    const background = readBackground("Intro words.\n\n## Progress\n- Added the client.", "compaction");
    expect(background.done).toEqual(["Added the client."]);
  });
});

describe("only a section or line that IS a goal gives the goal", () => {
  test.each([
    ["Completed Tasks", "## Completed Tasks\n- Fixed the ISO week parser\n- Added 3 tests", undefined],
    ["Non-goals", "## Non-goals\n- Do not touch the CLI flags\n\n## Progress\n- Parser fixed", undefined],
    ["Objectives met", "## Objectives met\n- Parser fixed\n- Tests added", undefined],
    ["Goal: N/A", "## Goal\nN/A\n\n## Progress\n- Parser fixed", undefined],
    ["Goal: None", "## Goal\n- None\n\n## Progress\n- Parser fixed", undefined],
    ["an empty goal section", "## Goal\n\n## Progress\n- Parser fixed", undefined],
    ["a task line marked done", "- Task: fixed the parser (done)\n- Tests: 3 pass", undefined],
    ["Goal: none as a line", "Goal: none\nFixed the parser.", undefined],
    ["Goals", "## Goals\n- Port the lexer\n- Keep the API", "Port the lexer; Keep the API"],
    ["Primary Request and Intent", "## Primary Request and Intent\nMake the price tests pass.", "Make the price tests pass."],
    ["a goal line before headings", "Goal: migrate the orders table.\n\n## Progress\n- Schema ported", "migrate the orders table."],
    [
      "a bold goal line inside a section",
      "## Context\n**Goal:** migrate the orders table.\n\n## Progress\n- Schema ported",
      "migrate the orders table.",
    ],
    ["a task item in a Pending list under headings", "## Progress\n- Parser fixed\n\n## Pending\n- Task: write the README", undefined],
    ["a goal section wins over a goal line", "## Context\nGoal: the old aim.\n\n## Goal\nThe new aim.", "The new aim."],
  ])("%s", (_name, summary, goal) => {
    expect(readBackground(summary, "compaction").goal).toBe(goal);
  });

  test("non-goals are constraints, a goal line is not progress", () => {
    expect(readBackground("## Non-goals\n- Do not touch the CLI flags", "compaction").constraints).toEqual(["Do not touch the CLI flags"]);
    expect(readBackground("Goal: ship v2.\n\n## Progress\n- Tagged v2.0.0.", "compaction").done).toEqual(["Tagged v2.0.0."]);
  });
});

describe("Claude Code's numbered summary layout is read as sections", () => {
  const summary = [
    "Summary:",
    "1. Primary Request and Intent:",
    "   The user asked to make the failing price tests pass.",
    "",
    "2. Key Technical Concepts:",
    "   - Bun test runner",
    "",
    "3. Files and Code Sections:",
    "   - src/price.ts: rounding fixed",
    "",
    "4. Errors and fixes:",
    "   - 3 failing tests: rounding used floor",
    "",
    "5. Pending Tasks:",
    "   - None",
    "",
    "6. Current Work:",
    "   Fixing the rounding in src/price.ts.",
    "",
    "7. Optional Next Step:",
    "   Run the test suite again.",
  ].join("\n");
  test.each([
    ["the numbered layout", summary],
    ["titles in bold", summary.replace(/^(\d+\. )(.+):$/gm, "$1**$2:**")],
    ["a title with its text on the same line", summary.replace("Intent:\n   The user", "Intent: The user")],
  ])("%s", (_name, text) => {
    const background = readBackground(text, "compaction");
    expect(background.goal).toBe("The user asked to make the failing price tests pass.");
    expect(background.done.join(" ")).not.toMatch(/Primary Request|Key Technical|Files and Code|Errors and fixes|Pending Tasks/);
    expect(background.pending).toEqual(["Fixing the rounding in src/price.ts.", "Run the test suite again."]);
  });
});

describe("a summary's open-work sections are pending, without placeholders or ticked items", () => {
  test.each([
    ["Pending", "## Pending\n- README.md: not documented yet", ["README.md: not documented yet"]],
    [
      "pi's In Progress and Next Steps",
      "### In Progress\n- [ ] the --json output\n- [x] the CSV output\n\n## Next Steps\n1. Document both",
      ["the --json output", "Document both"],
    ],
    ["placeholders", "## Pending\n- None\n\n### Blocked\n- (none)\n\n## Next Steps\nN/A", []],
    ["done and progress are not pending", "## Done\n- CSV\n\n## Progress\n- parser fixed", []],
    ["a headingless report", "Added the CSV export; next the flag.", []],
  ])("%s", (_name, summary, pending) => {
    expect(readBackground(summary, "compaction").pending).toEqual(pending);
  });
});
