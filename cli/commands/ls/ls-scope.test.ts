/**
 * `agent ls` takes a folder (whose sessions, as the other commands take one), `--limit N` and
 * `--since <duration or ISO date>`; what the flags mean is read by one pure function
 * (ls-options.ts), tested here without a process, and the listing through the CLI.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join, relative } from "node:path";
import { rmSync } from "node:fs";
import { isAgentError } from "../../../core/index.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { APP_IDS, createFakeHome, IDS, OLDER_PI, T0, UPDATED, type FakeHome } from "../../sessions/discover.testing.ts";
import { parseLimit, parseSince, resolveLsOptions } from "./ls-options.ts";

let fake: FakeHome;
beforeAll(() => {
  fake = createFakeHome();
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

/** The session outside the agents' folders that discover.testing.ts links into pi's folder for `app`. */
const LINKED_IN = "c0000000-0000-4000-8000-000000000000";
/** The folder `app`'s sessions, newest first (discover.testing.ts plants them seconds apart). */
const APP = APP_IDS;
/** Those of `app`'s updated `seconds` after T0 or later. */
const appSince = (seconds: number) => APP.filter((id) => (UPDATED[id] ?? 0) >= T0 + seconds);

async function ids(args: string[], cwd: string): Promise<string[]> {
  const run = await runAgent(["ls", "--json", ...args], fake.env(), cwd);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout).map((s: { id: string }) => s.id);
}

describe("agent ls <folder>, --limit, --since", () => {
  test.each<[string, (f: FakeHome) => string[], (f: FakeHome) => string, string[]]>([
    ["a folder: the sessions that worked in it, as if run there", (f) => [f.app], (f) => f.empty, APP],
    ["a folder by a relative path", (f) => [relative(f.home, f.app)], (f) => f.home, APP],
    // A folder named is listed as `ls` shows it: a link in it to a session elsewhere is one of its files (the newest here).
    [
      "an agent's folder of session files: the files in it",
      (f) => [join(f.paths[IDS.app.pi] ?? "", "..")],
      (f) => f.empty,
      [LINKED_IN, IDS.app.pi, OLDER_PI],
    ],
    ["--limit 2: the newest two", () => ["--limit", "2"], (f) => f.app, APP.slice(0, 2)],
    ["--limit larger than the list: all of it", () => ["--limit", "50"], (f) => f.app, APP],
    ["--limit with --all", () => ["--all", "--limit", "1"], (f) => f.empty, [IDS.app["claude-code"]]],
    [
      "--since an ISO time: those updated then or later",
      () => ["--since", new Date((T0 + 20) * 1000).toISOString()],
      (f) => f.app,
      appSince(20),
    ],
    ["--since a duration longer than they are old: all", () => ["--since", "100000d"], (f) => f.app, APP],
    [
      "--since and --limit together",
      () => ["--since", new Date((T0 + 10) * 1000).toISOString(), "--limit", "3"],
      (f) => f.app,
      appSince(10).slice(0, 3),
    ],
    ["a folder, --agent and --limit", (f) => [f.app, "--agent", "pi", "--limit", "1"], (f) => f.empty, [IDS.app.pi]],
  ])("%s", async (_, args, cwd, expected) => {
    expect(await ids(args(fake), cwd(fake))).toEqual(expected);
  });

  test("--since leaving every session out: an empty list, and a line saying how many are older", async () => {
    const run = await runAgent(["ls", "--json", "--since", "30m"], fake.env(), fake.app);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: "[]\n" });
    expect(run.stderr).toMatch(/^no session updated since \d{4}-\d\d-\d\dT[\d:.]+Z worked in /);
    expect(run.stderr).toContain(`; --since leaves out ${APP.length} older; agent ls --all lists every folder's\n`);
  });

  test.each<[string, (f: FakeHome) => string[], (f: FakeHome) => string]>([
    [
      "a folder and --all",
      (f) => [f.app, "--all"],
      (f) => `error: give a folder or --all, not both (${f.app} and --all) (see agent ls --help)\n`,
    ],
    ["a folder that is not there", (f) => [join(f.home, "nowhere")], (f) => `error: ${join(f.home, "nowhere")}: no such folder\n`],
    [
      "a session file, not a folder",
      (f) => [f.paths[IDS.app.pi] ?? ""],
      (f) => `error: ${f.paths[IDS.app.pi]}: not a folder (agent inspect ${f.paths[IDS.app.pi]} shows a session file)\n`,
    ],
    [
      "--limit 0",
      () => ["--limit", "0"],
      () => 'error: --limit takes a whole number of sessions, at least 1, not "0" (see agent ls --help)\n',
    ],
    [
      "--since a word",
      () => ["--since", "yesterday"],
      () => 'error: --since takes a duration (30m, 2h, 7d) or an ISO date (2026-07-01), not "yesterday" (see agent ls --help)\n',
    ],
    [
      "--since a duration further back than a date reaches",
      () => ["--since", "99999999999d"],
      () =>
        "error: --since 99999999999d reaches back further than a date can (about 270,000 years); give a shorter duration or an ISO date (see agent ls --help)\n",
    ],
  ])("%s: exit 2, one line", async (_, args, message) => {
    const run = await runAgent(["ls", ...args(fake)], fake.env(), fake.app);
    expect(run).toEqual({ code: 2, stdout: "", stderr: message(fake) });
  });
});

describe("--since and --limit, as read", () => {
  const NOW = Date.parse("2026-12-01T12:00:00.000Z");
  test.each<[string, number]>([
    ["90s", NOW - 90_000],
    ["30m", NOW - 30 * 60_000],
    ["2h", NOW - 2 * 3_600_000],
    ["7d", NOW - 7 * 86_400_000],
    ["2w", NOW - 14 * 86_400_000],
    ["7D", NOW - 7 * 86_400_000],
    [" 2h ", NOW - 2 * 3_600_000],
    ["2026-07-01T09:30:00Z", Date.UTC(2026, 6, 1, 9, 30)],
    ["2026-07-01T09:30:00.250Z", Date.UTC(2026, 6, 1, 9, 30, 0, 250)],
    ["2026-07-01T09:30+02:00", Date.UTC(2026, 6, 1, 7, 30)],
    ["2026-07-01T09:30+0200", Date.UTC(2026, 6, 1, 7, 30)],
    // No zone: local time, as `git log --since` reads it.
    ["2026-07-01", new Date(2026, 6, 1).getTime()],
    ["2026-07-01 09:30", new Date(2026, 6, 1, 9, 30).getTime()],
    ["2024-02-29", new Date(2024, 1, 29).getTime()],
  ])("--since %p", (text, expected) => {
    expect(parseSince(text, NOW)).toBe(expected);
  });

  test.each([
    ...["", "yesterday", "7", "d", "-7d", "7 days", "2026-02-31", "2025-02-29", "2026-13-01", "2026-7-1", "July 1", "1e3m"],
    // Further back than a date reaches: a usage error, never a RangeError when the time is printed.
    ...["99999999999d", "100000000000000s", `${"9".repeat(400)}s`, "15000000w", "2000000000000h", "146000000000m"],
  ])("--since %p is a usage error", (text) => {
    let thrown: unknown;
    try {
      parseSince(text, NOW);
    } catch (error) {
      thrown = error;
    }
    expect(isAgentError(thrown) && thrown.code).toBe("USAGE");
  });

  test.each<[string, number | undefined]>([
    ["1", 1],
    ["20", 20],
    [" 3 ", 3],
    ["0", undefined],
    ["-1", undefined],
    ["1.5", undefined],
    ["1e2", undefined],
    ["ten", undefined],
    ["99999999999999999999", undefined],
  ])("--limit %p", (text, expected) => {
    if (expected !== undefined) expect(parseLimit(text)).toBe(expected);
    else expect(() => parseLimit(text)).toThrow("--limit takes a whole number of sessions, at least 1");
  });

  test("an empty value is the default, as for every flag with a value", () => {
    expect(resolveLsOptions({ limit: "", since: "" }, NOW)).toMatchObject({ limit: undefined, sinceMs: undefined, folder: undefined });
  });
});
