/**
 * A setting that takes a word from a list takes it in any case, from a flag, the environment
 * or the config file alike (one parser per setting, cli/flags/choice.ts), and reports it as the list
 * spells it. Spawned; what is checked is what `--json` and the exit code say.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { EXAMPLE } from "../agents/agent-engines.testing.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** Each engine word, as the list spells it, and typed in another case. */
const ENGINES: [typed: string, spelled: string][] = [
  ["AUTO", "auto"],
  ["Llm", "llm"],
  ["OFFLINE", "offline"],
  ["Offline", "offline"],
  ["CLAUDE", "claude-code"],
  ["Claude-Code", "claude-code"],
  ["CODEX", "codex"],
  ["Pi", "pi"],
  ["OMP", "omp"],
];

function writeConfig(line: string): void {
  const folder = join(sandbox.home, ".config", "agent");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "config.toml"), `${line}\n`);
}

describe("--engine, AGENT_ENGINE and engine = in any case", () => {
  test.each(ENGINES)("--engine %s is %s", async (typed, spelled) => {
    const run = await runAgent(
      ["handoff", EXAMPLE, "--no-record", "--dry-run", "--json", "-m", "x", "--base-url", "http://127.0.0.1:9/v1", "--engine", typed],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    const engine = JSON.parse(run.stdout).engine;
    expect(spelled === "auto" ? ["llm", "offline"] : [spelled]).toContain(engine);
  });

  test.each(ENGINES)("AGENT_ENGINE=%s and engine = %p in the config file: %s", async (typed, spelled) => {
    const fromEnv = await runAgent(["config", "--json"], cleanEnv(sandbox.home, { AGENT_ENGINE: typed }));
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout).settings.engine).toMatchObject({ value: spelled, source: "env" });
    writeConfig(`engine = "${typed}"`);
    const fromFile = await runAgent(["config", "--json"], cleanEnv(sandbox.home));
    expect(fromFile.code).toBe(0);
    expect(JSON.parse(fromFile.stdout).settings.engine).toMatchObject({ value: spelled, source: "file" });
  });
});

describe("every other setting from a list follows the same rule", () => {
  test.each([
    ["--to", ["--to", "CLAUDE"], {}, (out: { sessionFormat?: string }) => out.sessionFormat, "claude-code"],
    ["AGENT_TO", [], { AGENT_TO: "Codex" }, (out: { sessionFormat?: string }) => out.sessionFormat, "codex"],
    // --provider shows in no --json of a dry run: its exit status says it was taken.
    ["--provider", ["--provider", "OpenAI"], {}, (out: { provider?: string }) => out.provider, undefined],
    ["AGENT_PROVIDER", [], { AGENT_PROVIDER: "AUTO" }, (out: { provider?: string }) => out.provider, undefined],
  ] as const)("%s in another case", async (_name, args, env, pick, expected) => {
    const run = await runAgent(
      ["handoff", EXAMPLE, "--no-record", "--json", "--engine", "offline", "-o", join(sandbox.dir, "new.jsonl"), ...args],
      cleanEnv(sandbox.home, { ...env }),
    );
    expect(run.stderr).not.toContain("error");
    expect(run.code).toBe(0);
    if (expected !== undefined) expect(pick(JSON.parse(run.stdout))).toBe(expected);
  });

  test.each(["BASH", "Zsh", "fish"])("completion %s", async (shell) => {
    const run = await runAgent(["completion", shell], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("agent");
  });

  test.each(["constructor", "toString", "__proto__"])("completion %s: a word no list holds, exit 2", async (shell) => {
    const run = await runAgent(["completion", shell], cleanEnv(sandbox.home));
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 2,
      stderr: `error: argument <shell> takes bash, zsh or fish, not "${shell}" (see agent completion --help)\n`,
    });
  });
});
