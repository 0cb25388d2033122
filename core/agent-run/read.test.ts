import { describe, expect, test } from "bun:test";
import { describeAgentFailure } from "./failures.ts";
import { agentEngine } from "./table.ts";
import type { AgentRunOutput } from "./types.ts";
import type { EngineName } from "./table.ts";

/** Outputs in the shapes the real agents print (see /work/notes/engines-research.md and `bun run compat`). */
const j = (...values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join("");
const out = (stdout: string, exitCode: number | null = 0, stderr = ""): AgentRunOutput => ({ stdout, stderr, exitCode });

/** What the run comes to: the answer, or the line it fails with. */
function outcome(agent: EngineName, output: AgentRunOutput): unknown {
  const engine = agentEngine(agent);
  const read = engine.read(output);
  return "answer" in read ? read.answer : describeAgentFailure(engine, read.failure, read.message);
}

const CLAUDE_OK = {
  type: "result",
  subtype: "success",
  is_error: false,
  result: "## Goal\nx",
  session_id: "s",
  usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 40 },
  modelUsage: { "claude-opus-5-5": { inputTokens: 115 } },
};

const piWith = (usage: unknown) =>
  out(
    j({
      type: "message_end",
      message: { role: "assistant", content: [{ type: "text", text: "## Goal\nz" }], model: "m", stopReason: "stop", usage },
    }),
  );
const codexWith = (...usages: unknown[]) =>
  out(
    j(
      { type: "item.completed", item: { type: "agent_message", text: "## Goal\nz" } },
      ...usages.map((usage) => ({ type: "turn.completed", usage })),
    ),
  );

describe("the usage an agent reports is taken only when every number is a token count", () => {
  test.each<[string, EngineName, AgentRunOutput, unknown]>([
    [
      "claude: huge numbers that would overflow",
      "claude-code",
      out(j({ ...CLAUDE_OK, usage: { input_tokens: 1e308, cache_read_input_tokens: 1e308, output_tokens: 1 } })),
      undefined,
    ],
    ["claude: a negative fraction", "claude-code", out(j({ ...CLAUDE_OK, usage: { input_tokens: 5, output_tokens: -7.5 } })), undefined],
    ["claude: a string", "claude-code", out(j({ ...CLAUDE_OK, usage: { input_tokens: "5", output_tokens: 1 } })), undefined],
    [
      "claude: a field left out counts 0",
      "claude-code",
      out(j({ ...CLAUDE_OK, usage: { input_tokens: 5, output_tokens: 1 } })),
      { inputTokens: 5, outputTokens: 1 },
    ],
    ["pi: negative", "pi", piWith({ input: -500, output: 3 }), undefined],
    ["pi: a sum past the exact integers", "pi", piWith({ input: Number.MAX_SAFE_INTEGER, cacheRead: 2, output: 3 }), undefined],
    ["pi: not an object", "pi", piWith(7), undefined],
    [
      "codex: every turn counted",
      "codex",
      codexWith({ input_tokens: 4, output_tokens: 1 }, { input_tokens: 6, output_tokens: 2 }),
      { inputTokens: 10, outputTokens: 3 },
    ],
    [
      "codex: one turn's count is not a number",
      "codex",
      codexWith({ input_tokens: 4, output_tokens: 1 }, { input_tokens: null, output_tokens: 2 }),
      undefined,
    ],
    [
      "codex: one turn is fractional",
      "codex",
      codexWith({ input_tokens: 4.5, output_tokens: 1 }, { input_tokens: 6, output_tokens: 2 }),
      undefined,
    ],
  ])("%s", (_, agent, output, usage) => {
    const read = agentEngine(agent).read(output);
    const got: unknown = "answer" in read ? read.answer.usage : "no answer";
    expect(got).toEqual(usage);
  });
});

describe("reading what each agent printed", () => {
  test.each<[string, EngineName, AgentRunOutput, unknown]>([
    [
      "claude: the result, cached input counted, the model it names",
      "claude-code",
      out(j(CLAUDE_OK)),
      { text: "## Goal\nx", usage: { inputTokens: 115, outputTokens: 40 }, model: "claude-opus-5-5", cutShort: false },
    ],
    [
      "claude: a side model listed first (a title, a check): the model that wrote the answer is the one with the most output",
      "claude-code",
      out(
        j({
          ...CLAUDE_OK,
          modelUsage: {
            "claude-haiku-4-5": { inputTokens: 300, outputTokens: 12 },
            "claude-opus-5-5": { inputTokens: 115, outputTokens: 40 },
          },
        }),
      ),
      { text: "## Goal\nx", usage: { inputTokens: 115, outputTokens: 40 }, model: "claude-opus-5-5", cutShort: false },
    ],
    [
      "claude: stopped at max_tokens",
      "claude-code",
      out(j({ ...CLAUDE_OK, stop_reason: "max_tokens" })),
      { text: "## Goal\nx", usage: { inputTokens: 115, outputTokens: 40 }, model: "claude-opus-5-5", cutShort: true },
    ],
    [
      "claude: not logged in",
      "claude-code",
      out(j({ type: "result", subtype: "success", is_error: true, result: "Not logged in · Please run /login" }), 1),
      "claude is not logged in: run `claude` once and log in (it said: Not logged in · Please run /login)",
    ],
    [
      "claude: a refused login",
      "claude-code",
      out(
        j({
          type: "result",
          subtype: "success",
          is_error: true,
          api_error_status: 401,
          result: "Failed to authenticate. API Error: 401 invalid x-api-key",
        }),
        1,
      ),
      "claude is not logged in: run `claude` once and log in (it said: Failed to authenticate. API Error: 401 invalid x-api-key)",
    ],
    [
      "claude: a 400",
      "claude-code",
      out(j({ type: "result", subtype: "success", is_error: true, api_error_status: 400, result: "API Error: 400 prompt is too long" }), 1),
      "claude did not answer (exit 1: API Error: 400 prompt is too long)",
    ],
    [
      "claude: an unknown option",
      "claude-code",
      out("", 1, "error: unknown option '--bogus'\n"),
      "claude did not answer (exit 1: error: unknown option '--bogus')",
    ],
    [
      "claude: an empty result",
      "claude-code",
      out(j({ ...CLAUDE_OK, result: "  " })),
      "claude gave no answer (its result was empty); try again, or use another --engine",
    ],
    [
      "codex: the last agent message; a warning item and reconnects are not failures; input_tokens already holds the cached ones",
      "codex",
      out(
        j(
          { type: "thread.started", thread_id: "t" },
          { type: "item.completed", item: { id: "item_0", type: "error", message: "Model metadata for `gpt-5` not found." } },
          { type: "error", message: "Reconnecting... 1/5 (stream disconnected)" },
          { type: "turn.started" },
          { type: "item.completed", item: { id: "item_1", type: "agent_message", text: "draft" } },
          { type: "item.completed", item: { id: "item_2", type: "agent_message", text: "## Goal\ny" } },
          {
            type: "turn.completed",
            usage: { input_tokens: 1234, cached_input_tokens: 1000, output_tokens: 56, reasoning_output_tokens: 0 },
          },
        ),
      ),
      { text: "## Goal\ny", usage: { inputTokens: 1234, outputTokens: 56 }, model: undefined },
    ],
    [
      "codex: 401 after its retries",
      "codex",
      out(
        j(
          { type: "thread.started", thread_id: "t" },
          { type: "error", message: "Reconnecting... 5/5 (unexpected status 401 Unauthorized: bad key)" },
          { type: "turn.failed", error: { message: "unexpected status 401 Unauthorized: bad key, url: http://h/v1/responses" } },
        ),
        1,
      ),
      "codex is not logged in: run `codex login` (it said: unexpected status 401 Unauthorized: bad key, url: http://h/v1/responses)",
    ],
    [
      "codex: a missing key variable",
      "codex",
      out(
        j(
          { type: "thread.started", thread_id: "t" },
          { type: "turn.failed", error: { message: "Missing environment variable: `FAKE_KEY`." } },
        ),
        1,
      ),
      "codex did not answer (exit 1: Missing environment variable: `FAKE_KEY`.)",
    ],
    [
      "codex: input too large (only stderr says)",
      "codex",
      out(j({ type: "thread.started", thread_id: "t" }), 1, "Error: turn/start: Input exceeds the maximum length of 1048576 characters.\n"),
      "codex did not answer (exit 1: Error: turn/start: Input exceeds the maximum length of 1048576 characters.)",
    ],
    [
      "codex: finished without a message",
      "codex",
      out(j({ type: "thread.started", thread_id: "t" }, { type: "turn.completed", usage: { input_tokens: 1, output_tokens: 0 } })),
      "codex gave no answer (it finished without a message); try again, or use another --engine",
    ],
    [
      "pi: the last assistant message, its provider and model",
      "pi",
      out(
        j(
          { type: "session", version: 3, id: "x" },
          { type: "message_end", message: { role: "user", content: [{ type: "text", text: "q" }] } },
          {
            type: "message_end",
            message: {
              role: "assistant",
              content: [
                { type: "thinking", thinking: "hm" },
                { type: "text", text: "## Goal\nz" },
              ],
              provider: "openai",
              model: "gpt-5",
              stopReason: "stop",
              usage: { input: 50, output: 20, cacheRead: 30, cacheWrite: 0 },
            },
          },
        ),
      ),
      { text: "## Goal\nz", usage: { inputTokens: 80, outputTokens: 20 }, model: "openai/gpt-5", cutShort: false },
    ],
    [
      "pi: stopped at its output limit",
      "pi",
      out(
        j({
          type: "message_end",
          message: { role: "assistant", content: [{ type: "text", text: "## Goal\nFix the exp" }], model: "m", stopReason: "length" },
        }),
      ),
      { text: "## Goal\nFix the exp", usage: undefined, model: "m", cutShort: true },
    ],
    [
      "pi: no key (the header, then stderr, exit 1)",
      "pi",
      out(
        j({ type: "session", version: 3, id: "x" }),
        1,
        "No API key found for the selected model.\n\nUse /login to log into a provider.\n  /docs/providers.md\n",
      ),
      "pi is not logged in: run `pi` and log in (/login), or set the API key of the provider it uses (it said: No API key found for the selected model.)",
    ],
    [
      "pi: a failed request is an error message with exit 0",
      "pi",
      out(j({ type: "message_end", message: { role: "assistant", content: [], stopReason: "error", errorMessage: "429 rate limited" } })),
      "pi did not answer (its request failed: 429 rate limited)",
    ],
    [
      "omp: no models (stderr only, exit 1)",
      "omp",
      out("", 1, "No models available. Use /login or set an API key environment variable.\n\nSet an API key environment variable:\n"),
      "omp is not logged in: run `omp` and log in (/login), or set the API key of the provider it uses (it said: No models available. Use /login or set an API key environment variable.)",
    ],
    [
      "pi: a refused key (401, exit 0)",
      "pi",
      out(
        j({ type: "message_end", message: { role: "assistant", content: [], stopReason: "error", errorMessage: "401 invalid x-api-key" } }),
      ),
      "pi is not logged in: run `pi` and log in (/login), or set the API key of the provider it uses (it said: 401 invalid x-api-key)",
    ],
    [
      "omp: a refused key (401, exit 1)",
      "omp",
      out(
        j({
          type: "message_end",
          message: {
            role: "assistant",
            content: [],
            stopReason: "error",
            errorStatus: 401,
            errorMessage: "401 refused\nrefused (type=authentication_error param=invalid_api_key)",
          },
        }),
        1,
      ),
      "omp is not logged in: run `omp` and log in (/login), or set the API key of the provider it uses (it said: 401 refused refused (type=authentication_error param=invalid_api_key))",
    ],
    [
      "omp: killed",
      "omp",
      { stdout: "", stderr: "", exitCode: null, signal: "SIGKILL" },
      "omp did not answer (ended by SIGKILL, no message)",
    ],
    [
      "omp: nothing on stdout, a word on stderr",
      "omp",
      out("", 0, "warning: something odd\n"),
      "omp gave no answer (it exited 0 and printed nothing on stdout; on stderr: warning: something odd); try again, or use another --engine",
    ],
    [
      "pi: text that is not JSON",
      "pi",
      out("Hello\n"),
      'pi printed no answer we can read (expected the JSON events of --mode json, got "Hello"); is AGENT_PI_BIN or PATH pointing at pi?',
    ],
  ])("%s", (_, agent, output, expected) => {
    expect(outcome(agent, output)).toEqual(expected);
  });
});
