/**
 * A session whose first line is longer than a glance reads (256 KiB: a Claude Code transcript
 * opening with a huge pasted prompt or bookkeeping line, a Codex rollout whose session_meta
 * carries huge base instructions) is still a session: Claude Code's is listed and chosen from
 * its last lines when they name the folder it lies in; any other is found by the id in its file
 * name, and, when newer than the session chosen, named as one that could not be read.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FileAgentName } from "../../core/index.ts";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";

const T0 = 1_789_900_000;
const OLD = "0a000000-0000-4000-8000-00000000000a";
const LONG = "0b000000-0000-4000-8000-00000000000b";
const LONG_LINE = 300 * 1024;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The file's first line made longer than a glance reads, the rest as it was. */
function lengthenFirstLine(agent: FileAgentName, path: string): void {
  const text = readFileSync(path, "utf8");
  if (agent === "codex") {
    const padded = text.replace('"payload":{', `"payload":{"base_instructions":"${"i".repeat(LONG_LINE)}",`);
    writeFileSync(path, padded);
    return;
  }
  // Claude Code's bookkeeping line (a queued prompt: a session id, no folder), as long as a huge paste.
  const queued = JSON.stringify({ type: "queue-operation", operation: "enqueue", sessionId: LONG, content: "x".repeat(LONG_LINE) });
  writeFileSync(path, `${queued}\n${text}`);
}

interface Case {
  name: string;
  agent: FileAgentName;
  /** The cwd its lines record (the folder it lies in is the project's): another one's when moved. */
  recordsOtherFolder: boolean;
  /** Whether `agent ls` lists it and the no-path choice takes it. */
  listed: boolean;
}

const CASES: Case[] = [
  { name: "Claude Code, in its folder's project folder", agent: "claude-code", recordsOtherFolder: false, listed: true },
  { name: "Claude Code, moved into another project's folder", agent: "claude-code", recordsOtherFolder: true, listed: false },
  { name: "Codex, a 300 KiB session_meta", agent: "codex", recordsOtherFolder: false, listed: false },
];

/** A home with an older ordinary session of `app` and a newer one whose first line is too long. */
function setUp(c: Case) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-long-first-")));
  made.push(home);
  const app = join(home, "work", "app");
  const other = join(home, "work", "other");
  mkdirSync(app, { recursive: true });
  mkdirSync(other, { recursive: true });
  const agentHome = { home, env: {}, tmpdir: home, runFolder: home };
  plantSession(agentHome, { agent: c.agent, id: OLD, cwd: app, mtime: T0 });
  let path = plantSession(agentHome, { agent: c.agent, id: LONG, cwd: c.recordsOtherFolder ? other : app, mtime: T0 });
  if (c.recordsOtherFolder) {
    // Moved: the file lies in app's project folder, its lines say `other`.
    const moved = join(path, "..", "..", app.replace(/[^A-Za-z0-9]/g, "-"), `${LONG}.jsonl`);
    writeFileSync(moved, readFileSync(path));
    rmSync(path);
    path = moved;
  }
  lengthenFirstLine(c.agent, path);
  utimesSync(path, T0 + 3600, T0 + 3600);
  return { env: cleanEnv(home), app, path: realpathSync(path) };
}

describe("a session whose first line is longer than a glance reads", () => {
  test.each(CASES)("$name: agent ls lists it only when its last lines name the folder it lies in", async (c) => {
    const { env, app } = setUp(c);
    const run = await runAgent(["ls", "--json"], env, app);
    expect(run.code).toBe(0);
    const ids: unknown = JSON.parse(run.stdout);
    expect(Array.isArray(ids) ? ids.map((s) => s.id) : ids).toEqual(c.listed ? [LONG, OLD] : [OLD]);
  });

  test.each(CASES)("$name: the no-path choice takes it, or names it as unreadable and newer", async (c) => {
    const { env, app, path } = setUp(c);
    const run = await runAgent(["inspect", "--json"], env, app);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).sessionId).toBe(c.listed ? LONG : OLD);
    if (c.listed) expect(run.stderr).not.toContain("warning:");
    else
      expect(run.stderr).toStartWith(
        `warning: ${path} is newer than the session chosen, but cannot be read (its first line does not end within 256 KiB): left out\n`,
      );
  });

  test.each(CASES)("$name: agent ls <its folder> lists it when its last lines name the folder", async (c) => {
    const { env, app, path } = setUp(c);
    const run = await runAgent(["ls", "--json", dirname(path)], env, app);
    expect(run.code).toBe(0);
    const ids: unknown = JSON.parse(run.stdout);
    expect(Array.isArray(ids) ? ids.map((s) => s.id).sort() : ids).toEqual(c.listed ? [OLD, LONG] : [OLD]);
  });

  test.each(CASES)("$name: found by its id, as a word and with --session, and read whole", async (c) => {
    const { env, app, path } = setUp(c);
    for (const args of [
      ["inspect", LONG.slice(0, 8), "--json"],
      ["inspect", "--session", LONG, "--json"],
    ]) {
      const run = await runAgent(args, env, app);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).file).toBe(path);
    }
  });
});

describe("many newer files that could not be read", () => {
  test("three are named, then one line says how many more (-v names each)", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-long-first-")));
    made.push(home);
    const app = join(home, "work", "app");
    mkdirSync(app, { recursive: true });
    const agentHome = { home, env: {}, tmpdir: home, runFolder: home };
    plantSession(agentHome, { agent: "codex", id: OLD, cwd: app, mtime: T0 });
    const broken = [1, 2, 3, 4, 5].map((n) => {
      const path = plantSession(agentHome, { agent: "codex", id: `0c00000${n}-0000-4000-8000-00000000000c`, cwd: app, mtime: T0 });
      lengthenFirstLine("codex", path);
      utimesSync(path, T0 + n * 60, T0 + n * 60);
      return path;
    });
    const run = await runAgent(["inspect", "--json"], cleanEnv(home), app);
    expect(run.code).toBe(0);
    const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning: "));
    expect(warnings).toHaveLength(4);
    expect(warnings.at(-1)).toBe("warning: and 2 more files or folders newer than the session chosen could not be read (-v names them)");
    const verbose = await runAgent(["inspect", "--json", "-v"], cleanEnv(home), app);
    for (const path of broken) expect(verbose.stderr).toContain(`${path}: its first line does not end within 256 KiB`);
  });
});
