import { describe, expect, test } from "bun:test";
import { readBackground } from "./background.ts";

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
