import { describe, expect, test } from "bun:test";
import { writeOfflineDocument } from "./index.ts";
import { renderInstruction } from "../prompt.ts";
import { HANDOFF_HEADINGS, headingsOf, sectionOf as section } from "./sections.testing.ts";
import { assistant, call, offline, result, text, user } from "./session.testing.ts";

describe("background from earlier summaries", () => {
  const summary = [
    "## Goal",
    "Import CSV files into the store.",
    "",
    "## Constraints & Preferences",
    "- Keep the public API unchanged.",
    "",
    "## Progress",
    "### Done",
    "- Wrote the parser in src/csv.ts.",
    "",
    "## Key Decisions",
    "- A streaming parser rather than reading whole files.",
  ].join("\n");
  const entries = [
    user("Build the CSV importer."),
    assistant([text("Working on it.")]),
    { type: "compaction", summary, firstKeptEntryId: "e4", tokensBefore: 50000 },
    user("Now add a --dry-run flag to the import command."),
    assistant([text("I'll add the flag to src/cli.ts.")]),
  ];

  test("a compaction summary feeds Goal, Constraints, Done and Decisions, labelled as such", () => {
    const document = offline(entries);
    expect(section(document, "## Goal")).toContain("Import CSV files into the store (from the earlier compaction summary).");
    expect(section(document, "## Constraints & Preferences")).toContain(
      "- From the earlier compaction summary: Keep the public API unchanged.",
    );
    expect(section(document, "### Done")).toContain("- From the earlier compaction summary:\n  - Wrote the parser in src/csv.ts.");
    expect(section(document, "## Key Decisions")).toContain(
      "- From the earlier compaction summary: A streaming parser rather than reading whole files.",
    );
  });

  test("fenced code in a summary is neither a heading nor an item, whatever fences it holds", () => {
    const fenced = [
      "## Goal",
      "Ship the importer.",
      "",
      "## Progress",
      "### Done",
      "Wrote the parser.",
      "~~~md",
      "```",
      "## Not a heading",
      "~~~",
      "```sh",
      "bun test",
      "```",
    ].join("\n");
    const document = offline([
      user("Build it."),
      assistant([text("On it.")]),
      { type: "compaction", summary: fenced, firstKeptEntryId: "e4", tokensBefore: 50000 },
      user("Next."),
      assistant([text("Sure.")]),
    ]);
    expect(section(document, "### Done")).toContain("- From the earlier compaction summary:\n  - Wrote the parser.");
    expect(document).not.toContain("Not a heading");
    expect(document).not.toContain("```\n");
    expect(section(document, "### Done")).not.toMatch(/- (```|~~~)/);
  });

  test("the summary is not a request: only what the user typed is pending", () => {
    const pending = section(offline(entries), "### Pending");
    // The assistant only said what it would do; nothing ran, so the request is still open.
    expect(pending).toBe("- Open request: Add a --dry-run flag to the import command.");
  });

  describe("the user's requests a compaction replaced still make the goal; the summary without a goal section is progress", () => {
    const report = "Fixed the typo in src/greet.txt; notes/todo.txt does not exist.";
    test.each([
      ["kept nothing, one request", [user("Fix the typo in src/greet.txt.")], "Fix the typo in src/greet.txt."],
      [
        "kept nothing, an objective and an acknowledgement",
        [user("Fix the typo in src/greet.txt."), assistant([text("Done.")]), user("thanks")],
        "Fix the typo in src/greet.txt.",
      ],
      [
        "two objectives: the newest one",
        [
          user("Fix the typo in src/greet.txt."),
          assistant([text("Done.")]),
          user("Rename the folder notes to docs and update every link to it."),
        ],
        "Rename the folder notes to docs and update every link to it.",
      ],
    ])("%s", (_name, before, goal) => {
      const document = offline([
        ...before,
        assistant([text("Working on it.")]),
        { type: "compaction", summary: report, firstKeptEntryId: "nowhere", tokensBefore: 50000 },
        user("Show me src/greet.txt once more."),
        assistant([text("It reads: Hello, world!")]),
        user("Thanks, that is all."),
        assistant([text("Nothing more to do.")]),
      ]);
      expect(section(document, "## Goal").split("\n")[0]).toBe(goal);
      expect(section(document, "## Goal")).not.toMatch(/compaction|that is all/);
      expect(section(document, "### Done")).toContain(`- From the earlier compaction summary:\n  - ${report}`);
      expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
    });
  });

  test("a previous handoff document at the start of the session is background too", () => {
    const handoff =
      "<handoff-context>\n## Goal\nShip v2 of the exporter.\n\n## Next Steps\n1. Tag it.\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.";
    const document = offline([
      { type: "custom_message", customType: "handoff", content: handoff, display: true },
      user("Tag the release as v2.0.0."),
      assistant([text("Which remote?")]),
    ]);
    expect(section(document, "## Goal")).toContain("Ship v2 of the exporter (from the previous handoff document).");
    expect(section(document, "### Pending")).not.toContain("Ship v2");
  });
});

describe("where the work stood", () => {
  test("an assistant question is what the session waits for", () => {
    const document = offline([
      user("Clean up the logging in src/log.ts."),
      assistant([text("I found two loggers. Should I merge them into one?")]),
    ]);
    expect(section(document, "### In Progress")).toBe(
      '- Waiting for the user to answer the assistant: "I found two loggers. Should I merge them into one?"',
    );
    expect(section(document, "## Next Steps")).toStartWith(
      "1. Get the user's answer to the assistant's question: \"I found two loggers. Should I merge them into one?\"",
    );
  });

  test("a request with no answer yet is pending and nothing is in progress", () => {
    const document = offline([
      user("Rename the config loader."),
      assistant([text("Done: renamed it to loadConfig.")]),
      user("Now move it to src/config/load.ts."),
    ]);
    expect(section(document, "### Done")).toContain("- The assistant reported, oldest first:\n  - Done: renamed it to loadConfig.");
    expect(section(document, "### In Progress")).toContain("Nothing had started");
    expect(section(document, "### Pending")).toBe("- Open request: Move it to src/config/load.ts.");
    expect(section(document, "## Next Steps")).toBe("1. Start on the open request: Move it to src/config/load.ts.");
    expect(section(document, "### Pending")).not.toContain("Rename the config loader");
  });

  test("a plain thank-you after finished work leaves nothing open", () => {
    const document = offline([user("Rename the config loader."), assistant([text("Done: renamed it to loadConfig.")]), user("thanks!")]);
    expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
    expect(section(document, "## Next Steps")).toContain("ask the user what comes next");
  });

  test("a reply that hands back closes the questions before it", () => {
    const document = offline([user("What does src/a.ts export?"), assistant([text("It exports parse and format.")])]);
    expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
    // No quote of the reply here: a line that says nothing is in progress must not carry the reply's words.
    expect(section(document, "### In Progress")).toBe("- Nothing: the assistant's last reply finished the work asked for.");
  });

  test("a turn cut off after a tool result is in progress, with its last tool calls", () => {
    const document = offline([
      user("Fix the flaky test in test/net.test.ts."),
      assistant(
        [text("Let me run it a few times."), call("c1", "bash", { command: "cd /work/app && bun test test/net.test.ts" })],
        "toolUse",
      ),
      result("c1", "bash", "1 pass"),
    ]);
    expect(section(document, "### In Progress")).toBe(
      [
        "- Working on: Fix the flaky test in test/net.test.ts.",
        '- The assistant\'s last words: "Let me run it a few times."',
        "- Its last tool calls and their results:",
        "  - `bun test test/net.test.ts` → exit 0",
      ].join("\n"),
    );
  });

  test("a search that found nothing is not an error, a failed build is, and it is next to fix", () => {
    const document = offline([
      user("Make the build pass."),
      assistant([call("c1", "bash", { command: "grep -rn TODO src" }), call("c2", "bash", { command: "npm run build" })], "toolUse"),
      result("c1", "bash", "Command exited with code 1", true),
      result("c2", "bash", "src/a.ts(3,1): error TS2304: Cannot find name 'x'.\n\nCommand exited with code 2", true),
      assistant([text("The build fails on an undefined name.")]),
    ]);
    const critical = section(document, "## Critical Context");
    expect(critical).toContain(
      "- Commands: 2 run, 1 failed (Session Facts lists them); still failing at the end (the latest run of each command since the current request):\n  - `npm run build` → exit 2, failed: `src/a.ts(3,1): error TS2304: Cannot find name 'x'.`",
    );
    // The search is stated as what it answered, never as a failure.
    expect(critical).toContain('- What the checks answered "no" (findings, not failures): `grep -rn TODO src` → exit 1, nothing found');
    expect(critical).not.toMatch(/grep[^\n]*failed/);
    expect(section(document, "## Next Steps")).toStartWith("1. Fix what still fails: `npm run build` → exit 2, failed");
  });
});

describe("what is not a request", () => {
  test("our own recorded handoff instruction and the answer to it are skipped", () => {
    const document = offline([
      user("Port the parser to Rust."),
      assistant([text("Done: ported it to src/parser.rs.")]),
      user(renderInstruction("keep it short")),
      assistant([text("## Goal\nPort the parser.\n\n## Next Steps\n1. Benchmark against the old one.")]),
      user("Now wire it into the CLI."),
    ]);
    expect(document).not.toContain("Benchmark against the old one");
    expect(document).not.toContain("keep it short");
    expect(section(document, "### Pending")).toBe("- Open request: Wire it into the CLI.");
  });

  test("slash commands typed into the editor are skipped", () => {
    const document = offline([user("/model"), user("Add a --verbose flag."), assistant([text("Added.")])]);
    expect(document).not.toContain("/model");
    expect(section(document, "## Goal")).toStartWith("Add a --verbose flag.");
  });

  test("a sentence that only mentions 'don't' is not a rule, an instruction is", () => {
    const document = offline([user("I don't understand the failure. Please don't touch the lockfile."), assistant([text("Understood.")])]);
    expect(section(document, "## Constraints & Preferences")).toBe('- The user: "Please don\'t touch the lockfile."');
  });
});

describe("safe markdown", () => {
  test("headings inside a user's request cannot add sections", () => {
    const document = offline([user("## Goal\nMake it fast.\n## Next Steps\nnone"), assistant([text("Looking.")])]);
    expect(headingsOf(document)).toEqual([...HANDOFF_HEADINGS]);
  });

  test("a path with backticks stays inside its code span", () => {
    const document = offline([
      user("Edit the odd file."),
      assistant([call("c1", "edit", { path: "src/we`ird.ts", oldText: "a", newText: "b" })], "toolUse"),
      result("c1", "edit", "ok"),
    ]);
    expect(section(document, "### Done")).toContain("``src/we`ird.ts``");
  });
});

test("an empty branch still gives all six sections and a way forward", () => {
  const document = writeOfflineDocument({
    context: [],
    facts: { cwd: undefined, filesRead: [], filesModified: [], filesDeleted: [], commands: [], models: [], lastUserRequest: undefined },
  });
  expect(headingsOf(document)).toEqual([...HANDOFF_HEADINGS]);
  expect(section(document, "## Next Steps")).toBe("1. Ask the user what they want done: the session recorded no request.");
});
