/** What an endpoint streams is untrusted: usage that is not a count never reaches `--json` or the source session. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CANNED_DOCUMENT } from "../fixtures/fake-openai.ts";
import { runAgent } from "../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const { serve, source, env } = sandbox;

/** The usage the answer recorded in the source carries (pi's shape). */
function recordedUsage(src: string, original: Buffer): unknown {
  const added = readFileSync(src).subarray(original.length).toString("utf8").split("\n").filter(Boolean);
  const answer = JSON.parse(added[1] ?? "{}");
  return answer.message?.usage;
}

describe("usage from the stream: only counts are usage (the rule every engine shares)", () => {
  const none = null;
  test.each([
    ["plain counts", { prompt_tokens: 1000, completion_tokens: 200 }, { inputTokens: 1000, outputTokens: 200 }],
    ["zero", { prompt_tokens: 0, completion_tokens: 0 }, { inputTokens: 0, outputTokens: 0 }],
    ["1e308", { prompt_tokens: 10, completion_tokens: 1e308 }, none],
    ["negative", { prompt_tokens: -5, completion_tokens: 200 }, none],
    ["fractional", { prompt_tokens: 10.5, completion_tokens: 200 }, none],
    ["a string", { prompt_tokens: "x", completion_tokens: 200 }, none],
    ["past any plausible count", { prompt_tokens: 20_000_000_000, completion_tokens: 1 }, none],
    [
      "a bad reasoning count drops only it",
      { prompt_tokens: 10, completion_tokens: 5, completion_tokens_details: { reasoning_tokens: -1 } },
      { inputTokens: 10, outputTokens: 5 },
    ],
  ])("%s", async (_, usage, expected) => {
    const s = serve(() => ({ text: CANNED_DOCUMENT, usage }));
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "-m", "fake-model", "--json", "-q"], env(s.url));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).usage).toEqual(expected);
    const recorded = recordedUsage(src, original);
    const total = expected ? expected.inputTokens + expected.outputTokens : 0;
    expect(recorded).toMatchObject({ input: expected?.inputTokens ?? 0, output: expected?.outputTokens ?? 0, totalTokens: total });
  });
});
