/** What the agent engine's end-to-end tests share: a folder per test with the fake agents on a PATH of its own, a HOME, a TMPDIR, and what each fake run recorded. */
import { afterEach, beforeEach } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installFakeAgents } from "../../fixtures/fake-agents.ts";
import { REPO } from "../../fixtures/run-agent.ts";

export const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

/** What one run of a fake agent was given. */
export interface FakeRun {
  agent: string;
  argv: string[];
  cwd: string;
  /** Its TMPDIR. */
  tmpdir: string;
  /** The files in the folder it ran in, by name. */
  scratch: Record<string, string>;
  stdin: string;
  pid: number;
  env: Record<string, string>;
}

export interface AgentSandbox {
  readonly root: string;
  /** The PATH folder holding the fake claude, codex, pi and omp. */
  readonly bin: string;
  readonly home: string;
  readonly tmp: string;
  /** Where sources are copied and new sessions go. */
  readonly dir: string;
  env(extra?: Record<string, string>): Record<string, string>;
  source(fixture?: string): string;
  runs(): FakeRun[];
}

export function useAgentSandbox(): AgentSandbox {
  let root = "";
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "agent-engines-"));
    installFakeAgents(join(root, "bin"));
    for (const folder of ["home", "tmp", "work"]) mkdirSync(join(root, folder));
  });
  afterEach(() => {
    // The helpers a fake left running on purpose (in a session of their own).
    const helpers = existsSync(join(root, "log")) ? readdirSync(join(root, "log")).filter((f) => f.startsWith("helper-")) : [];
    for (const helper of helpers) killQuietly(Number(helper.slice("helper-".length)));
    rmSync(root, { recursive: true, force: true });
  });
  const log = () => join(root, "log");
  return {
    get root() {
      return root;
    },
    get bin() {
      return join(root, "bin");
    },
    get home() {
      return join(root, "home");
    },
    get tmp() {
      return join(root, "tmp");
    },
    get dir() {
      return join(root, "work");
    },
    env(extra = {}) {
      return {
        PATH: `${join(root, "bin")}:/usr/bin:/bin`,
        HOME: join(root, "home"),
        TMPDIR: join(root, "tmp"),
        NO_COLOR: "1",
        FAKE_AGENT_LOG: log(),
        ...extra,
      };
    },
    source(fixture = EXAMPLE) {
      const path = join(root, "work", "source.jsonl");
      writeFileSync(path, readFileSync(fixture));
      return path;
    },
    runs() {
      if (!existsSync(log())) return [];
      return readdirSync(log())
        .filter((f) => f.endsWith(".json"))
        .map((f) => JSON.parse(readFileSync(join(log(), f), "utf8")) as FakeRun);
    },
  };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}
