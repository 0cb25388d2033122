/**
 * A display cut (`…`) never prints the start of a secret: the configured key is withheld, and on
 * stderr likely secrets are replaced, on the whole value first; only then is it shortened. Each
 * site quotes a text that repeats the secrets, so wherever its cut falls (whatever the width) it
 * falls inside one of them. Spawned end to end; what is checked is what a user sees.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXAMPLE, useAgentSandbox } from "../agents/agent-engines.testing.ts";
import { cleanEnv, HAS_SCRIPT, runAgent, runOnTerminal } from "../../fixtures/run-agent.ts";
import { chain, user } from "../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const handoffs = useHandoffSandbox();
const agents = useAgentSandbox();

/** A key of no known shape: only withholding stands between it and the output. */
const KEY = "Zq8localproxykey44LmNp0wXyQ7";
/** A likely secret (a GitHub token): replaced on stderr, as a request has it. */
const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

/** `secrets` one after another, a space between, long enough for every cut to fall inside one. */
function repeating(secrets: readonly string[], chars = 3000): string {
  const unit = `${secrets.join(" ")} `;
  return unit.repeat(Math.ceil(chars / unit.length)).trim();
}

/** No 8 characters a secret starts with, anywhere; and the cut did happen (`…`). */
function expectNoSecretStart(printed: string, secrets: readonly string[]): void {
  expect(printed).toContain("…");
  for (const secret of secrets) expect(printed).not.toContain(secret.slice(0, 8));
}

function sessionAsking(dir: string, ask: string): string {
  const path = join(dir, "asks.jsonl");
  writeFileSync(path, chain([user(1, ask)], { cwd: "/work/app" }));
  return path;
}

describe("a shortened field or message shows no start of a secret", () => {
  test.each([0, 3, 7, 11, 19])("inspect's last ask (stdout, cut at 100), the key %i characters in", async (offset) => {
    const src = sessionAsking(handoffs.dir, `${"x".repeat(offset)} ${repeating([KEY])}`);
    const run = await runAgent(["inspect", src], cleanEnv(handoffs.home, { OPENAI_API_KEY: KEY }));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/last ask {2}x* ?\[withheld\]/);
    expectNoSecretStart(run.stdout + run.stderr, [KEY]);
  });

  test.skipIf(!HAS_SCRIPT)("ls on a terminal: the title cut to the width", async () => {
    const sessions = join(handoffs.home, ".pi", "agent", "sessions", "--work-app--");
    mkdirSync(sessions, { recursive: true });
    for (const [i, lead] of ["", "ab ", "abcdefg "].entries())
      writeFileSync(
        join(sessions, `s${i}.jsonl`),
        chain([user(1, `${lead}${repeating([KEY], 600)}`)], { cwd: "/work/app", id: `id-${i}` }),
      );
    const screen = await runOnTerminal(["ls", "--all"], cleanEnv(handoffs.home, { OPENAI_API_KEY: KEY }));
    expect(screen).toContain("[withheld]");
    expectNoSecretStart(screen, [KEY]);
  });

  test("ls in a pipe and --json: the title cut to one line's worth", async () => {
    const sessions = join(handoffs.home, ".pi", "agent", "sessions", "--work-app--");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, "s.jsonl"), chain([user(1, repeating([KEY], 600))], { cwd: "/work/app" }));
    for (const args of [
      ["ls", "--all"],
      ["ls", "--all", "--json"],
    ]) {
      const run = await runAgent(args, cleanEnv(handoffs.home, { OPENAI_API_KEY: KEY }));
      expect(run.code).toBe(0);
      expectNoSecretStart(run.stdout + run.stderr, [KEY]);
    }
  });

  test.each([
    ["a JSON error", { status: 400, error: { message: `denied: ${repeating([KEY, TOKEN])}` } }],
    ["a plain-text error", { status: 400, rawBody: `denied: ${repeating([TOKEN, KEY])}`, contentType: "text/plain" }],
    ["an HTML page", { status: 502, rawBody: `<html><body>${repeating([KEY, TOKEN])}</body></html>`, contentType: "text/html" }],
  ])("an endpoint's %s (stderr, cut at 300)", async (_name, reply) => {
    const s = handoffs.serve(() => reply);
    const run = await runAgent(
      ["handoff", handoffs.source(), "--no-record", "--retries", "0", "-m", "fake-model", "-o", join(handoffs.dir, "new.jsonl")],
      handoffs.env(s.url, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Handoff failed:");
    expect(run.stderr).toContain("[REDACTED:github-token:");
    expectNoSecretStart(run.stdout + run.stderr, [KEY, TOKEN]);
  });

  test.each([
    ["claude-code", 0],
    ["claude-code", 20],
    ["codex", 30],
    ["pi", 40],
  ])("an agent engine's error: %s, %i characters before the secrets (stderr, cut at 300)", async (engine, lead) => {
    const run = await runAgent(
      ["handoff", agents.source(EXAMPLE), "--no-record", "--engine", engine, "-o", join(agents.dir, "new.jsonl")],
      agents.env({
        FAKE_AGENT_MODE: "refuse",
        FAKE_AGENT_MESSAGE: `API Error: 400 ${"z".repeat(lead)} ${repeating([TOKEN, KEY])}`,
        OPENAI_API_KEY: KEY,
      }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Handoff failed:");
    expectNoSecretStart(run.stdout + run.stderr, [KEY, TOKEN]);
  });

  test.each([0, 10, 20])("a config value quoted in an error (cut at 60), %i characters before the key", async (lead) => {
    const config = join(handoffs.home, ".config", "agent");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "config.toml"), `context-window = "${"z".repeat(lead)} ${repeating([KEY], 200)}"\n`);
    const run = await runAgent(["config"], cleanEnv(handoffs.home, { OPENAI_API_KEY: KEY }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[withheld]");
    expectNoSecretStart(run.stdout + run.stderr, [KEY]);
  });
});
