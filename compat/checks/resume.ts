/**
 * Writing resumes: hand a session off (offline engine, and model engine against the fake),
 * continue the new session in the real agent with one prompt, and resume the recorded source.
 * The agent must send the document verbatim, resume both files with the source's own model,
 * and leave both files valid (one header, no duplicate ids, every line JSON).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import type { Agent } from "../agents.ts";
import { agentEnv, configureAgent, continueCommand, FAKE_KEY, SERVED_MODELS } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { REPO } from "./reading.ts";
import { allOf, must, type Checks } from "./report.ts";
import { carriesVerbatim, checkSessionFile, conversationRequests, contentText } from "./session-file.ts";

/** The model our handoff asks the fake for; the agents' own requests ask for the session's model. */
export const WRITER_MODEL = "compat-writer";
export const WRITTEN_DOCUMENT =
  "## Goal\nCOMPAT-DOCUMENT: carry on with the parser.\n\n## Constraints & Preferences\n- none\n\n## Progress\n### Done\n- tokenizer\n### In Progress\n- errors\n### Pending\n- none\n\n## Key Decisions\n- none\n\n## Critical Context\n- src/parse.ts\n\n## Next Steps\n1. add positions";

/**
 * Sources to hand off, with the model each resumes with (in pi's and omp's terms, the same
 * here). omp's fixture starts with omp's title line, which pi 0.73.1 does not read.
 */
const SOURCES = [
  { file: "fixtures/handoff-markers.jsonl", model: "gpt-5", agents: ["pi", "omp"] },
  { file: "fixtures/sessions/v3-branches.jsonl", model: "gpt-5", agents: ["pi", "omp"] },
  { file: "fixtures/sessions/omp.jsonl", model: "gpt-5.1", agents: ["omp"] },
];

/** The fake for handoffs and the turns after them: our model engine gets the document, every agent the same short answer. */
export function startHandoffFake(): FakeModelServer {
  return startFakeModelServer((request) => {
    const body = request.body;
    const model = typeof body === "object" && body !== null && "model" in body ? body.model : undefined;
    return model === WRITER_MODEL ? { text: WRITTEN_DOCUMENT } : { text: "COMPAT-REPLY: carrying on." };
  }, Object.values(SERVED_MODELS).flat());
}

/** The session with its header's cwd moved to `cwd`: both agents refuse a session whose folder is gone. */
function withCwd(text: string, cwd: string): string {
  const lines = text.split("\n");
  const index = lines.findIndex((line) => line.includes('"type":"session"'));
  const header: unknown = JSON.parse(lines[index] ?? "{}");
  lines[index] = JSON.stringify({ ...(isObject(header) ? header : {}), cwd });
  return lines.join("\n");
}

async function handOff(
  sandbox: Sandbox,
  source: string,
  out: string,
  engine: "offline" | "llm",
  fake: FakeModelServer,
  dns: DnsLog,
): Promise<void> {
  const args = ["handoff", source, "-o", out, "--engine", engine, "--quiet"];
  if (engine === "llm") args.push("--base-url", `${fake.origin}/v1`, "--model", WRITER_MODEL);
  const env = sandbox.env(engine === "llm" ? { OPENAI_API_KEY: FAKE_KEY } : {});
  const run = await runAgent([process.execPath, join(REPO, "cli/index.ts"), ...args], { cwd: REPO, env, timeoutMs: 60_000 }, dns);
  must(run.exitCode === 0, `agent handoff failed: ${describeRun(run)}`);
}

/** Runs the agent on `session` with one prompt; returns the model and messages of its first request. */
async function continueIn(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  session: string,
  fake: FakeModelServer,
  dns: DnsLog,
): Promise<{ model: string; messages: unknown[] }> {
  const before = fake.requests.length;
  const run = await runAgent(
    continueCommand(agent, dir, session, "COMPAT-NEXT: what is next?"),
    { cwd: sandbox.project, env: agentEnv(sandbox), timeoutMs: 120_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  const [first] = conversationRequests(fake.requests.slice(before), WRITER_MODEL);
  must(first !== undefined, `sent no request to the model; ${describeRun(run)}`);
  must(carriesVerbatim(first.messages, "COMPAT-NEXT: what is next?"), "the prompt is not in its request");
  return first;
}

export async function checkResume(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  for (const { file, model } of SOURCES.filter((s) => s.agents.includes(agent.name))) {
    for (const engine of ["offline", "llm"] as const) {
      const label = `${file.split("/").pop()}, ${engine} engine`;
      const sandbox = createSandbox(`${agent.name}-resume`);
      const fake = startHandoffFake();
      try {
        configureAgent(agent, sandbox, fake.origin, dir);
        const source = join(sandbox.project, "source.jsonl");
        const fresh = join(sandbox.project, "handed-off.jsonl");
        writeFileSync(source, withCwd(readFileSync(join(REPO, file), "utf8"), sandbox.project));
        const handedOff = await checks.run(agent.name, `hands off ${label}`, () =>
          handOff(sandbox, source, fresh, engine, fake, dns).then(() => undefined),
        );
        if (!handedOff) continue;
        const ours = readFileSync(fresh, "utf8");
        // The handoff message, wherever it is (omp's new sessions open with omp's title line).
        const handoffLine: unknown = ours
          .split("\n")
          .filter((line) => line.includes('"handoff"'))
          .map((line): unknown => JSON.parse(line))
          .find((line) => isObject(line) && line.customType === "handoff");
        const handoffText = isObject(handoffLine) ? contentText(handoffLine.content) : "";
        await checks.run(
          agent.name,
          `continues the new session (${label}): the document verbatim, the source's model ${model}, a valid file`,
          async () => {
            const request = await continueIn(agent, dir, sandbox, fresh, fake, dns);
            return allOf([
              () => must(request.model === model, `resumed with model ${request.model}, not ${model}`),
              () =>
                must(
                  handoffText !== "" && carriesVerbatim(request.messages, handoffText),
                  "the handoff document did not reach the model verbatim",
                ),
              () => checkSessionFile(fresh, ours),
            ]);
          },
        );
        await checks.run(agent.name, `resumes the recorded source (${label}) with its own model ${model}, a valid file`, async () => {
          const recorded = readFileSync(source, "utf8");
          const request = await continueIn(agent, dir, sandbox, source, fake, dns);
          return allOf([
            () => must(request.model === model, `resumed with model ${request.model}, not ${model}`),
            () => checkSessionFile(source, recorded),
          ]);
        });
      } finally {
        await fake.stop();
      }
    }
  }
}
