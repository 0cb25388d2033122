/**
 * A fake HOME for the discovery tests: sessions of every agent in the format table for two project folders,
 * with known modification times, and the files a walk must pass over (subagents' transcripts,
 * files that are no sessions, links out of an agent's folder and in a loop).
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentName, FORMATS } from "../../core/index.ts";
import { plantSession, transcriptAs } from "../../fixtures/agent-homes.ts";
import { cleanEnv } from "../../fixtures/run-agent.ts";

/** Seconds since the epoch: the planted sessions are from 2026-09-20 on, ten seconds apart. */
export const T0 = 1_789_900_000;

export interface FakeHome {
  home: string;
  /** Two projects with sessions, and one without. */
  app: string;
  other: string;
  empty: string;
  /** Each planted session's path, by id. */
  paths: Record<string, string>;
  env(extra?: Record<string, string>): Record<string, string>;
}

/**
 * `<folder letter><agent digit>…`: ids that tell at a glance whose and which folder's they are
 * (UUIDs, as the agents that keep files make them; opencode's are its own `ses_…`).
 */
export const IDS = {
  app: {
    pi: "a1000000-0000-4000-8000-000000000001",
    omp: "a2000000-0000-4000-8000-000000000002",
    "claude-code": "a3000000-0000-4000-8000-000000000003",
    codex: "a4000000-0000-4000-8000-000000000004",
    gemini: "a5000000-0000-4000-8000-000000000005",
    opencode: "ses_a60000000006AppOpencode000",
  },
  other: {
    pi: "b1000000-0000-4000-8000-000000000001",
    omp: "b2000000-0000-4000-8000-000000000002",
    "claude-code": "b3000000-0000-4000-8000-000000000003",
    codex: "b4000000-0000-4000-8000-000000000004",
    gemini: "b5000000-0000-4000-8000-000000000005",
    opencode: "ses_b60000000006OtherOpencode0",
  },
} satisfies Record<string, Record<AgentName, string>>;

/**
 * Seconds after T0 each agent's `app` session was last updated: the newest is not the table's
 * first agent, nor its last; `other`'s are 100 s older than all of them, and `app` has an older
 * pi session too (at T0).
 */
const OFFSET: Record<AgentName, number> = {
  "claude-code": 40,
  pi: 30,
  gemini: 25,
  codex: 20,
  opencode: 15,
  omp: 10,
};

/** Every agent of the format table, as their sessions in each folder sort: newest first. */
export const NEWEST_FIRST: readonly AgentName[] = FORMATS.map((format) => format.name).sort((a, b) => OFFSET[b] - OFFSET[a]);

export const OLDER_PI = "a1000000-0000-4000-8000-0000000000ff";

/** `app`'s sessions newest first (the older pi session last), and `other`'s. */
export const APP_IDS: string[] = [...NEWEST_FIRST.map((agent) => IDS.app[agent]), OLDER_PI];
export const OTHER_IDS: string[] = NEWEST_FIRST.map((agent) => IDS.other[agent]);

/** When each planted session was last updated (its file's modification time), in seconds since the epoch, by id. */
export const UPDATED: Readonly<Record<string, number>> = Object.fromEntries([
  ...NEWEST_FIRST.flatMap((agent) => [
    [IDS.app[agent], T0 + OFFSET[agent]],
    [IDS.other[agent], T0 + OFFSET[agent] - 100],
  ]),
  [OLDER_PI, T0],
]);

/** The planted sessions whose id starts with `start` (as `--session <start>` matches them), newest first. */
export function idsStartingWith(start: string): string[] {
  return [...APP_IDS, ...OTHER_IDS].filter((id) => id.startsWith(start));
}

export function createFakeHome(): FakeHome {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-disc-home-")));
  const app = join(home, "work", "app");
  const other = join(home, "work", "other");
  const empty = join(home, "work", "empty");
  for (const dir of [app, other, empty]) mkdirSync(dir, { recursive: true });
  const agentHome = { home, env: {}, tmpdir: realpathSync(tmpdir()), runFolder: home };
  const paths: Record<string, string> = {};
  for (const agent of NEWEST_FIRST) {
    for (const [id, cwd] of [
      [IDS.app[agent], app],
      [IDS.other[agent], other],
    ] as const)
      paths[id] = plantSession(agentHome, { agent, id, cwd, mtime: UPDATED[id] ?? T0 });
  }
  paths[OLDER_PI] = plantSession(agentHome, { agent: "pi", id: OLDER_PI, cwd: app, mtime: T0 });
  plantDecoys(home, paths);
  return { home, app, other, empty, paths, env: (extra = {}) => cleanEnv(home, extra) };
}

/** What a walk must pass over without a word: none of these is a session of its own. */
function plantDecoys(home: string, paths: Record<string, string>): void {
  const claudeProject = join(paths[IDS.app["claude-code"]] ?? "", "..");
  // A subagent's transcript, where Claude Code 2.1.328 keeps them and where older versions did.
  const subagents = join(claudeProject, IDS.app["claude-code"], "subagents");
  mkdirSync(subagents, { recursive: true });
  writeFileSync(
    join(subagents, "agent-a1.jsonl"),
    `${JSON.stringify({ type: "user", isSidechain: true, uuid: "u1", parentUuid: null, sessionId: IDS.app["claude-code"], cwd: "/x", message: { role: "user", content: "sub" } })}\n`,
  );
  writeFileSync(
    join(claudeProject, "agent-a2.jsonl"),
    `${JSON.stringify({ type: "user", isSidechain: true, uuid: "u2", parentUuid: null, sessionId: IDS.app["claude-code"], cwd: "/x", message: { role: "user", content: "sub" } })}\n`,
  );
  // A Codex subagent's rollout (spawn_agent): the same folder and cwd as the user's, its id starting
  // as theirs does, and newer than every session (the user stopped while it ran).
  const codexDay = join(paths[IDS.app.codex] ?? "", "..");
  const subagentId = "a4000000-0000-4000-8000-0000000000aa";
  const subagent = join(codexDay, `rollout-2026-11-30T12-00-09-${subagentId}.jsonl`);
  const spawned = `"source":{"subagent":{"thread_spawn":{"parent_thread_id":"${IDS.app.codex}","depth":1}}},"thread_source":"subagent"`;
  const rollout = transcriptAs("codex", subagentId, join(home, "work", "app"));
  if (!rollout.includes('"source":"exec","thread_source":"user"')) throw new Error("the real Codex rollout no longer names its source");
  writeFileSync(subagent, rollout.replace('"source":"exec","thread_source":"user"', spawned));
  utimesSync(subagent, T0 + 50, T0 + 50);
  // Not sessions: a file that is not JSON, an empty one, a pi file whose first line is no header.
  const piFolder = join(paths[IDS.app.pi] ?? "", "..");
  writeFileSync(join(piFolder, "notes.jsonl"), "not a session\n");
  writeFileSync(join(piFolder, "empty.jsonl"), "");
  writeFileSync(join(piFolder, "message-first.jsonl"), `${JSON.stringify({ type: "message", id: "e1", parentId: null })}\n`);
  // Links: one leading out of the agent's folder, and a loop.
  const outside = join(home, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(
    join(outside, "2026-01-01T00-00-00-000Z_c0000000-0000-4000-8000-000000000000.jsonl"),
    `${JSON.stringify({ type: "session", version: 3, id: "c0000000-0000-4000-8000-000000000000", cwd: join(home, "work", "app") })}\n`,
  );
  symlinkSync(outside, join(home, ".pi", "agent", "sessions", "--linked-out--"));
  symlinkSync(join(outside, "2026-01-01T00-00-00-000Z_c0000000-0000-4000-8000-000000000000.jsonl"), join(piFolder, "linked-out.jsonl"));
  const day = join(paths[IDS.app.codex] ?? "", "..");
  symlinkSync(join(day, "..", ".."), join(day, "loop"));
  symlinkSync(join(home, ".codex", "sessions"), join(home, ".codex", "sessions", "2026", "self"));
}

/** Every agent's sessions root under `home`, in the format table's order, as a message lists the folders it looked in. */
export function everyRoot(home: string): string {
  const place = { home, env: {}, tmpdir: tmpdir(), runFolder: home };
  // An agent that keeps its sessions as rows (opencode) is looked for in its database.
  return FORMATS.map((format) => join(...(format.rows?.database(place) ?? format.location.sessionsRoot(place)))).join(", ");
}
