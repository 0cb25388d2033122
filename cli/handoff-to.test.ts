/**
 * `agent handoff --to`: every source format × every target the table lists (pi and omp today),
 * spawned as a user runs it, with the offline engine (no model, no network) and a HOME of the
 * test's own. Where the file lands, what its first line is, what inspect calls it, and what
 * --json says.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describeFormatNames, FORMATS, type AgentName } from "../core/index.ts";
import { cleanEnv, REPO, runAgent } from "../fixtures/run-agent.ts";
import { filesIn, useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

interface Source {
  fixture: string;
  agent: AgentName;
  cwd: string;
}

/** The sources, each with the agent that wrote it and the cwd in its header (head -c 300 of each). */
const SOURCES: Source[] = [
  { fixture: "fixtures/handoff-markers.jsonl", agent: "pi", cwd: "/home/me/parser" },
  { fixture: "fixtures/sessions/v1.jsonl", agent: "pi", cwd: "/home/dev/users" },
  { fixture: "fixtures/sessions/omp.jsonl", agent: "omp", cwd: "/home/dev/uploader" },
];

/** Where each agent keeps the sessions of a cwd outside HOME and /tmp, under the test's HOME (see core/session/formats/location.test.ts). */
const AGENT_FOLDER: Partial<Record<AgentName, (home: string, cwd: string) => string>> = {
  pi: (home, cwd) => join(home, ".pi", "agent", "sessions", `--${cwd.slice(1).replaceAll("/", "-")}--`),
  omp: (home, cwd) => join(home, ".omp", "agent", "sessions", `--${cwd.slice(1).replaceAll("/", "-")}--`),
};

/** What a new session's first line is, for each target. */
const FIRST_LINE_TYPE: Partial<Record<AgentName, string>> = { pi: "session", omp: "title" };

const TARGETS = FORMATS.map((f) => f.name).filter((name) => AGENT_FOLDER[name] !== undefined);

/** What is in the test's HOME, but for Bun's own cache. */
const ours = (home: string) => readdirSync(home).filter((name) => name !== ".bun");

async function handoff(args: string[], extra: Record<string, string> = {}) {
  const run = await runAgent(["handoff", ...args, "--engine", "offline", "--json"], cleanEnv(sandbox.home, extra));
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : undefined };
}

async function inspectFormat(file: string): Promise<unknown> {
  const run = await runAgent(["inspect", file, "--json"], cleanEnv(sandbox.home));
  return JSON.parse(run.stdout).format;
}

describe("--to × sources: the new session is the target's, where the target looks for it", () => {
  const cases = SOURCES.flatMap((source) => [undefined, ...TARGETS].map((to) => [source.fixture, to ?? "(default)", source, to] as const));
  test.each(cases)("%s --to %s", async (_, __, source, to) => {
    const src = sandbox.source(join(REPO, source.fixture));
    const original = readFileSync(src);
    const run = await handoff([src, ...(to ? ["--to", to] : [])]);
    expect(run.code).toBe(0);
    const target = to ?? source.agent;
    const folder = target === source.agent ? sandbox.dir : (AGENT_FOLDER[target]?.(sandbox.home, source.cwd) ?? "(no folder known)");
    expect(dirname(run.json.sessionFile)).toBe(folder);
    expect(run.json).toMatchObject({ sourceFormat: source.agent, sessionFormat: target, recorded: true });
    const firstLine = JSON.parse(readFileSync(run.json.sessionFile, "utf8").split("\n")[0] ?? "");
    expect(firstLine.type).toBe(FIRST_LINE_TYPE[target]);
    expect(await inspectFormat(run.json.sessionFile)).toBe(target);
    // The source was recorded into, whatever the target: pi and omp sources record.
    expect(readFileSync(src).length).toBeGreaterThan(original.length);
    if (target !== source.agent) {
      // The agent's folders did not exist: created for the user only.
      for (let f = folder; f.startsWith(`${sandbox.home}/`); f = dirname(f)) expect(statSync(f).mode & 0o777).toBe(0o700);
      expect(filesIn(sandbox.dir)).toEqual(["source.jsonl"]);
    }
  });
});

describe("--to, the rest of the rules", () => {
  test("-o wins over the target's folder", async () => {
    const src = sandbox.source(join(REPO, "fixtures/sessions/omp.jsonl"));
    const out = join(sandbox.dir, "mine.jsonl");
    const run = await handoff([src, "--to", "pi", "-o", out]);
    expect(run.json).toMatchObject({ sessionFile: out, sessionFormat: "pi" });
    expect(existsSync(join(sandbox.home, ".pi"))).toBe(false);
  });

  test("the target agent's own overrides: PI_CODING_AGENT_DIR", async () => {
    const src = sandbox.source(join(REPO, "fixtures/sessions/omp.jsonl"));
    const run = await handoff([src, "--to", "pi"], { PI_CODING_AGENT_DIR: join(sandbox.home, "elsewhere") });
    expect(dirname(run.json.sessionFile)).toBe(join(sandbox.home, "elsewhere", "sessions", "--home-dev-uploader--"));
  });

  test("AGENT_TO and the config file's `to` choose the target; the flag wins over both", async () => {
    const src = sandbox.source(join(REPO, "fixtures/handoff-markers.jsonl"));
    const xdg = join(sandbox.home, "xdg");
    await Bun.write(join(xdg, "agent", "config.toml"), 'to = "omp"\n');
    expect((await handoff([src, "--no-record"], { XDG_CONFIG_HOME: xdg })).json.sessionFormat).toBe("omp");
    expect((await handoff([src, "--no-record"], { XDG_CONFIG_HOME: xdg, AGENT_TO: "pi" })).json.sessionFormat).toBe("pi");
    expect((await handoff([src, "--no-record", "--to", "omp"], { AGENT_TO: "pi" })).json.sessionFormat).toBe("omp");
  });

  test("a name no format has: exit 2, the names there are, nothing written", async () => {
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--engine", "offline", "--to", "gemini"], cleanEnv(sandbox.home));
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `error: --to takes ${describeFormatNames()}, not "gemini"\n`]);
    sandbox.expectNothingWritten(src, original);
  });

  test("another agent, and a source that records no cwd: exit 2 before anything is written, saying to use -o", async () => {
    const text = readFileSync(join(REPO, "fixtures/handoff-markers.jsonl"), "utf8").replace(',"cwd":"/home/me/parser"', "");
    expect(text).not.toContain('"cwd"');
    const src = join(sandbox.dir, "source.jsonl");
    writeFileSync(src, text);
    const run = await runAgent(["handoff", src, "--engine", "offline", "--to", "omp"], cleanEnv(sandbox.home));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("error: the session records no working directory, so there is no omp folder for it; say where the new session goes with -o\n");
    sandbox.expectNothingWritten(src, Buffer.from(text));
    expect(ours(sandbox.home)).toEqual([]);
  });

  test("the target's folder cannot be made (a file in the way): exit 1, and no folder of ours is left behind", async () => {
    const src = sandbox.source();
    const original = readFileSync(src);
    writeFileSync(join(sandbox.home, ".omp"), "not a folder");
    const run = await runAgent(["handoff", src, "--engine", "offline", "--to", "omp"], cleanEnv(sandbox.home));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Handoff failed: could not write the new session: ${join(sandbox.home, ".omp", "agent", "sessions", "--home-me-parser--")}: a part of the path is not a folder`);
    sandbox.expectNothingWritten(src, original);
    expect(ours(sandbox.home)).toEqual([".omp"]);
  });

  test("a session read from stdin and handed to its own agent lands in the current folder; to another, in that agent's", async () => {
    const env = cleanEnv(sandbox.home);
    const fixture = join(REPO, "fixtures/handoff-markers.jsonl");
    const same = Bun.spawnSync([process.execPath, join(REPO, "cli", "index.ts"), "handoff", "-", "--engine", "offline", "--json"], { env, cwd: sandbox.dir, stdin: Bun.file(fixture) });
    expect(dirname(JSON.parse(same.stdout.toString()).sessionFile)).toBe(sandbox.dir);
    const other = Bun.spawnSync([process.execPath, join(REPO, "cli", "index.ts"), "handoff", "-", "--engine", "offline", "--json", "--to", "omp"], { env, cwd: sandbox.dir, stdin: Bun.file(fixture) });
    expect(dirname(JSON.parse(other.stdout.toString()).sessionFile)).toBe(join(sandbox.home, ".omp", "agent", "sessions", "--home-me-parser--"));
  });
});
