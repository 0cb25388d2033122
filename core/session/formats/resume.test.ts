/**
 * The facts discovery and continuing rest on, per format: which files under an agent's root are
 * its sessions, whether a cwd's sessions are all in one folder, and the command that continues a
 * session file (checked against the real agents by `bun run compat`).
 */
import { describe, expect, test } from "bun:test";
import { formatNamed } from "./table.ts";
import type { AgentHome, AgentName, ResumeTarget } from "./types.ts";

const HOME: AgentHome = { home: "/home/me", env: {}, tmpdir: "/tmp", runFolder: "/home/me" };
const ID = "0b5e2d55-6d1f-4d3c-9a3f-5a2e1c0d9b8a";

describe("which files are sessions, and how deep", () => {
  test.each<[AgentName, number, string[], string[]]>([
    ["pi", 1, ["2026-11-30T10-00-00-000Z_x.jsonl", "anything.jsonl"], ["notes.txt", "x.jsonl.bak", "x.json"]],
    ["omp", 1, ["2026-11-30T10-00-00-000Z_x.jsonl"], ["x.jsonl.lock", "models.yml"]],
    ["claude-code", 1, [`${ID}.jsonl`, `${ID.toUpperCase()}.jsonl`], ["agent-a1.jsonl", "summary.jsonl", `${ID}.json`]],
    [
      "codex",
      3,
      [`rollout-2026-11-30T10-00-00-${ID}.jsonl`, `rollout-2026-11-30T10-00-00-${ID}.jsonl.zst`],
      [`${ID}.jsonl`, "history.jsonl", "state_5.sqlite"],
    ],
  ])("%s: %p folders down; sessions %p; not %p", (agent, folders, yes, no) => {
    const layout = formatNamed(agent).location.sessionFiles(HOME);
    expect(layout.folders).toBe(folders);
    for (const name of yes) expect([name, layout.isSessionName(name)]).toEqual([name, true]);
    for (const name of no) expect([name, layout.isSessionName(name)]).toEqual([name, false]);
  });

  test("pi with PI_CODING_AGENT_SESSION_DIR keeps every session in that one folder", () => {
    const home = { ...HOME, env: { PI_CODING_AGENT_SESSION_DIR: "~/all-sessions" } };
    expect(formatNamed("pi").location.sessionFiles(home).folders).toBe(0);
    expect(formatNamed("pi").location.sessionsRoot(home)).toEqual(["/home/me/all-sessions"]);
  });

  test("every agent but Codex keeps a cwd's sessions in one folder named after it", () => {
    expect(["pi", "omp", "claude-code", "codex"].map((name) => formatNamed(name as AgentName).location.filesByCwd)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe("the command that continues a session", () => {
  const target = (overrides: Partial<ResumeTarget>): ResumeTarget => ({
    sessionId: ID,
    path: "/s/x.jsonl",
    cwd: "/home/me/app",
    underRoot: undefined,
    env: {},
    ...overrides,
  });
  test.each<[string, AgentName, Partial<ResumeTarget>, { argv: string[]; cwd: string | undefined } | undefined]>([
    [
      "pi: by its path, anywhere",
      "pi",
      { path: "/any/where/x.jsonl" },
      { argv: ["pi", "--session", "/any/where/x.jsonl"], cwd: "/home/me/app" },
    ],
    [
      "omp: by its path (omp's --resume takes one)",
      "omp",
      { path: "/any/where/x.jsonl" },
      { argv: ["omp", "--resume", "/any/where/x.jsonl"], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by id, in the cwd, when the file is in that cwd's project folder",
      "claude-code",
      { path: `/home/me/.claude/projects/-home-me-app/${ID}.jsonl`, underRoot: ["-home-me-app", `${ID}.jsonl`] },
      { argv: ["claude", "--resume", ID], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by id, in the cwd, when the file is in the folder CLAUDE_CODE_PROJECT_DIR_NAME names",
      "claude-code",
      {
        path: `/cfg/projects/shop/${ID}.jsonl`,
        underRoot: ["shop", `${ID}.jsonl`],
        env: { CLAUDE_CONFIG_DIR: "/cfg", CLAUDE_CODE_PROJECT_DIR_NAME: "shop" },
      },
      { argv: ["claude", "--resume", ID], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by id, in the cwd's own folder, which it still reads when another is named",
      "claude-code",
      {
        path: `/cfg/projects/-home-me-app/${ID}.jsonl`,
        underRoot: ["-home-me-app", `${ID}.jsonl`],
        env: { CLAUDE_CONFIG_DIR: "/cfg", CLAUDE_CODE_PROJECT_DIR_NAME: "shop" },
      },
      { argv: ["claude", "--resume", ID], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by its path when the folder is named so but CLAUDE_CONFIG_DIR is not set (the name is ignored)",
      "claude-code",
      {
        path: `/home/me/.claude/projects/shop/${ID}.jsonl`,
        underRoot: ["shop", `${ID}.jsonl`],
        env: { CLAUDE_CODE_PROJECT_DIR_NAME: "shop" },
      },
      { argv: ["claude", "--resume", `/home/me/.claude/projects/shop/${ID}.jsonl`], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by its path when it lies in another project's folder",
      "claude-code",
      { path: `/p/-home-me-other/${ID}.jsonl`, underRoot: ["-home-me-other", `${ID}.jsonl`] },
      { argv: ["claude", "--resume", `/p/-home-me-other/${ID}.jsonl`], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by its path when it lies outside Claude Code's folder",
      "claude-code",
      { path: "/tmp/x.jsonl" },
      { argv: ["claude", "--resume", "/tmp/x.jsonl"], cwd: "/home/me/app" },
    ],
    [
      "Claude Code: by its path when the session names no cwd",
      "claude-code",
      { cwd: undefined, path: `/p/-/${ID}.jsonl`, underRoot: ["-", `${ID}.jsonl`] },
      { argv: ["claude", "--resume", `/p/-/${ID}.jsonl`], cwd: undefined },
    ],
    [
      "Codex: by id, under its sessions folder",
      "codex",
      { underRoot: ["2026", "11", "30", `rollout-x-${ID}.jsonl`] },
      { argv: ["codex", "resume", ID], cwd: "/home/me/app" },
    ],
    ["Codex: none for a file outside it (Codex takes no path)", "codex", { underRoot: undefined }, undefined],
  ])("%s", (_, agent, overrides, command) => {
    expect(formatNamed(agent).resumeCommand(target(overrides))).toEqual(command);
  });
});
