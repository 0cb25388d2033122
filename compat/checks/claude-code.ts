/**
 * Running the real Claude Code on a session file, headless, against the fake's Anthropic
 * Messages endpoint: the file goes where Claude Code looks for the sandbox project's sessions
 * (`$CLAUDE_CONFIG_DIR/projects/<folder of the cwd>/<id>.jsonl`), `claude -p --resume <id>`
 * continues it with one prompt, and the request it sends tells what it read.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import type { Agent } from "../agents.ts";
import { FAKE_KEY } from "../agent-setup.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { must } from "./report.ts";

/** What the fake answers every conversation request with. */
export const CLAUDE_REPLY = "COMPAT-REPLY: carrying on.";

/** Claude Code's own folder in the sandbox, named by CLAUDE_CONFIG_DIR (its HOME is the sandbox's too). */
export const claudeConfigDir = (sandbox: Sandbox) => join(sandbox.home, ".claude");

export function claudeEnv(sandbox: Sandbox, fake: FakeModelServer): Record<string, string> {
  return sandbox.env({
    CLAUDE_CONFIG_DIR: claudeConfigDir(sandbox),
    ANTHROPIC_BASE_URL: fake.origin,
    ANTHROPIC_API_KEY: FAKE_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    // Its interactive screen looks for updates and installs the official plugin marketplace at start.
    DISABLE_UPDATES: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
  });
}

/** `projects/<cwd with every character outside A-Za-z0-9 as "-">` (the sandbox's paths are short: no hash). */
export function projectFolder(sandbox: Sandbox): string {
  return join(claudeConfigDir(sandbox), "projects", sandbox.project.replace(/[^A-Za-z0-9]/g, "-"));
}

/** Puts a session where Claude Code resumes it by id from the sandbox project; returns its path. */
export function placeSession(sandbox: Sandbox, sessionId: string, content: string): string {
  const folder = projectFolder(sandbox);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, `${sessionId}.jsonl`);
  writeFileSync(path, content);
  return path;
}

export interface SentRequest {
  model: string;
  messages: unknown[];
}

/** The Anthropic requests of Claude Code's conversation (the ones whose last user turn carries `prompt`). */
function conversationRequest(fake: FakeModelServer, from: number, prompt: string): SentRequest | undefined {
  for (const request of fake.requests.slice(from)) {
    if (request.wire !== "anthropic" || !isObject(request.body) || !Array.isArray(request.body.messages)) continue;
    if (!JSON.stringify(request.body.messages).includes(prompt)) continue;
    return { model: typeof request.body.model === "string" ? request.body.model : "", messages: request.body.messages };
  }
  return undefined;
}

/**
 * Runs `claude -p [which] <prompt>` in the sandbox project (no `--model`: the model is the one
 * Claude Code picks): `which` is none for a new conversation, `--resume <id>`, or `-c` for the
 * folder's most recent; `extraEnv` adds to its environment. Returns the conversation request it sent.
 */
export async function runClaude(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  fake: FakeModelServer,
  dns: DnsLog,
  prompt: string,
  which: readonly string[] = [],
  extraEnv: Record<string, string> = {},
): Promise<SentRequest> {
  const before = fake.requests.length;
  const resume = [...which];
  const run = await runAgent(
    [join(dir, agent.bin), "-p", ...resume, prompt],
    { cwd: sandbox.project, env: { ...claudeEnv(sandbox, fake), ...extraEnv }, timeoutMs: 120_000 },
    dns,
  );
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  const request = conversationRequest(fake, before, prompt);
  must(request !== undefined, `sent no request carrying the prompt; ${describeRun(run)}`);
  return request;
}

/** One message's content as blocks (a string is one text block). */
export function blocksOf(message: unknown): { role: string; blocks: Record<string, unknown>[] } {
  if (!isObject(message)) return { role: "", blocks: [] };
  const role = typeof message.role === "string" ? message.role : "";
  if (typeof message.content === "string") return { role, blocks: [{ type: "text", text: message.content }] };
  return { role, blocks: Array.isArray(message.content) ? message.content.filter(isObject) : [] };
}

/**
 * A transcript after Claude Code's turn: still starts with the bytes we wrote, ends with a
 * newline, every line JSON, no line uuid twice.
 */
export function checkTranscript(path: string, ours: string): string {
  const text = readFileSync(path, "utf8");
  must(text.startsWith(ours), "our lines are no longer the start of the file");
  must(text.endsWith("\n"), "the file does not end with a newline");
  const seen = new Set<string>();
  const lines = text.slice(0, -1).split("\n");
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    const uuid = isObject(value) ? value.uuid : undefined;
    if (typeof uuid !== "string") continue;
    must(!seen.has(uuid), `line ${i + 1} repeats uuid ${uuid}`);
    seen.add(uuid);
  }
  return `${lines.length} lines`;
}
