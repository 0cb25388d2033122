/**
 * A session newer than the one picked that could not be read (a Codex rollout `sudo codex` left
 * to root) is named at normal verbosity, and the run goes on with the newest it could read.
 *
 * Unreadable for real: as a user who may not read the file. Root reads everything, so when the
 * tests run as root the CLI runs as `nobody` (setpriv), in a home that user owns, and the file is
 * left to root with mode 600, exactly as `sudo codex` leaves one; otherwise the file is mode 000.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FileAgentName } from "../../core/index.ts";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { cleanEnv, type AgentRun } from "../../fixtures/run-agent.ts";
import type { FoundSession, Unreadable } from "./found-session.ts";
import { chooseNewest } from "./newest-session.ts";
import { describeFormats, formatNamed } from "../../core/index.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const IS_ROOT = process.getuid?.() === 0;
const HAS_SETPRIV = Bun.spawnSync(["setpriv", "--version"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const NOBODY = 65534;
/** Seconds since the epoch: the planted sessions are an hour apart from here. */
const T0 = 1_789_900_000;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) {
    // A folder left unreadable (mode 000) could not be removed by its owner otherwise.
    Bun.spawnSync(["chmod", "-R", "u+rwx", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A home with sessions planted by `plant`; the CLI then runs in `project`, as a user who may not read what `hide` names. */
function setUp(plant: (at: (agent: FileAgentName, id: string, hoursLater: number) => string, project: string) => string[]) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-unreadable-")));
  made.push(home);
  const project = join(home, "work", "app");
  mkdirSync(project, { recursive: true });
  const agentHome = { home, env: {}, tmpdir: realpathSync(tmpdir()), runFolder: home };
  const at = (agent: FileAgentName, id: string, hoursLater: number) =>
    plantSession(agentHome, { agent, id, cwd: project, mtime: T0 + hoursLater * 3600 });
  const hidden = plant(at, project);
  if (IS_ROOT) Bun.spawnSync(["chown", "-R", `${NOBODY}:${NOBODY}`, home]);
  for (const path of hidden) {
    // What `sudo codex` leaves: root's, readable by root alone (a folder: root's, mode 700).
    if (IS_ROOT) Bun.spawnSync(["chown", "0:0", path]);
    chmodSync(path, IS_ROOT ? 0o600 : 0o000);
  }
  const run = async (args: string[]): Promise<AgentRun> => {
    const asUser = IS_ROOT ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"] : [];
    const proc = Bun.spawn([...asUser, ...CLI_ARGV, ...args], {
      env: cleanEnv(home),
      cwd: project,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  };
  return { home, project, run };
}

const OLD = "01a22c83-0000-4000-8000-00000000000a";
const NEW = "01a22c83-0000-4000-8000-00000000000b";

describe.skipIf(IS_ROOT && !HAS_SETPRIV)("a session newer than the one picked that could not be read", () => {
  test.each<[string, string[]]>([
    ["agent handoff", ["handoff", "--dry-run", "--engine", "offline"]],
    ["agent handoff -q (a warning still shows)", ["handoff", "--dry-run", "--engine", "offline", "-q"]],
    ["agent inspect", ["inspect", "--json"]],
  ])("a Codex rollout left to root: %s names it at normal verbosity, then goes on with the newest it could read", async (_, args) => {
    let newer = "";
    let older = "";
    const { run } = setUp((at) => {
      older = at("codex", OLD, 0);
      newer = at("codex", NEW, 48);
      return [newer];
    });
    const result = await run(args);
    expect(result.code).toBe(0);
    const lines = result.stderr.split("\n");
    expect(lines[0]).toBe(`warning: ${newer} is newer than the session chosen, but cannot be read (permission denied): left out`);
    if (!args.includes("-q"))
      expect(lines[1]).toStartWith(`${args[0] === "inspect" ? "Inspecting" : "Handing off"} the newest Codex session ${OLD}, updated `);
    if (args[0] === "inspect") expect(JSON.parse(result.stdout).file).toBe(older);
  });

  test("a pi session file in the folder's own folder, newer than a Claude Code session: named", async () => {
    let newer = "";
    const { run } = setUp((at) => {
      at("claude-code", OLD, 0);
      newer = at("pi", NEW, 1);
      return [newer];
    });
    const result = await run(["handoff", "--dry-run", "--engine", "offline"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toStartWith(
      `warning: ${newer} is newer than the session chosen, but cannot be read (permission denied): left out\n`,
    );
    expect(result.stderr).toContain(`Handing off the newest Claude Code session ${OLD}, updated `);
  });

  test.each<[string, number]>([
    ["changed after the pick was written", 3],
    // A folder's time moves only when a file is added or removed: an old one can hold today's session.
    ["unchanged since long before the pick", -48],
  ])("the folder's Claude Code project folder, %s: named, its sessions left out", async (_, hoursLater) => {
    let folder = "";
    const { run } = setUp((at) => {
      at("pi", OLD, 0);
      folder = dirname(at("claude-code", NEW, 2));
      utimesSync(folder, T0 + hoursLater * 3600, T0 + hoursLater * 3600);
      return [folder];
    });
    const result = await run(["handoff", "--dry-run", "--engine", "offline"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toStartWith(
      `warning: ${folder} cannot be read (permission denied): the sessions in it are left out, and one may be newer than the session chosen\n`,
    );
    expect(result.stderr).toContain(`Handing off the newest pi session ${OLD}, updated `);
  });

  test("one older than the pick: no warning, named at -v only", async () => {
    let older = "";
    const { run } = setUp((at) => {
      older = at("codex", OLD, 0);
      at("codex", NEW, 48);
      return [older];
    });
    const quiet = await run(["handoff", "--dry-run", "--engine", "offline"]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain("warning:");
    expect(quiet.stderr).toContain(`Handing off the newest Codex session ${NEW}, updated `);
    const verbose = await run(["handoff", "--dry-run", "--engine", "offline", "-v"]);
    expect(verbose.stderr).toContain(`debug: ${older}: cannot read this file (permission denied); left out\n`);
  });

  test("the only session unreadable: exit 2, and the message says which file could not be read", async () => {
    let only = "";
    const { run, project } = setUp((at) => {
      only = at("codex", NEW, 0);
      return [only];
    });
    const result = await run(["handoff", "--dry-run", "--engine", "offline"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: "" });
    expect(result.stderr).toStartWith(`error: no session of ${describeFormats()} worked in ${project} (looked in `);
    expect(result.stderr).toContain(`; could not read ${only} (permission denied); name a session file`);
  });
});

describe("the choice keeps what it could not read that may be newer (the rule, without a file system)", () => {
  const session = (mtimeMs: number): FoundSession => ({
    format: formatNamed("codex"),
    path: `/s/${mtimeMs}.jsonl`,
    bytes: 1,
    textBytes: 1,
    mtimeMs,
    glance: { id: String(mtimeMs), cwd: "/w", title: undefined, firstRequest: "Fix the typo." },
  });
  const unreadable = (mtimeMs: number | undefined, folder = false): Unreadable => ({
    path: `/u/${mtimeMs}`,
    folder,
    mtimeMs,
    reason: "permission denied",
  });

  test.each<[string, number[], (number | undefined)[], (number | undefined)[]]>([
    ["newer kept, older dropped", [20, 10], [30, 5], [30]],
    ["a time that cannot be told is kept", [20], [undefined], [undefined]],
    ["the same time as the pick is not newer", [20], [20], []],
    ["nothing picked: all of it", [], [30, 5], [30, 5]],
  ])("%s", (_, sessions, unreadables, kept) => {
    const choice = chooseNewest(
      sessions.map(session),
      unreadables.map((u) => unreadable(u)),
    );
    expect(choice.pick?.mtimeMs).toBe(sessions[0]);
    expect(choice.newerUnreadable.map((u) => u.mtimeMs)).toEqual(kept);
  });

  test.each<[string, number | undefined]>([
    ["older than the pick", 5],
    ["as old as the pick", 20],
    ["newer", 30],
    ["of a time that cannot be told", undefined],
  ])("a folder that cannot be read is kept whatever its time: %s", (_, mtimeMs) => {
    const choice = chooseNewest([session(20)], [unreadable(mtimeMs, true)]);
    expect(choice.newerUnreadable.map((u) => [u.folder, u.mtimeMs])).toEqual([[true, mtimeMs]]);
  });
});
