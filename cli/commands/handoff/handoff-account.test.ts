/**
 * OPENAI_ORG_ID and OPENAI_PROJECT_ID reach the endpoint as OpenAI-Organization and
 * OpenAI-Project, on every request a run makes: the list of models it asks for and each Chat
 * Completions request. A key that belongs to several projects bills the one named.
 */
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI, type FakeServer } from "../../../fixtures/fake-openai.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { EXAMPLE, useAgentSandbox } from "../../agents/agent-engines.testing.ts";

const sandbox = useAgentSandbox();
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

test("a run that asks the endpoint for its model: both requests carry the organization and the project", async () => {
  server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
  const run = await runAgent(
    ["handoff", sandbox.source(EXAMPLE), "--engine", "llm", "--base-url", server.url, "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
    sandbox.env({ OPENAI_API_KEY: "sk-test-account-0123456789", OPENAI_ORG_ID: "org-team", OPENAI_PROJECT_ID: "proj_handoffs\n" }),
    sandbox.dir,
  );
  expect(run.code).toBe(0);
  const sent = [...server.modelLists, ...server.requests].map((r) => [
    r.path,
    r.headers["openai-organization"],
    r.headers["openai-project"],
  ]);
  expect(sent).toEqual([
    ["/v1/models", "org-team", "proj_handoffs"],
    ["/v1/chat/completions", "org-team", "proj_handoffs"],
  ]);
});
