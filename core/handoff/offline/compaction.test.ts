import { describe, expect, test } from "bun:test";
import { sectionOf as section } from "./sections.testing.ts";
import { assistant, call, offline, result, shell, text, user, type Record } from "./session.testing.ts";

/** A compaction entry keeping everything from entry `kept` (ids are e1, e2, … in order). */
const compaction = (summary: string, kept: number): Record => ({
  type: "compaction",
  summary,
  firstKeptEntryId: `e${kept}`,
  tokensBefore: 50000,
});
const edit = (id: string, path: string): Record[] => [
  assistant([call(id, "edit", { path, oldText: "a", newText: "b" })], "toolUse"),
  result(id, "edit", "ok"),
];

/** Two requests, the first reported done, the second cut by the compaction (entries e1–e6). */
const before = [
  user("Add a CSV export to the report command"),
  ...edit("c1", "src/report.ts"),
  assistant([text("CSV export added.")]),
  user("Also add a --json flag and document both in README.md"),
  ...edit("c2", "src/cli.ts"),
];
const JSON_FLAG = "Add a --json flag and document both in README.md.";

describe("a compaction in the middle of work leaves the request it cut off open", () => {
  test.each([
    [
      "the summary's Pending section",
      "## Goal\nReport exports.\n\n## Done\n- CSV export\n\n## Pending\n- README.md: not documented yet",
      6,
      [],
      "README.md: not documented yet",
    ],
    [
      "pi's In Progress and Next Steps",
      "## Goal\nReport exports.\n\n## Progress\n### Done\n- CSV\n### In Progress\n- [ ] the --json output\n\n## Next Steps\n1. Document both",
      6,
      [],
      "the --json output",
    ],
    [
      "Claude Code's numbered Pending Tasks",
      "Summary:\n1. Primary Request and Intent:\n   Report exports.\n\n2. Pending Tasks:\n   - Document the flags in README.md",
      6,
      [],
      "Document the flags in README.md",
    ],
    [
      "no open-work section, but the kept part goes on with the same turn",
      "## Goal\nReport exports.\n\n## Done\n- CSV export",
      5,
      [],
      undefined,
    ],
    ["a headingless report, the kept part mid-turn", "Added the CSV export; started on the flag.", 5, [], undefined],
  ])("%s", (_name, summary, kept, after: Record[], item) => {
    const document = offline([...before, compaction(summary, kept), ...after]);
    expect(section(document, "### In Progress")).toStartWith(`- Working on: ${JSON_FLAG}`);
    expect(section(document, "## Next Steps")).toStartWith(`1. Continue the work on: ${JSON_FLAG.slice(0, -1)}`);
    expect(section(document, "### Pending")).not.toContain("everything asked was reported done");
    if (item !== undefined) expect(section(document, "### Pending")).toContain(`not reported done since: ${item}`);
  });

  test.each([
    [
      "a later reply reports the work done",
      "## Pending\n- README.md: not documented yet",
      [assistant([text("Done: the --json flag works and README.md documents both.")])],
    ],
    ["the Pending section says None, cut at a user message", "## Done\n- CSV export, the flag\n\n## Pending\n- None", []],
  ])("closed: %s", (_name, summary, after: Record[]) => {
    const cut = after.length > 0 ? 5 : 0;
    const entries =
      cut === 0
        ? [...before, assistant([text("Done: the --json flag works.")]), compaction(summary, 8), user("ok thanks")]
        : [...before, compaction(summary, cut), ...after];
    const document = offline(entries);
    expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
    expect(section(document, "### In Progress")).toBe("- Nothing: the assistant's last reply finished the work asked for.");
  });
});

describe('"continue" carries on the newest work, never the first finished request', () => {
  const opening = [
    user("Fix the date parsing bug in src/parse.ts so ISO weeks round-trip"),
    ...edit("p1", "src/parse.ts"),
    ...shell("t1", "bun test", "3 pass\n0 fail"),
    assistant([text("Fixed the ISO week parsing; all 3 tests pass.")]),
    user("Now add a CSV export command to the CLI"),
    assistant([text("Sure, starting on it.")]),
  ];
  test.each([
    ["Continue", undefined],
    ["go on", undefined],
    ["keep going", undefined],
    ["ok, continue please", undefined],
    ["Continue", "## Goal\nFix ISO week parsing and export CSV.\n\n## Progress\n- Parser fixed; tests pass"],
    ["Continue", "## Progress\n- Parser fixed in src/parse.ts; tests pass"],
  ])("%s (variant %#)", (go, summary) => {
    const compacted = summary === undefined ? [] : [compaction(summary, 9)];
    const document = offline([...opening, ...compacted, user(go), ...edit("x1", "src/csv.ts")]);
    expect(section(document, "### In Progress")).toStartWith("- Working on: Add a CSV export command to the CLI.");
    expect(section(document, "## Next Steps")).toStartWith("1. Continue the work on: Add a CSV export command to the CLI.");
    const goal = section(document, "## Goal");
    if (goal.includes("from the earlier compaction summary"))
      expect(goal).toContain("- Latest request: Add a CSV export command to the CLI.");
  });

  test('"Latest request" under a summary\'s goal names the newest of many requests', () => {
    const many = Array.from({ length: 5 }, (_, i) => [
      user(`Fix issue ${i} in src/m${i}.ts and add a regression test`),
      ...edit(`m${i}`, `src/m${i}.ts`),
      assistant([text(`Fixed issue ${i}.`)]),
    ]).flat();
    const document = offline([...many, compaction("## Goal\nFix the open issues.\n\n## Done\n- issues 0-3", 17), user("Continue")]);
    expect(section(document, "## Goal")).toContain("- Latest request: Fix issue 4 in src/m4.ts and add a regression test.");
  });

  // Seen on the real before-compaction session: a bare "ls" after the work became the latest request.
  test.each(["ls", "status?", "pwd", "Thoughts?"])('a one-word aside after the work (%s) is not the "Latest request"', (aside) => {
    const document = offline([
      user("Add a CSV export command to the CLI"),
      ...edit("c1", "src/csv.ts"),
      assistant([text("Started the CSV export.")]),
      compaction("## Goal\nReport exports.\n\n## Done\n- CSV skeleton", 5),
      user(aside),
      assistant([text("Done.")]),
    ]);
    expect(section(document, "## Goal")).toContain("- Latest request: Add a CSV export command to the CLI.");
  });
});
