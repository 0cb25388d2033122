import { describe, expect, test } from "bun:test";
import { sectionOf } from "./sections.testing.ts";
import { assistant, call, offline, type Record, result, shell, user } from "./session.testing.ts";
import { isTaskText, pathsNamed, taskRules } from "./task-spec.ts";

const write = (id: string, path: string, content: string): Record[] => [
  assistant([call(id, "write", { path, content })], "toolUse"),
  result(id, "write", `Successfully wrote ${content.length} bytes to ${path}`),
];
const PLAN = "# Plan\n- [x] 1. migration\n- [ ] 2. docs/alerts.md: skipped, the docs team writes it\n- [ ] 3. CHANGELOG entry\n";

describe("plans the session made stale", () => {
  test.each([
    ["a path the plan names", write("c2", "docs/alerts.md", "# Alerts\n"), "docs/alerts.md"],
    ["a file's stem (CHANGELOG for CHANGELOG.md)", write("c2", "CHANGELOG.md", "## 2.4.0\n"), "CHANGELOG.md"],
  ])("an open step done later (%s): named as out of date", (_name, later, changed) => {
    const document = offline([user("Do the epic."), ...write("c1", "PLAN.md", PLAN), ...later]);
    const line =
      sectionOf(document, "## Critical Context")
        .split("\n")
        .find((l) => l.includes("is out of date")) ?? "";
    expect(line).toContain("`PLAN.md` is out of date");
    expect(line).toContain(`\`${changed}\` changed after it`);
  });

  test.each([
    ["the plan updated after the work", [...write("c2", "docs/alerts.md", "x"), ...write("c3", "PLAN.md", PLAN.replace("[ ] 2", "[x] 2"))]],
    ["later work it does not name", write("c2", "src/other.ts", "x")],
    ["no checklist, no plan", []],
  ])("not stale: %s", (_name, later) => {
    const document = offline([user("Do the epic."), ...write("c1", "PLAN.md", PLAN), ...later]);
    expect(document).not.toContain("is out of date");
  });
});

describe("rules in a task text the session printed", () => {
  const ISSUE =
    "#88 Alerts\n\nRequirements\n  - No new runtime dependencies: use the mailer.\n  - The digest goes out at 07:00.\nOut of scope\n  - Do not add SMS.";
  test("an issue printed from the tracker: its rules, marked with their source", () => {
    const document = offline([user("Work through issue 88."), ...shell("c1", "issues show 88", ISSUE)]);
    const line =
      sectionOf(document, "## Constraints & Preferences")
        .split("\n")
        .find((l) => l.startsWith("- From `issues show 88`")) ?? "";
    expect(line).toContain('"No new runtime dependencies: use the mailer."');
    expect(line).toContain('"Do not add SMS."');
    expect(line).not.toContain("07:00");
  });

  test.each([
    ["gh issue view 12", [], true],
    ["cat docs/RELEASING.md", ["Follow docs/RELEASING.md exactly."], true],
    ["docs/RELEASING.md", ["Follow docs/RELEASING.md exactly."], true],
    ["cat docs/RELEASING.md", ["Cut the release."], false],
    ["cat src/app.ts", ["Fix src/app.ts."], false],
    ["sed -n 1,80p docs/RELEASING.md", ["Follow docs/RELEASING.md exactly."], true],
    ['git add AGENTS.md && git commit -m "docs"', ["Update AGENTS.md."], false],
  ])("%s (the user said %j): a task text is %p", (what, said, expected) => {
    // A source file the user named is code, not a task's text: only prose files count.
    expect(isTaskText(what, pathsNamed(said))).toBe(expected);
  });

  test("a remark is not a requirement", () => {
    expect(taskRules("- No restart needed!\n- Never push to main.")).toEqual(["Never push to main."]);
  });

  test("at most five rules per source", () => {
    expect(taskRules(Array.from({ length: 9 }, (_, i) => `- Never do thing ${i}.`).join("\n"))).toHaveLength(5);
  });
});
