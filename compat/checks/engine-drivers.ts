/**
 * Two ways to make an agent write the handoff, with the same evidence left for the checks:
 * through the product (`agent handoff <session> --engine <agent> --json`), and directly (the
 * request the model engine would send, from `--dry-run`, rendered as one prompt and given to
 * the agent's CLI with the research's argv), which proved the harness before the product had
 * the flag and still shows what the agent itself does.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, numberField, stringField } from "../../core/json.ts";
import type { EngineAgentInstall } from "../agents.ts";
import { SERVED_MODELS } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer, type Script } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";
import { ENGINE_AGENTS, type EngineAgent, type EnginePrompt } from "./engine-agents.ts";
import { engineSession } from "./engine-session.ts";
import { REPO } from "./reading.ts";
import { must } from "./report.ts";

export interface EngineSetup {
  agent: EngineAgentInstall;
  engine: EngineAgent;
  /** The agent's install folder. */
  dir: string;
  sandbox: Sandbox;
  fake: FakeModelServer;
  /** The agent's environment, with a PATH that finds it by its command name. */
  env: Record<string, string>;
  /** The session to hand off. */
  source: string;
}

export interface EngineRun {
  document: string;
  /** `--json`'s `engine` and `usage` (the product only). */
  engine: unknown;
  usage: { inputTokens: number | undefined; outputTokens: number | undefined } | undefined;
  /** A note for the report. */
  note: string | undefined;
}

/**
 * A sandbox with the agent on PATH (by the command name the product looks for), pointed at a
 * fake that answers with `script` (or, `loggedOut`, with no login at all), and the session to
 * hand off in the project.
 */
export async function setUpEngine(
  agent: EngineAgentInstall,
  dir: string,
  label: string,
  script: Script,
  loggedOut = false,
): Promise<EngineSetup> {
  const engine = ENGINE_AGENTS[agent.name];
  const sandbox = createSandbox(`engine-${agent.name}-${label}`);
  const fake = startFakeModelServer(script, Object.values(SERVED_MODELS).flat());
  const bin = join(sandbox.home, "..", "bin");
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(dir, agent.bin), join(bin, engine.command));
  const base = loggedOut ? engine.loggedOut(sandbox, fake) : engine.configure(agent, dir, sandbox, fake);
  const env = { ...base, PATH: `${bin}:${base.PATH ?? ""}` };
  const source = join(sandbox.project, "session.jsonl");
  writeFileSync(source, engineSession());
  return { agent, engine, dir, sandbox, fake, env, source };
}

const agentCli = (args: string[]) => [process.execPath, join(REPO, "cli/index.ts"), ...args];

/** Where the product writes the new session: in the project, away from every agent's history. */
export const handedOffPath = (setup: EngineSetup) => join(setup.sandbox.project, "handed-off.jsonl");

/** `agent handoff <session> --engine <agent> --quiet -o <aside> …extra`, to run in the sandbox's project. */
export function handoffCommand(setup: EngineSetup, extra: string[]): string[] {
  return agentCli(["handoff", setup.source, "--engine", setup.agent.name, "--quiet", "-o", handedOffPath(setup), ...extra]);
}

export function runHandoffCli(setup: EngineSetup, extra: string[], dns: DnsLog, timeoutMs = 180_000): Promise<AgentRun> {
  return runAgent(handoffCommand(setup, extra), { cwd: setup.sandbox.project, env: setup.env, timeoutMs }, dns);
}

/** `agent handoff <session> --engine <agent> --json`, the new session written aside (not into any agent's history). */
export async function productHandoff(setup: EngineSetup, focus: string, dns: DnsLog): Promise<EngineRun> {
  const run = await runHandoffCli(setup, ["--focus", focus, "--json"], dns);
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, `agent handoff failed: ${describeRun(run)}`);
  const json: unknown = JSON.parse(run.stdout);
  must(isObject(json), `--json printed no object: ${run.stdout.slice(0, 200)}`);
  const document = stringField(json, "document");
  must(document !== undefined, `--json has no document: ${run.stdout.slice(0, 200)}`);
  const usage = isObject(json.usage)
    ? { inputTokens: numberField(json.usage, "inputTokens"), outputTokens: numberField(json.usage, "outputTokens") }
    : undefined;
  return { document, engine: json.engine, usage, note: `model ${String(json.model)}` };
}

/** The text of a chat message's content (a string, or parts). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("\n");
}

/** A plain transcript of a Chat Completions request: the system message apart, the last message last. */
function renderPrompt(messages: readonly unknown[]): EnginePrompt {
  const all = messages.filter(isObject);
  const system = all[0]?.role === "system" ? contentText(all[0].content) : "";
  const turns = system === "" ? all : all.slice(1);
  const lines = turns
    .slice(0, -1)
    .map(
      (m) =>
        `<${String(m.role)}>\n${contentText(m.content)}${Array.isArray(m.tool_calls) ? `\n${JSON.stringify(m.tool_calls)}` : ""}\n</${String(m.role)}>`,
    );
  return { system, body: [`<transcript>\n${lines.join("\n\n")}\n</transcript>`, contentText(turns.at(-1)?.content)].join("\n\n") };
}

/** The request the model engine would send (redacted), from `agent handoff --dry-run --json`. */
async function plannedRequest(setup: EngineSetup, focus: string, dns: DnsLog): Promise<unknown[]> {
  const args = [
    "handoff",
    setup.source,
    "--engine",
    "llm",
    "--dry-run",
    "--json",
    "--quiet",
    "--focus",
    focus,
    "--base-url",
    "http://127.0.0.1:9/v1",
    "--model",
    "compat-writer",
  ];
  const run = await runAgent(agentCli(args), { cwd: setup.sandbox.project, env: setup.sandbox.env(), timeoutMs: 60_000 }, dns);
  must(run.exitCode === 0, `agent handoff --dry-run failed: ${describeRun(run)}`);
  const json: unknown = JSON.parse(run.stdout);
  const first = isObject(json) && Array.isArray(json.requests) ? json.requests[0] : undefined;
  must(isObject(first) && Array.isArray(first.messages), `--dry-run --json has no request: ${run.stdout.slice(0, 200)}`);
  return first.messages;
}

/** The agent's CLI run directly with the research's argv, in an empty folder, on the planned request. */
export async function directHandoff(setup: EngineSetup, focus: string, dns: DnsLog): Promise<EngineRun> {
  const prompt = renderPrompt(await plannedRequest(setup, focus, dns));
  const scratch = join(setup.sandbox.tmp, "scratch");
  mkdirSync(scratch, { recursive: true });
  const headless = setup.engine.headless(prompt, scratch);
  const run = await runAgent(
    [join(setup.dir, setup.agent.bin), ...headless.args],
    { cwd: scratch, env: setup.env, stdin: headless.stdin, timeoutMs: 120_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  const document = setup.engine.answer(run.stdout);
  must(document !== undefined, `no answer in what it printed; ${describeRun(run)}`);
  return { document, engine: undefined, usage: undefined, note: `${setup.engine.command} ${headless.args.join(" ").slice(0, 160)}…` };
}
