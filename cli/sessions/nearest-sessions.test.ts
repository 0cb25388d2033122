/**
 * Run from a subfolder with no sessions of its own, every command that looks for the folder's
 * sessions says where the nearest are: the closest parent folder that sessions worked in, and how
 * many did (of the agents asked for).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { runAgent } from "../../fixtures/run-agent.ts";
import { APP_IDS, createFakeHome, T0, type FakeHome } from "./discover.testing.ts";

let fake: FakeHome;
beforeAll(() => {
  fake = createFakeHome();
  // app/lib has a session of its own; app/lib/parser/tests has none, and neither has app/docs.
  const lib = join(fake.app, "lib");
  for (const dir of [join(lib, "parser", "tests"), join(fake.app, "docs", "api", "v2")]) mkdirSync(dir, { recursive: true });
  plantSession(
    { home: fake.home, env: {}, tmpdir: realpathSync(tmpdir()), runFolder: fake.home },
    { agent: "pi", id: "a1000000-0000-4000-8000-0000000000c1", cwd: lib, mtime: T0 + 5 },
  );
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

/** Each command as it runs when no session is named, and the exit status it has when none is found. */
const COMMANDS: [string, string[], number][] = [
  ["handoff", ["handoff", "--dry-run", "--engine", "offline"], 2],
  ["inspect", ["inspect"], 2],
  ["ls", ["ls"], 0],
];

describe.each(COMMANDS)("agent %s, where no session worked", (_, args, code) => {
  test.each<[string, (f: FakeHome) => string, string[], (f: FakeHome) => string]>([
    // Every agent's, opencode's rows too, as agent ls lists them there.
    ["one level below a folder with sessions", (f) => join(f.app, "docs"), [], (f) => `${APP_IDS.length} sessions worked in ${f.app}`],
    ["three levels below it", (f) => join(f.app, "docs", "api", "v2"), [], (f) => `${APP_IDS.length} sessions worked in ${f.app}`],
    ["the closest parent wins", (f) => join(f.app, "lib", "parser", "tests"), [], (f) => `1 session worked in ${join(f.app, "lib")}`],
    ["counting only the agent asked for", (f) => join(f.app, "docs"), ["--agent", "codex"], (f) => `1 session worked in ${f.app}`],
    [
      "counting only opencode's rows, asked for",
      (f) => join(f.app, "docs"),
      ["--agent", "opencode"],
      (f) => `1 session worked in ${f.app}`,
    ],
    ["counting only Gemini CLI's, asked for", (f) => join(f.app, "docs"), ["--agent", "gemini"], (f) => `1 session worked in ${f.app}`],
  ])("%s: says where the nearest are", async (_, folder, extra, nearest) => {
    const run = await runAgent([...args, ...extra], fake.env(), folder(fake));
    expect({ code: run.code, stdout: args[0] === "ls" ? "" : run.stdout }).toEqual({ code, stdout: "" });
    expect(run.stderr).toContain(`; the nearest are in a parent folder: ${nearest(fake)}; `);
  });

  test("with no parent folder that sessions worked in: no such clause", async () => {
    const run = await runAgent(args, fake.env(), fake.empty);
    expect(run.code).toBe(code);
    expect(run.stderr).toContain(`worked in ${fake.empty} (looked in `);
    expect(run.stderr).not.toContain("nearest");
  });
});
