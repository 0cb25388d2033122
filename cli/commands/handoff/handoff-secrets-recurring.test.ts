/**
 * A secret found once is that secret everywhere: the value of `password=…` or a URL's password,
 * found in one message, recurs without its key in another place (a later message, an assistant
 * text, a tool result, a tool-call argument, --focus, --system-prompt-file). Whatever leaves
 * holds the same placeholder at every occurrence; the document gets the original back once.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI } from "../../../fixtures/fake-openai.ts";
import { FULL_DOCUMENT } from "../../../fixtures/handoff-pipeline.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { assistant, call, chain, text, toolResult, user } from "../../../fixtures/sessions/builders.ts";
import { useAgentSandbox } from "../../agents/agent-engines.testing.ts";

const sandbox = useAgentSandbox();

const PASSWORD = "Hunter2Secret!x";
const DB_PASSWORD = "S3cr3tPass9";
const SECRETS = [PASSWORD, DB_PASSWORD];
/** Where they are found: after a key, in a URL. */
const FOUND = `Connect with password=${PASSWORD} to postgres://admin:${DB_PASSWORD}@db.example.com/prod.`;
/** Where they recur: no key, no URL, nothing a rule would find. */
const RECURS = `the db pass is ${DB_PASSWORD} and the login ${PASSWORD}`;
const PLACEHOLDERS = ["[REDACTED:password:1]", "[REDACTED:url-password:1]"];

interface Place {
  place: string;
  session: string;
  args: string[];
}

const opening = [user(1, FOUND), assistant(2, [text("Connected.")])];
const closing = [user(9, "Now add the migration."), assistant(10, [text("On it.")])];

function placeAt(place: string, entries: Record<string, unknown>[], args: string[] = []): Place {
  return { place, session: chain([...opening, ...entries, ...closing]), args };
}

const PLACES: Place[] = [
  placeAt("a later user message", [user(3, `Remember: ${RECURS}.`), assistant(4, [text("Noted.")])]),
  placeAt("an assistant text", [user(3, "What did I say?"), assistant(4, [text(`You said ${RECURS}.`)])]),
  placeAt("a tool result", [
    user(3, "Check the env."),
    assistant(4, [call("c1", "bash", { command: "cat .env" })]),
    toolResult(5, "c1", "bash", `DB notes: ${RECURS}`),
  ]),
  placeAt("a tool-call argument", [
    user(3, "Write it down."),
    assistant(4, [call("c1", "write", { path: "notes.txt", content: `${RECURS}\n`, lines: [DB_PASSWORD, PASSWORD] })]),
    toolResult(5, "c1", "write", "written"),
  ]),
  placeAt("--focus", [], ["--focus", `also ${RECURS}`]),
  placeAt("--system-prompt-file", [], ["--system-prompt-file", "SYSTEM"]),
];

function writeInputs(place: Place): string[] {
  const source = join(sandbox.dir, "source.jsonl");
  writeFileSync(source, place.session);
  const system = join(sandbox.home, "system.txt");
  writeFileSync(system, `You write handoffs. The team shares ${RECURS}.`);
  return ["handoff", source, ...place.args.map((a) => (a === "SYSTEM" ? system : a))];
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Each secret is gone from what leaves, and its placeholder stands both where it was found and where it recurs. */
function expectOnePlaceholderEach(sent: string): void {
  for (const secret of SECRETS) expect(sent).not.toContain(secret);
  for (const placeholder of PLACEHOLDERS) expect(count(sent, placeholder)).toBeGreaterThanOrEqual(2);
  expect(sent).not.toMatch(/REDACTED:[a-z-]+:2\]/);
}

describe("a secret found once is replaced wherever it recurs", () => {
  test.each(PLACES)("--dry-run --engine llm: the same secret in $place is the same placeholder", async (place) => {
    const args = [...writeInputs(place), "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1", "-m", "x"];
    const run = await runAgent(args, sandbox.env({ OPENAI_API_KEY: "sk-test-e2e-0123456789abcdef" }), sandbox.dir);
    expect(run.code).toBe(0);
    expectOnePlaceholderEach(run.stdout + run.stderr);
  });

  test.each(PLACES)("--dry-run --engine claude: the same secret in $place is the same placeholder", async (place) => {
    const run = await runAgent([...writeInputs(place), "--dry-run", "--engine", "claude"], sandbox.env(), sandbox.dir);
    expect(run.code).toBe(0);
    expectOnePlaceholderEach(run.stdout + run.stderr);
    expect(sandbox.runs()).toEqual([]);
  });

  test.each(PLACES)(
    "--engine claude: the agent's stdin and argv hold $place's secret as a placeholder; the document has it back once",
    async (place) => {
      const answer = `${FULL_DOCUMENT}\n\nQuoted: ${PLACEHOLDERS.join(" ")}`;
      const run = await runAgent(
        [...writeInputs(place), "--engine", "claude", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
        sandbox.env({ FAKE_AGENT_ANSWER: answer }),
        sandbox.dir,
      );
      expect(run.code).toBe(0);
      const [agentRun] = sandbox.runs();
      expectOnePlaceholderEach(`${agentRun?.stdin}\n${agentRun?.argv.join("\n")}`);
      expect(run.stdout).toContain(`Quoted: ${PASSWORD} ${DB_PASSWORD}`);
      expect(run.stdout).not.toContain("REDACTED");
    },
  );

  test.each(PLACES)("--engine llm: no request carries $place's secret; the document has it back once", async (place) => {
    const server = startFakeOpenAI(() => ({ text: `${FULL_DOCUMENT}\n\nQuoted: ${PLACEHOLDERS.join(" ")}` }));
    try {
      const run = await runAgent(
        [
          ...writeInputs(place),
          "--engine",
          "llm",
          "--base-url",
          server.url,
          "-m",
          "x",
          "--no-record",
          "-o",
          join(sandbox.dir, "new.jsonl"),
        ],
        sandbox.env({ OPENAI_API_KEY: "sk-test-e2e-0123456789abcdef" }),
        sandbox.dir,
      );
      expect(run.code).toBe(0);
      expect(server.requests).toHaveLength(1);
      expectOnePlaceholderEach(JSON.stringify(server.requests.map((r) => r.body)));
      expect(run.stdout).toContain(`Quoted: ${PASSWORD} ${DB_PASSWORD}`);
      expect(run.stdout).not.toContain("REDACTED");
    } finally {
      await server.stop();
    }
  });
});
