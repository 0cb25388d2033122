import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const { serve, source, env } = sandbox;

describe("the model path asks for what the offline document keeps (issue 26)", () => {
  test("the instruction that reaches the fake model asks for the rules quoted, the last errors whole, what was never verified, the main change first", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const run = await runAgent(["handoff", source()], env(s.url));
    expect(run.code).toBe(0);
    const [first] = s.requests;
    if (first === undefined) throw new Error("the fake model received no request");
    const messages = (first.body as { messages: { role: string; content: unknown }[] }).messages;
    const instruction = JSON.stringify(messages.at(-1)?.content);
    for (const asked of [
      "the earliest included",
      "quoted in their own words",
      "any task text the session read",
      "Leave out a rule the user later took back",
      "with the user's reason in their own words",
      "every distinct error line of a run that failed",
      "changed but never verified, or not committed since the last commit",
      "plan or checklist file that later work made out of date",
      "finish, verify and commit the unfinished main change before chasing a side issue",
    ])
      expect(instruction).toContain(asked);
  });

  test.each([
    ["a model, by default: no tail", [], false],
    ["a model, --last-exchanges: the tail after Session Facts", ["--last-exchanges"], true],
    ["a model, last-exchanges = true in the config file", ["config"], true],
    ["the offline engine, by default: the tail", ["offline"], true],
    ["the offline engine, --no-last-exchanges: none", ["offline", "--no-last-exchanges"], false],
  ])("%s", async (_name, how, present) => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const args = ["handoff", source(), ...how.filter((a) => a.startsWith("--"))];
    if (how.includes("offline")) args.push("--engine", "offline");
    const environment = env(s.url);
    if (how.includes("config")) {
      const folder = join(environment.XDG_CONFIG_HOME ?? join(sandbox.home, ".config"), "agent");
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "config.toml"), "last-exchanges = true\n");
    }
    const run = await runAgent(args, environment);
    expect(run.code).toBe(0);
    const document = run.stdout;
    expect(document.includes("\n## Last Exchanges\n")).toBe(present);
    if (present) expect(document.indexOf("\n## Last Exchanges\n")).toBeGreaterThan(document.indexOf("\n## Session Facts\n"));
    expect(document.includes("- Last user request (verbatim):")).toBe(!present);
  });
});
