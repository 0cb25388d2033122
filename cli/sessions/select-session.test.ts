/**
 * Every command that names a session takes the same selectors, through one resolver
 * (cli/sessions/find-session.ts): a word that is a file or a folder there, else an id or the start of one;
 * `--session`; `--agent`; nothing (the newest session of the current folder). A table over
 * commands × selectors, in a fake HOME holding sessions of every agent (discover.testing.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { runAgent } from "../../fixtures/run-agent.ts";
import { describeFormats } from "../../core/index.ts";
import { createFakeHome, IDS, idsStartingWith, type FakeHome } from "./discover.testing.ts";
import { rmSync } from "node:fs";

let fake: FakeHome;
beforeAll(() => {
  fake = createFakeHome();
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

/** Each command, run so that it reads the session and says which file it read, writing nothing. */
const COMMANDS: Record<string, { args: string[]; fileRead: (stdout: string) => string | undefined }> = {
  handoff: {
    args: ["handoff", "--dry-run", "--engine", "offline"],
    // The offline document's Session Facts name the file handed off (a row session's: its id, then its database).
    fileRead: (stdout) => /^- Source session: (?:`[^`]*` in [^`]*, )?`(.*)`$/m.exec(stdout)?.[1],
  },
  inspect: { args: ["inspect", "--json"], fileRead: (stdout) => JSON.parse(stdout).file },
};

type Where = "app" | "other" | "empty";

/** [selector, the words, the folder it runs in, the session it names (by id), whether stderr names the file found]. */
const SELECTORS: [string, (f: FakeHome) => string[], Where, string, boolean][] = [
  ["a session file's path", (f) => [f.paths[IDS.other.omp] ?? ""], "app", IDS.other.omp, false],
  ["nothing: the newest session of the current folder", () => [], "app", IDS.app["claude-code"], true],
  [". : the current folder, named", () => ["."], "app", IDS.app["claude-code"], true],
  ["a project folder: the newest session that worked in it", (f) => [f.other], "empty", IDS.other["claude-code"], true],
  [
    "an agent's folder of session files: the newest file in it",
    (f) => [join(f.paths[IDS.other.pi] ?? "", "..")],
    "empty",
    IDS.other.pi,
    true,
  ],
  ["a whole id as the word", () => [IDS.other.omp], "empty", IDS.other.omp, true],
  ["the start of an id as the word", () => ["b4"], "empty", IDS.other.codex, true],
  ["an id in capitals as the word", () => [IDS.other.pi.toUpperCase()], "empty", IDS.other.pi, true],
  ["--session with the start of an id", () => ["--session", "b4"], "empty", IDS.other.codex, true],
  ["--session narrowed by --agent", () => ["--session", "a", "--agent", "codex"], "empty", IDS.app.codex, true],
  ["the start of an id narrowed by --agent", () => ["a", "--agent", "claude"], "empty", IDS.app["claude-code"], true],
  ["--agent alone: that agent's newest of the current folder", () => ["--agent", "omp"], "app", IDS.app.omp, true],
  ["a folder narrowed by --agent", (f) => [f.other, "--agent", "pi"], "empty", IDS.other.pi, true],
  ["the start of a Gemini CLI session's id as the word", () => ["b5"], "empty", IDS.other.gemini, true],
  ["--agent gemini-cli alone: Gemini CLI's newest of the current folder", () => ["--agent", "gemini-cli"], "app", IDS.app.gemini, true],
  ["a folder narrowed by --agent gemini", (f) => [f.other, "--agent", "gemini"], "empty", IDS.other.gemini, true],
  ["an opencode session's whole id as the word", () => [IDS.other.opencode], "empty", IDS.other.opencode, true],
  ["--agent opencode alone: opencode's newest of the current folder", () => ["--agent", "opencode"], "app", IDS.app.opencode, true],
  ["a folder narrowed by --agent opencode", (f) => [f.other, "--agent", "opencode"], "empty", IDS.other.opencode, true],
];

describe.each(Object.keys(COMMANDS))("agent %s: every selector names the same session", (name) => {
  const command = COMMANDS[name] ?? { args: [], fileRead: () => undefined };
  test.each(SELECTORS)("%s", async (_, words, where, id, named) => {
    const path = fake.paths[id] ?? "";
    const run = await runAgent([...command.args, ...words(fake)], fake.env(), fake[where]);
    expect({ code: run.code, read: command.fileRead(run.stdout) }).toEqual({ code: 0, read: path });
    const verb = name === "handoff" ? "Handing off" : "Inspecting";
    if (named) expect(run.stderr).toContain(`${verb} the `);
    if (named) expect(run.stderr).toContain(`${id}, updated `);
    if (named) expect(run.stderr).toContain(`: ${path}\n`);
  });
});

/** [case, the words, the folder it runs in, the first line of stderr]. */
const REFUSALS: [string, (f: FakeHome) => string[], Where, (f: FakeHome) => string][] = [
  [
    "a word that is no file, no folder and no id's start",
    () => ["ffff"],
    "app",
    (f) =>
      `error: ffff: no such file or folder, and no session of ${describeFormats()} has an id starting with ffff (looked in ${join(f.home, ".pi", "agent", "sessions")}, `,
  ],
  ["a start several ids share", () => ["b"], "app", () => `error: b matches ${idsStartingWith("b").length} sessions; give more of the id:`],
  ["--session and a word", () => ["b4", "--session", "b4"], "app", () => "error: give a session path or --session b4, not both"],
  [
    "--agent with a file",
    (f) => [f.paths[IDS.app.pi] ?? "", "--agent", "pi"],
    "app",
    (f) =>
      `error: --agent picks among the sessions found on this machine, and ${f.paths[IDS.app.pi]} names one file; leave out one of them`,
  ],
  [
    "nothing, where no session worked",
    () => [],
    "empty",
    (f) => `error: no session of ${describeFormats()} worked in ${f.empty} (looked in `,
  ],
];

describe.each(Object.keys(COMMANDS))("agent %s: the same refusals", (name) => {
  const command = COMMANDS[name] ?? { args: [], fileRead: () => undefined };
  test.each(REFUSALS)("%s: exit 2, one message, nothing on stdout", async (_, words, where, message) => {
    const run = await runAgent([...command.args, ...words(fake)], fake.env(), fake[where]);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" });
    expect(run.stderr).toStartWith(message(fake));
  });
});

test("a word that names a missing file (it looks like one) is a missing file, not an id", async () => {
  const run = await runAgent(["inspect", "a1.jsonl"], fake.env(), fake.app);
  expect(run.code).toBe(2);
  expect(run.stderr).toStartWith("error: a1.jsonl: ");
  expect(run.stderr).not.toContain("id starting with");
});
