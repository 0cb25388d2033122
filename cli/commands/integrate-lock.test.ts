import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnAgent } from "../../fixtures/run-agent.ts";
import { integrate, integrateHomes } from "./integrate.testing.ts";

/** Two `agent integrate` at once: one waits for the other's lock, neither's change is lost, nothing is half-written. */

const { freshHome } = integrateHomes("integrate-lock");
const AGENTS = ["claude-code", "codex", "pi", "omp"] as const;

/** Every file and folder under `dir`, path → bytes ("" for a folder). */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const path = join(dir, name);
    try {
      out[name] = readFileSync(path, "latin1");
    } catch {
      out[`${name}/`] = "";
    }
  }
  return out;
}

const LOCK = ".local/state/agent/integrations.json.lock";

/** The state folder with a lock in it holding `pid`. */
function plantLock(home: string, content: string) {
  mkdirSync(join(home, ".local/state/agent"), { recursive: true });
  writeFileSync(join(home, LOCK), content);
}

/** A pid no process has any more. */
function deadPid(): number {
  const proc = Bun.spawnSync(["/bin/sh", "-c", "echo $$"]);
  return Number(proc.stdout.toString().trim());
}

describe("agent integrate: two at once", () => {
  test("four in-process runs on one home: every agent installed, all remembered; four uninstalls give back the home", async () => {
    const { home, env } = freshHome();
    const results = await Promise.all(AGENTS.map((agent) => integrate([agent], env)));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const status = await integrate(["--status"], env);
    for (const agent of AGENTS) expect(status.stdout).toContain(`${agent}: installed, current\n`);
    const memory = JSON.parse(readFileSync(join(home, ".local/state/agent/integrations.json"), "utf8"));
    expect(Object.keys(memory)).toContain(join(home, ".claude/settings.json"));
    expect(Object.keys(memory)).toContain(join(home, ".codex/hooks.json"));
    expect(existsSync(join(home, LOCK))).toBe(false);

    const removed = await Promise.all(AGENTS.map((agent) => integrate([agent, "--uninstall"], env)));
    expect(removed.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(files(home)).toEqual({});
  });

  // In one process the runs overlap only where they wait; four processes overlap truly (without the lock this fails: a memory entry or a file is lost).
  test("four processes at once on one home: the same", async () => {
    const { home, env } = freshHome();
    const results = await Promise.all(AGENTS.map((agent) => spawnAgent(["integrate", agent], env)));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const status = await spawnAgent(["integrate", "--status"], env);
    for (const agent of AGENTS) expect(status.stdout).toContain(`${agent}: installed, current\n`);
    const removed = await Promise.all(AGENTS.map((agent) => spawnAgent(["integrate", agent, "--uninstall"], env)));
    expect(removed.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(files(home)).toEqual({});
  }, 60_000);

  test("a lock held by a live process: one line, exit 1, nothing written", async () => {
    const { home, env } = freshHome();
    const holder = Bun.spawn(["sleep", "30"]);
    try {
      plantLock(home, `${holder.pid}\n`);
      const before = files(home);
      const result = await integrate(["claude-code"], env);
      expect(result).toEqual({
        code: 1,
        stdout: "",
        stderr: `error: another agent integrate (pid ${holder.pid}) holds ${join(home, LOCK)}: run this again once it has ended; nothing was changed\n`,
      });
      expect(files(home)).toEqual(before);
    } finally {
      holder.kill();
    }
  }, 15_000);

  test("a lock left by a process that is gone: taken over, installed, no lock left", async () => {
    const { home, env } = freshHome();
    plantLock(home, `${deadPid()}\n`);
    expect((await integrate(["codex"], env)).code).toBe(0);
    expect(existsSync(join(home, ".codex/hooks.json"))).toBe(true);
    expect(existsSync(join(home, LOCK))).toBe(false);
  });

  test("something else where the lock goes: one line naming it, nothing written", async () => {
    const { home, env } = freshHome();
    mkdirSync(join(home, LOCK), { recursive: true });
    const before = files(home);
    const result = await integrate(["codex"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${join(home, LOCK)}: is a directory, not a lock of agent integrate; move it away; nothing was changed\n`,
    );
    expect(files(home)).toEqual(before);
  });

  test("--status takes no lock: it answers while one is held", async () => {
    const { home, env } = freshHome();
    plantLock(home, `${process.pid}\n`);
    const result = await integrate(["--status"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("claude-code: not installed\n");
  });
});
