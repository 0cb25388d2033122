import { describe, expect, test } from "bun:test";
import { sectionOf as section } from "./sections.testing.ts";
import { assistant, call, offline, result, shell, text, user, type Record } from "./session.testing.ts";

const edit = (id: string, path: string, oldText: string, newText: string): Record[] => [
  assistant([call(id, "edit", { path, oldText, newText })], "toolUse"),
  result(id, "edit", `Successfully replaced text in ${path}.`),
];

interface SettledCase {
  name: string;
  entries: Record[];
  done: string;
  next: string;
}

describe("a failure a later, different run settled is no longer failing", () => {
  const cases: SettledCase[] = [
    {
      name: "a crash fixed and re-checked by a compound that starts the app",
      entries: [
        user("find why the app crashes on startup"),
        ...shell("c1", "bun run start", "TypeError: Cannot read properties of undefined (reading 'port')", 1),
        ...edit("c2", "src/config.ts", "config.srv.port", "config.server.port"),
        ...shell("c3", "bun run start & sleep 2; curl -s localhost:3000/health", '{"ok":true}'),
      ],
      done: "- Fixed since it failed: `bun run start` → exit 1, failed: `TypeError: Cannot read properties of undefined (reading 'port')`; `bun run start & sleep 2; curl -s localhost:3000/health` later passed",
      next: "1. Continue the work on: Find why the app crashes on startup. Its last command passed (`bun run start & sleep 2; curl -s localhost:3000/health`): confirm the result and report it to the user.",
    },
    {
      name: "a build error fixed: the test run compiled, one test fails",
      entries: [
        user("Split src/lib.rs into modules and run cargo test when done."),
        ...shell(
          "c1",
          "cargo build 2>&1 | tail -3",
          "error[E0433]: failed to resolve: use of undeclared type `Point`\nerror: could not compile `geo` (lib) due to 1 previous error",
        ),
        ...edit("c2", "src/distance.rs", "a", "use crate::Point;"),
        ...shell(
          "c3",
          "cargo test 2>&1 | tail -5",
          "test distance::tests::antipodal ... FAILED\n\ntest result: FAILED. 11 passed; 1 failed; 0 ignored",
        ),
        assistant([text("The refactor is complete. All tests pass.")]),
      ],
      done: "- Fixed since it failed: `cargo build 2>&1 | tail -3` → failed (output shows errors; the pipe's status was 0): `` error[E0433]: failed to resolve: use of undeclared type `Point` ``; `cargo test 2>&1 | tail -5` later got past it and ran its tests",
      next: "1. Fix what still fails: `cargo test 2>&1 | tail -5` → failed (output shows errors; the pipe's status was 0): `test distance::tests::antipodal ... FAILED`",
    },
  ];
  test.each(cases)("$name", ({ entries, done, next }) => {
    const document = offline(entries);
    expect(section(document, "### Done")).toContain(done);
    expect(section(document, "## Next Steps")).toBe(next);
    expect(section(document, "## Next Steps")).not.toMatch(/TypeError|E0433/);
  });

  test("a later compound that failed settles nothing: the first failure is still the one to fix", () => {
    const document = offline([
      user("find why the app crashes on startup"),
      ...shell("c1", "bun run start", "TypeError: Cannot read properties of undefined (reading 'port')", 1),
      ...shell("c2", "bun run start & sleep 2; curl -sf localhost:3000/health", "curl: (7) Failed to connect to localhost port 3000", 7),
    ]);
    expect(section(document, "## Critical Context")).toContain("- `bun run start` → exit 1, failed: `TypeError");
    expect(section(document, "### Done")).not.toContain("Fixed since it failed");
  });
});

describe("a change of plan", () => {
  const document = offline([
    user("Add persistent storage to the notes app using PostgreSQL. Create a migration in db/migrations and a repository in src/store.ts."),
    assistant([call("c1", "write", { path: "db/migrations/001_init.sql", content: "CREATE TABLE notes(...)" })], "toolUse"),
    result("c1", "write", "Successfully wrote 23 bytes to db/migrations/001_init.sql"),
    assistant([text("Created db/migrations/001_init.sql. Next I'll add docker-compose for Postgres.")]),
    user("Actually, forget Postgres. Use SQLite via bun:sqlite instead, keep it simple, no docker. Delete the migration folder."),
    ...shell("c2", "rm -rf db/migrations", ""),
    ...edit("c3", "src/store.ts", "pg", "bun:sqlite"),
    assistant([text("Switched to bun:sqlite in src/store.ts and removed db/migrations.")]),
  ]);

  test("the goal follows the new plan and says the old one was dropped", () => {
    expect(section(document, "## Goal")).toBe(
      "Forget Postgres. Use SQLite via bun:sqlite instead, keep it simple, no docker.\n- The user dropped the plan of the request before it: Add persistent storage to the notes app using PostgreSQL. Create a migration in db/migrations and a repository in src/store.ts.",
    );
  });

  test("a file the user had deleted reads as deleted, not modified", () => {
    expect(section(document, "### Done")).toContain(
      "- Files modified, most recent last: `src/store.ts`\n- Files deleted: `db/migrations/001_init.sql`",
    );
    expect(section(document, "## Critical Context")).toContain("`db/migrations/001_init.sql` (deleted), `src/store.ts` (modified)");
  });
});

describe("Done names what was done", () => {
  test.each([
    ["Done.", "  - Add a --json flag to the list command: Done."],
    ["Fixed!", "  - Add a --json flag to the list command: Fixed!"],
    ["14 passing.", "  - Add a --json flag to the list command: 14 passing."],
    [
      "Added --json to the list command; it prints one object per line.",
      "  - Added --json to the list command; it prints one object per line.",
    ],
  ])("the reply %p", (reply, line) => {
    const document = offline([
      user("Add a --json flag to the list command."),
      ...edit("c1", "src/list.ts", "a", "b"),
      assistant([text(reply)]),
    ]);
    expect(section(document, "### Done").split("\n")).toContain(line);
  });

  test("many short reports are all shown; long ones are capped", () => {
    const asks = [
      "rename parseArgs to parseFlags",
      "add a --json flag",
      "fix the typo in src/net.ts",
      "bump the version to 2.3.0",
      "mention --json in the help",
      "add a CHANGELOG entry",
      "sort the list output",
      "drop the --legacy flag",
    ];
    const short = offline(asks.flatMap((ask, i) => [user(ask), ...edit(`c${i}`, "src/cli.ts", "a", "b"), assistant([text("Done.")])]));
    expect(section(short, "### Done")).not.toContain("earlier not shown");
    for (const ask of asks) expect(section(short, "### Done")).toContain(ask.slice(1));
    const long = offline(
      asks.flatMap((ask, i) => [
        user(ask),
        ...edit(`c${i}`, "src/cli.ts", "a", "b"),
        assistant([text(`Done: ${ask}, ${"with a long explanation of every file touched and why ".repeat(2)}and the tests pass.`)]),
      ]),
    );
    expect(section(long, "### Done")).toContain("(3 earlier not shown)");
  });

  test("a claim that the checks pass, after a check failed, is marked", () => {
    const document = offline([
      user("Make the parser accept trailing commas."),
      ...edit("c1", "src/parse.ts", "a", "b"),
      ...shell("c2", "bun test", " 11 pass\n 1 fail", 1),
      assistant([text("Implemented trailing commas in src/parse.ts. All tests pass.")]),
    ]);
    expect(section(document, "### Done")).toContain(
      "  - Implemented trailing commas in src/parse.ts. All tests pass. (but `bun test` had failed: see Pending)",
    );
  });

  test("a claim that the checks pass, when they did, is not marked", () => {
    const document = offline([
      user("Make the parser accept trailing commas."),
      ...edit("c1", "src/parse.ts", "a", "b"),
      ...shell("c2", "bun test", " 12 pass\n 0 fail"),
      assistant([text("Implemented trailing commas. All tests pass.")]),
    ]);
    expect(section(document, "### Done")).not.toContain("had failed");
  });
});
