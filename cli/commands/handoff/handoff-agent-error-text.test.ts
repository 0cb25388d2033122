/**
 * An agent's own words, quoted in the failure line, pass the same boundary as every line for
 * people: likely secrets replaced as in a request (not only our configured key withheld), and
 * terminal escapes removed whole (no `[31m` left behind), on every agent, with --json too.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { useAgentSandbox } from "../../agents/agent-engines.testing.ts";

const sandbox = useAgentSandbox();

const ANTHROPIC_KEY = `sk-ant-api03-${"Z".repeat(60)}-abcdefAA`;
const AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
const GITHUB_TOKEN = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";

const MESSAGES = [
  {
    name: "an Anthropic key",
    said: `API Error: 400 ${ANTHROPIC_KEY} is not valid here`,
    quoted: "API Error: 400 [REDACTED:anthropic-key:1] is not valid here",
  },
  {
    name: "an AWS key id",
    said: `denied for ${AWS_KEY_ID} in us-east-1`,
    quoted: "denied for [REDACTED:aws-access-key-id:1] in us-east-1",
  },
  {
    name: "a GitHub token",
    said: `git push failed: token ${GITHUB_TOKEN} revoked`,
    quoted: "git push failed: token [REDACTED:github-token:1] revoked",
  },
  {
    name: "a password assignment",
    said: "connect failed: password=Hunter2Secret! rejected",
    quoted: "connect failed: password=[REDACTED:password:1] rejected",
  },
  { name: "colour codes", said: "\x1b[31mbad\x1b[0m request \x1b[1;33mtwice\x1b[m", quoted: "bad request twice" },
  {
    name: "a window title and a hyperlink",
    said: "\x1b]0;pwned\x07see \x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\ now",
    quoted: "see docs now",
  },
  {
    name: "an escape between a key's characters",
    said: `key ${AWS_KEY_ID.slice(0, 8)}\x1b[0m${AWS_KEY_ID.slice(8)} bad`,
    quoted: "key [REDACTED:aws-access-key-id:1] bad",
  },
];

const AGENTS = [
  { engine: "claude-code", command: "claude", how: "exit 1" },
  { engine: "codex", command: "codex", how: "exit 1" },
  { engine: "pi", command: "pi", how: "its request failed" },
  { engine: "omp", command: "omp", how: "its request failed" },
];

const CASES = AGENTS.flatMap((agent) => MESSAGES.map((message) => ({ ...agent, ...message })));

/** What may never reach the screen: the secrets, an ESC, a CSI body left over. */
function expectClean(text: string): void {
  for (const secret of [ANTHROPIC_KEY, AWS_KEY_ID, GITHUB_TOKEN, "Hunter2Secret!"]) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/[\x1b\u009b]|\[[0-9;]*m|\]0;|\]8;/);
}

describe("the agent's quoted error text is redacted and stripped of escapes", () => {
  test.each(CASES)("$command quoting $name", async ({ engine, command, how, said, quoted }) => {
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", engine],
      sandbox.env({ FAKE_AGENT_MODE: "refuse", FAKE_AGENT_MESSAGE: said }),
      sandbox.dir,
    );
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr: `Handoff failed: ${command} did not answer (${how}: ${quoted})\n`,
    });
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });

  test.each(MESSAGES)("--json: $name quoted the same way", async ({ said, quoted }) => {
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "claude", "--json"],
      sandbox.env({ FAKE_AGENT_MODE: "refuse", FAKE_AGENT_MESSAGE: said }),
      sandbox.dir,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(quoted);
    expectClean(run.stdout + run.stderr);
  });

  test("the configured key is still withheld, not redacted, beside a likely secret", async () => {
    const key = "sk-test-agent-0123456789abcdef";
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "claude"],
      sandbox.env({ FAKE_AGENT_MODE: "refuse", FAKE_AGENT_MESSAGE: `bad key ${key} and ${GITHUB_TOKEN}`, OPENAI_API_KEY: key }),
      sandbox.dir,
    );
    expect(run.stderr).toBe("Handoff failed: claude did not answer (exit 1: bad key [withheld] and [REDACTED:github-token:1])\n");
  });
});
