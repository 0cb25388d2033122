import { describe, expect, test } from "bun:test";
import { arcOf, describeMilestone, type MilestoneStatus, readMilestones } from "./milestones.ts";

const read = (command: string, output: string, failed = false) =>
  readMilestones(command, output, { exitCode: failed ? 1 : 0, failed }, failed ? "boom" : undefined, 7).map(
    (m) => `${m.status === "done" ? "" : "FAILED "}${describeMilestone(m)}`,
  );

describe("milestones from commands and their output", () => {
  test.each([
    { command: "npm version 2.3.0 --no-git-tag-version", output: "v2.3.0", failed: false, expected: ["version bump to v2.3.0"] },
    { command: "npm run version:minor", output: "@x/a\nv0.8.0\n@x/b\nv0.8.0", failed: false, expected: ["version bump to v0.8.0"] },
    {
      command: 'git add . && git commit -m "release: 2.3.0"',
      output: "[main 4f2a9c1] release: 2.3.0\n 2 files changed",
      failed: false,
      expected: ['commit 4f2a9c1 "release: 2.3.0" on main'],
    },
    {
      command: 'git commit -qam "remove x" && git log --oneline -1',
      output: "1a2b3c4 remove x",
      failed: false,
      expected: ['commit 1a2b3c4 "remove x"'],
    },
    { command: 'git tag -a v2.3.0 -m "v2.3.0"', output: "", failed: false, expected: ["tag v2.3.0"] },
    { command: "git tag -d v1", output: "", failed: false, expected: [] },
    {
      command: "git push origin main --follow-tags",
      output: "   8d1e0b7..4f2a9c1  main -> main\n * [new tag]         v2.3.0 -> v2.3.0",
      failed: false,
      expected: ["push main, v2.3.0"],
    },
    {
      command: "npm publish --access public --otp=1",
      output: "npm notice 📦  tinyfetch@2.3.0\n+ tinyfetch@2.3.0",
      failed: false,
      expected: ["publish tinyfetch@2.3.0"],
    },
    { command: "npm run publish", output: "error TS2305", failed: true, expected: ["FAILED publish"] },
    {
      command: "gh pr create --base main",
      output: "https://github.com/acme/billing/pull/231",
      failed: false,
      expected: ["pull request https://github.com/acme/billing/pull/231"],
    },
    {
      command: "git checkout -b perf/cache && git commit -m x",
      output: "Switched to a new branch 'perf/cache'\n[perf/cache 7c41e2a] x",
      failed: false,
      expected: ["branch perf/cache", 'commit 7c41e2a "x" on perf/cache'],
    },
    // The commit happened before the push failed: the output proves it.
    {
      command: 'git commit -m "x" && git push',
      output: "[main 1111111] x\nerror: failed to push some refs",
      failed: true,
      expected: ['commit 1111111 "x" on main', "FAILED push"],
    },
    { command: "npm view tinyfetch version", output: "2.3.0", failed: false, expected: [] },
  ])("$command", ({ command, output, failed, expected }) => {
    expect(read(command, output, failed)).toEqual([...expected]);
  });

  test("the arc names each kind once, in the order first tried", () => {
    const milestones = [
      ...readMilestones("npm version minor", "v1.1.0", { exitCode: 0, failed: false }, undefined, 1),
      ...readMilestones("git commit -m a", "[main 1234567] a", { exitCode: 0, failed: false }, undefined, 2),
      ...readMilestones("git commit -m b", "[main 2345678] b", { exitCode: 0, failed: false }, undefined, 3),
      ...readMilestones("npm publish", "", { exitCode: 1, failed: true }, "E403", 4),
    ];
    expect(arcOf(milestones)).toEqual(["version bump", "commit", "publish"]);
  });
});

describe("a step's status: done only on evidence", () => {
  test.each<[string, string, number | null, boolean, MilestoneStatus[]]>([
    ["git push origin main", "", 0, false, ["done"]],
    ["git push origin main", "", null, false, ["unknown"]],
    ["git push origin main", "   8d1e0b7..4f2a9c1  main -> main", null, false, ["done"]],
    ["git push origin main", "", 1, true, ["failed"]],
    ["git push origin main", "", null, true, ["failed"]],
    ['git commit -m "x" && git push', "[main 1111111] x", null, false, ["done", "unknown"]],
    ["npm publish", "", null, false, ["unknown"]],
    ["git checkout -b next", "Switched to a new branch 'next'", null, false, ["done"]],
    // git prints a rejected ref with its arrow too: that is not a push.
    [
      "git push origin main",
      "To github.com:o/r.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs",
      1,
      true,
      ["failed"],
    ],
    ["git push origin main", " ! [remote rejected] main -> main (pre-receive hook declined)", null, false, ["unknown"]],
    ["git push origin main", " + 1a2b3c4...5d6e7f8 main -> main (forced update)", null, true, ["done"]],
    // A dry run makes nothing: no step at all.
    ["npm publish --dry-run", "+ tinyfetch@2.3.0", 0, false, []],
    ["git push --dry-run origin main", "   8d1e0b7..4f2a9c1  main -> main", 0, false, []],
    ["git push -n origin main", "   8d1e0b7..4f2a9c1  main -> main", 0, false, []],
    ["git commit --dry-run -m x", "", 0, false, []],
    ["git commit -n -m x", "[main 1234567] x", 0, false, ["done"]],
    // A check's "no" (exit 1, not failed) is an answer: the step ran.
    ["git tag v1 && test -f x", "", 1, false, ["done"]],
  ])("%p, output %p, exit %p, failed %p", (command, output, exitCode, failed, statuses) => {
    expect(readMilestones(command, output, { exitCode, failed }, undefined, 1).map((m) => m.status)).toEqual(statuses);
  });
});
