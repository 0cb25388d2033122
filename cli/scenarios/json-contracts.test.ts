import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CONFIG_JSON_KEYS,
  CONFIG_SETTINGS_JSON_KEYS,
  DRY_RUN_AGENT_JSON_KEYS,
  DRY_RUN_DOCUMENT_JSON_KEYS,
  DRY_RUN_REQUESTS_JSON_KEYS,
  HANDOFF_JSON_KEYS,
  INSPECT_JSON_KEYS,
  LS_SESSION_JSON_KEYS,
} from "../../core/contracts.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

// The contract (core/contracts.ts, and docs/json.md generated from it) against what real runs print:
// each --json output's keys are the contract's, no more and no fewer.
const home = mkdtempSync(join(tmpdir(), "agent-json-contracts-"));
const out = mkdtempSync(join(tmpdir(), "agent-json-contracts-out-"));
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");
mkdirSync(join(home, ".pi", "agent", "sessions", "app"), { recursive: true });
copyFileSync(EXAMPLE, join(home, ".pi", "agent", "sessions", "app", "example.jsonl"));
const env = cleanEnv(home);

const sorted = (keys: readonly string[]) => [...keys].sort();
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

async function printed(args: string[], extra: Record<string, string> = {}): Promise<unknown> {
  const run = await runAgent(args, { ...env, ...extra });
  if (run.code !== 0) throw new Error(`agent ${args.join(" ")}: exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function keysOf(value: unknown): string[] {
  if (!isRecord(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return sorted(Object.keys(value));
}

const LLM = { OPENAI_API_KEY: "sk-test-contracts-0123456789" };

describe("each --json output's keys are its contract's", () => {
  test.each([
    [
      "handoff --json",
      ["handoff", EXAMPLE, "--engine", "offline", "--no-record", "--json", "-o", join(out, "new.jsonl")],
      {},
      HANDOFF_JSON_KEYS,
    ],
    [
      "handoff --dry-run --json (offline)",
      ["handoff", EXAMPLE, "--engine", "offline", "--dry-run", "--json"],
      {},
      DRY_RUN_DOCUMENT_JSON_KEYS,
    ],
    [
      "handoff --dry-run --json (model)",
      ["handoff", EXAMPLE, "--engine", "llm", "-m", "m", "--base-url", "http://127.0.0.1:9/v1", "--dry-run", "--json"],
      LLM,
      DRY_RUN_REQUESTS_JSON_KEYS,
    ],
    [
      "handoff --dry-run --json (agent)",
      ["handoff", EXAMPLE, "--engine", "claude-code", "--dry-run", "--json"],
      {},
      DRY_RUN_AGENT_JSON_KEYS,
    ],
    ["inspect --json", ["inspect", EXAMPLE, "--json"], {}, INSPECT_JSON_KEYS],
    ["config --json", ["config", "--json"], {}, CONFIG_JSON_KEYS],
  ] as const)("%s", async (_, args, extra, keys) => {
    expect(keysOf(await printed([...args], extra))).toEqual(sorted(keys));
  });

  test("config --json: settings", async () => {
    const report = await printed(["config", "--json"]);
    expect(keysOf(isRecord(report) ? report.settings : undefined)).toEqual(sorted(CONFIG_SETTINGS_JSON_KEYS));
  });

  test("ls --json: each session's keys without --long, and with `messages` with it", async () => {
    const [short, long] = await Promise.all([printed(["ls", "--all", "--json"]), printed(["ls", "--all", "--json", "--long"])]);
    if (!Array.isArray(short) || !Array.isArray(long) || short.length !== 1 || long.length !== 1) throw new Error("expected one session");
    expect(keysOf(long[0])).toEqual(sorted(LS_SESSION_JSON_KEYS));
    expect(keysOf(short[0])).toEqual(sorted(LS_SESSION_JSON_KEYS.filter((key) => key !== "messages")));
  });
});
