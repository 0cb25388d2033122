import { describe, expect, test } from "bun:test";
import { sectionOf } from "./sections.testing.ts";
import { assistant, call, offline, type Record, result, shell, text, user } from "./session.testing.ts";

const editOf = (id: string, path: string): Record[] => [
  assistant([call(id, "edit", { path, oldText: "a", newText: "b" })], "toolUse"),
  result(id, "edit", `Successfully replaced text in ${path}.`),
];
const commit = (id: string, hash: string) => shell(id, 'git commit -am "x"', `[main ${hash}] x\n 1 file changed`);

describe("what the working tree holds at the end", () => {
  test.each([
    [
      "edited after the last commit",
      [...editOf("c1", "src/a.ts"), ...commit("c2", "1a2b3c4"), ...editOf("c3", "src/b.ts")],
      "`src/b.ts`",
      "`src/a.ts`",
    ],
    [
      "a version bump after it",
      [...commit("c1", "1a2b3c4"), ...shell("c2", "npm version 2.4.0 --no-git-tag-version", "v2.4.0")],
      "npm version 2.4.0",
      "`src/a.ts`",
    ],
  ])("%s: named as uncommitted in Critical Context", (_name, work, named, notNamed) => {
    const document = offline([user("Fix it and commit."), ...work, assistant([text("Done, tests pass.")])]);
    const line =
      sectionOf(document, "## Critical Context")
        .split("\n")
        .find((l) => l.startsWith("- Uncommitted:")) ?? "";
    expect(line).toContain("commit 1a2b3c4");
    expect(line).toContain(named);
    expect(line).not.toContain(notNamed);
    expect(sectionOf(document, "## Next Steps")).toContain("Commit what changed since the last commit");
  });

  test.each([
    ["nothing after the commit", [...editOf("c1", "src/a.ts"), ...commit("c2", "1a2b3c4")]],
    ["no commit at all (nothing says what is committed)", [...editOf("c1", "src/a.ts")]],
  ])("%s: no uncommitted line", (_name, work) => {
    const document = offline([user("Fix it and commit."), ...work, assistant([text("Done.")])]);
    expect(document).not.toContain("Uncommitted:");
  });

  test.each(["node -e \"require('./dist')\"", "python3 -c 'import app'", "ruby -e 'p 1'", "deno eval 'x'"])(
    "a failed one-liner at the end (%s) is context, not the next step",
    (command) => {
      const document = offline([
        user("Rename the helper."),
        ...editOf("c1", "src/a.ts"),
        ...shell("c2", "bun test", "3 pass"),
        ...shell("c3", command, "Error: Cannot find module", 1),
      ]);
      expect(sectionOf(document, "## Critical Context")).toContain("An exploratory one-liner failed at the end (context, not the task)");
      const first = sectionOf(document, "## Next Steps").split("\n")[0] ?? "";
      expect(first).toContain("Its last command passed (`bun test`)");
      expect(first).not.toContain("Cannot find module");
    },
  );

  test("a failed build is not a one-liner: it stays the failure to fix", () => {
    const document = offline([user("Build it."), ...shell("c1", "npm run build", "error TS2304: Cannot find name 'x'", 2)]);
    expect(sectionOf(document, "## Next Steps")).toContain("The latest failure: `npm run build`");
  });
});

describe("the errors of one run, as a set", () => {
  const tsc = (n: number) =>
    Array.from({ length: n }, (_, i) => `src/f${i}.ts(${i + 1},1): error TS2322: Type 'string | undefined' is not assignable.`).join("\n");
  test.each([
    [3, 3],
    [14, 10],
  ])("a build with %i error lines keeps %i of them under the failure", (printed, kept) => {
    const document = offline([
      user("Build it."),
      ...shell("c1", "npm run build", `> tsc\n\n${tsc(printed)}\n\nFound ${printed} errors.`, 2),
    ]);
    const context = sectionOf(document, "## Critical Context");
    expect(context).toContain(`its ${kept} distinct error lines`);
    expect(context).toContain("src/f0.ts(1,1)");
    expect(context.includes(`src/f${kept - 1}.ts(${kept},1)`)).toBe(true);
    expect(context.includes(`src/f${kept}.ts(${kept + 1},1)`)).toBe(false);
  });

  test("one error line is the failure's own excerpt, not a set", () => {
    const document = offline([user("Build it."), ...shell("c1", "npm run build", "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", 2)]);
    expect(document).not.toContain("distinct error lines");
  });
});
