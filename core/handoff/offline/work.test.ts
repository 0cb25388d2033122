import { describe, expect, test } from "bun:test";
import { sectionOf as section } from "./sections.testing.ts";
import { assistant, call, offline, result, shell, text, user } from "./session.testing.ts";

describe("the goal is the objective, not a quote of one message", () => {
  test("acknowledgements, approvals and questions about the tool never become the goal", () => {
    const document = offline([
      user("The CSV export drops quotes around fields with commas. Fix the writer in src/csv.ts."),
      assistant([text("Two options: (a) quote in place, (b) add a library. I'd go with (a). OK?")]),
      user("yes"),
      assistant([call("c1", "edit", { path: "src/csv.ts", oldText: "a", newText: "b" })], "toolUse"),
      result("c1", "edit", "ok"),
      assistant([text("Done: fields with commas are quoted now.")]),
      user("what did i just execute?"),
      assistant([text("Nothing; you typed a question.")]),
      user("ok 👍"),
    ]);
    expect(section(document, "## Goal")).toBe("The CSV export drops quotes around fields with commas. Fix the writer in src/csv.ts.");
    expect(section(document, "## Key Decisions")).toContain(
      'Chose (a) quote in place, over (b) add a library: proposed by the assistant, approved by the user ("yes")',
    );
    expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
  });

  test("a release in progress: the steps run, how far they got, and where it failed", () => {
    const document = offline([
      user("ok, i believe we are ready to release a new version, aren't we?"),
      assistant([text("Yes. Bump, commit, tag, push, publish. Should I proceed?")]),
      user("yeah, do it all"),
      ...shell("c1", "npm version minor", "v0.8.0"),
      ...shell("c2", 'git commit -am "Release v0.8.0"', "[main 45ffe0a] Release v0.8.0"),
      ...shell("c3", "git tag v0.8.0 && git push origin main v0.8.0", "   1..2  main -> main\n * [new tag]  v0.8.0 -> v0.8.0"),
      ...shell("c4", "npm run publish", "src/theme.ts(5,15): error TS2305: Module has no exported member 'EditorTheme'.", 1),
      ...shell("c5", "npm run build 2>&1 | head -30", "src/theme.ts(5,15): error TS2305: Module has no exported member 'EditorTheme'."),
      assistant([text("These errors look like an API mismatch. Did we revert")]),
    ]);
    const goal = section(document, "## Goal");
    expect(goal).toStartWith("Release a new version (steps: version bump, commit, tag, push, publish).");
    expect(goal).toContain(
      '- Where it stands: version bump to v0.8.0, commit 45ffe0a "Release v0.8.0" on main, tag v0.8.0, push main, v0.8.0 done; the publish step (`npm run publish`) failed: `src/theme.ts(5,15): error TS2305',
    );
    expect(goal).toContain("the assistant was diagnosing that failure when the session ended");
    expect(section(document, "### Pending")).toBe("- Nothing else: the latest request is still in progress (see In Progress).");
    expect(section(document, "## Next Steps")).toStartWith(
      "1. Continue the work on: Release a new version. The latest failure: `npm run build 2>&1 | head -30` → failed (output shows errors; the pipe's status was 0)",
    );
    expect(section(document, "## Next Steps")).toContain("2. Then run the failed publish step again: `npm run publish`.");
  });
});

describe("what is open: requests no later report closed", () => {
  test("a request later reported done is never pending, nor a next step", () => {
    const document = offline([
      user("Add a --json flag to the list command."),
      ...shell("c1", "bun test", "3 pass"),
      assistant([text("Should the JSON include hidden items?")]),
      user("no"),
      assistant([call("c2", "edit", { path: "src/list.ts", oldText: "a", newText: "b" })], "toolUse"),
      result("c2", "edit", "ok"),
      assistant([text("Added --json; hidden items are left out.")]),
    ]);
    expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
    expect(document).not.toMatch(/carry out|Start on the open request/i);
  });

  test("what the last reply says is not done yet is pending, and the first step", () => {
    const document = offline([
      user("Paginate GET /teams and document it in docs/api.md."),
      assistant([call("c1", "edit", { path: "src/teams.ts", oldText: "a", newText: "b" })], "toolUse"),
      result("c1", "edit", "ok"),
      assistant([text("GET /teams paginates now. docs/api.md is not updated yet — that's next.")]),
    ]);
    expect(section(document, "### Pending")).toBe("- The assistant's last reply says: \"docs/api.md is not updated yet — that's next.\"");
    expect(section(document, "## Next Steps")).toStartWith('1. Finish what the last reply left open: "docs/api.md is not updated yet');
  });

  test("an offer the user put off with 'later' stays pending after other work finished", () => {
    const document = offline([
      user("The checkout e2e test is flaky on CI, it times out on the Pay button."),
      assistant([text("Cause: the button stays disabled until the iframe is ready. Want me to wait for it to be enabled first?")]),
      user("later. first, bump the CI cache key"),
      assistant([call("c1", "edit", { path: "ci.yml", oldText: "a", newText: "b" })], "toolUse"),
      result("c1", "edit", "ok"),
      assistant([text("Bumped the cache key.")]),
    ]);
    expect(section(document, "### Pending")).toContain(
      '- Put off by the user ("later"): "Cause: the button stays disabled until the iframe is ready. Want me to wait for it to be enabled first?"',
    );
  });

  test("an approval the session ended on is pending as what was approved", () => {
    const document = offline([
      user("Clean up the logging in src/log.ts."),
      assistant([text("I can merge the two loggers into one. Shall I?")]),
      user("yes please"),
    ]);
    expect(section(document, "### Pending")).toBe(
      '- Approved by the user ("yes please"), not started: the assistant\'s proposal "I can merge the two loggers into one. Shall I?"',
    );
  });

  test("a reply cut off mid-sentence is work in progress, not a finished reply", () => {
    const document = offline([
      user("Find out why the build fails."),
      ...shell("c1", "npm run build", "error TS2304: Cannot find name 'x'.", 2),
      assistant([text("The build fails because we never")]),
    ]);
    expect(section(document, "### In Progress")).toContain("- Working on: Find out why the build fails.");
  });
});

describe("commands: a failure hidden by a pipe, and the latest run deciding", () => {
  test("a pipeline that exited 0 while its output shows the build failed is reported failed, everywhere", () => {
    const document = offline(
      [
        user("Fix the lint warnings and keep the build passing."),
        ...shell("c1", "npm run build 2>&1 | head -30", "src/a.ts(7,25): error TS2345: bad"),
        assistant([text("Done: the lint warnings are fixed.")]),
      ],
      undefined,
      true,
    );
    expect(document).toContain("- Commands: 1 run, 1 failed (Session Facts lists them)");
    expect(document).toContain("- Commands run (1; 1 failed):");
    expect(section(document, "### Pending")).toContain(
      "- Still failing, though the work was reported done: `npm run build 2>&1 | head -30` → failed (output shows errors; the pipe's status was 0)",
    );
    expect(document).not.toMatch(/head -30`? \(exit 0\)/);
  });

  test("a failure whose command later passed (with other flags) is resolved", () => {
    const document = offline([
      user("Publish the package."),
      ...shell("c1", "npm publish --access public", "npm ERR! code EOTP", 1),
      ...shell("c2", "npm publish --access public --otp=123456", "+ pkg@1.0.0"),
      assistant([text("Published pkg@1.0.0.")]),
    ]);
    expect(section(document, "## Next Steps")).not.toContain("npm publish");
    expect(section(document, "### Done")).toContain("publish pkg@1.0.0 (a first attempt failed: `npm ERR! code EOTP`)");
  });
});

describe("--focus shapes the steps", () => {
  test("steps about the focus come first; steps about what it says to leave alone are dropped", () => {
    const entries = [
      user("Make the build faster: try esbuild-loader in webpack.config.js."),
      assistant([call("c1", "edit", { path: "webpack.config.js", oldText: "a", newText: "b" })], "toolUse"),
      result("c1", "edit", "ok"),
      assistant([text("esbuild-loader is in; the build takes half the time.")]),
      user("separately: the checkout e2e test is flaky on CI."),
      ...shell(
        "c2",
        "npx playwright test e2e/checkout.spec.ts",
        "✘ pays with a saved card\nTimeoutError: locator.click: Timeout 5000ms exceeded.",
        1,
      ),
      assistant([text("The Pay button stays disabled until the iframe is ready. Want me to wait for it before the click?")]),
      user("later. first, also cache node_modules in CI"),
      assistant([call("c3", "edit", { path: "ci.yml", oldText: "a", newText: "b" })], "toolUse"),
      result("c3", "edit", "ok"),
      assistant([text("CI caches npm now.")]),
    ];
    const steps = section(offline(entries, "the flaky checkout e2e test; leave the build speed alone"), "## Next Steps");
    expect(steps.split("\n")[0]).toMatch(/checkout/);
    expect(steps).not.toMatch(/esbuild|webpack|ci\.yml/);
    expect(section(offline(entries, "the flaky checkout e2e test"), "## Goal")).toStartWith("The checkout e2e test is flaky on CI.");
  });
});

describe("one vocabulary", () => {
  test("every path inside the cwd is relative, whatever spelling a tool used", () => {
    const document = offline(
      [
        user("Rename scan to read in the lexer."),
        assistant(
          [
            call("c1", "edit", { path: "/work/app/src/lexer.ts", oldText: "a", newText: "b" }),
            call("c2", "read", { path: "./src/lexer.ts" }),
          ],
          "toolUse",
        ),
        result("c1", "edit", "ok"),
        result("c2", "read", "ok"),
        ...shell("c3", "cd /work/app && grep -n scan /work/app/src/lexer.ts", "No changes made to /work/app/src/lexer.ts", 2),
        assistant([text("Renamed it in /work/app/src/lexer.ts.")]),
      ],
      undefined,
      true,
    );
    expect(document.replace("- Working directory: `/work/app`", "")).not.toContain("/work/app");
    expect(document).not.toContain("./src/lexer.ts");
    expect(section(document, "## Session Facts").match(/src\/lexer\.ts/g)).toHaveLength(2);
  });
});
