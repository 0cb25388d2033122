/**
 * Each real agent as the model of a handoff (`agent handoff --engine <agent>`), in one table:
 * the command the product looks for on PATH, the wire it speaks to the fake, its environment
 * pointed at the fake, where it keeps its session history, and the headless run the research
 * found (/work/notes/engines-research.md) with the prompt on stdin, no tools and nothing saved,
 * plus a control run with its tools and its history left on, so the checks are seen to fail.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, stringField, type JsonObject } from "../../core/json.ts";
import type { Agent, EngineName } from "../agents.ts";
import { agentEnv, configureAgent } from "../agent-setup.ts";
import type { Wire } from "../fake/reply.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { Sandbox } from "../sandbox.ts";
import { claudeConfigDir, claudeEnv } from "./claude-code.ts";
import { codexHomeOf, prepareCodex } from "./codex.ts";

/** The prompt as an agent takes it: what the request says about the job, and the rest as one text. */
export interface EnginePrompt {
  system: string;
  body: string;
}

/** A headless run: the arguments after the executable and what goes on stdin. */
export interface HeadlessRun {
  args: string[];
  stdin: string;
}

export interface EngineAgent {
  /** The executable the product looks up on PATH. */
  command: string;
  wire: Wire;
  /** Writes the agent's configuration (the fake as its provider) into the sandbox; the environment it runs with. */
  configure(agent: Agent, dir: string, sandbox: Sandbox, fake: FakeModelServer): Record<string, string>;
  /** The agent installed but with no login and no key: the environment it runs with. */
  loggedOut(sandbox: Sandbox, fake: FakeModelServer): Record<string, string>;
  /** Folders of the sandbox that hold the agent's session history. */
  historyFolders(sandbox: Sandbox): string[];
  /** History kept outside those folders (Codex's thread index), one line per session. */
  historyRecords(sandbox: Sandbox): string[];
  /** The run the research found: no tools, nothing saved, the prompt on stdin, in `scratch`. */
  headless(prompt: EnginePrompt, scratch: string): HeadlessRun;
  /** The same prompt with the agent's tools and history on: what the checks must catch. */
  control(prompt: EnginePrompt, scratch: string): HeadlessRun;
  /** The final answer in what the headless run printed, if any. */
  answer(stdout: string): string | undefined;
}

function jsonLines(stdout: string): JsonObject[] {
  const out: JsonObject[] = [];
  for (const line of stdout.split("\n")) {
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) out.push(value);
    } catch {
      // Not an event line.
    }
  }
  return out;
}

/** pi's and omp's `--mode json`: the text of the last assistant message that ended. */
function lastAssistantText(stdout: string): string | undefined {
  let text: string | undefined;
  for (const event of jsonLines(stdout)) {
    const message = event.message;
    if (event.type !== "message_end" || !isObject(message) || message.role !== "assistant" || !Array.isArray(message.content)) continue;
    text = message.content
      .flatMap((part) => (isObject(part) && part.type === "text" && typeof part.text === "string" ? [part.text] : []))
      .join("\n");
  }
  return text;
}

/** The switches that leave Codex with no tool at all (each one removes a tool its request offered). */
const CODEX_NO_TOOLS = [
  ...["shell_tool", "unified_exec", "view_image", "multi_agent", "goals", "image_generation", "tool_suggest"].flatMap((feature) => [
    "-c",
    `features.${feature}=false`,
  ]),
  ...["-c", 'web_search="disabled"', "-c", "tools.experimental_request_user_input.enabled=false", "-c", "tools.update_plan.enabled=false"],
];

/** Codex's thread index: the ids in `state_*.sqlite`'s `threads` table. */
function codexThreads(sandbox: Sandbox): string[] {
  const path = join(codexHomeOf(sandbox), "state_5.sqlite");
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true });
  try {
    return db
      .query("select id from threads")
      .all()
      .map((row) => `state_5.sqlite threads ${isObject(row) ? String(row.id) : "?"}`);
  } finally {
    db.close();
  }
}

const pi: EngineAgent = {
  command: "pi",
  wire: "chat",
  configure(agent, dir, sandbox, fake) {
    configureAgent(agent, sandbox, fake.origin, dir, { defaultProvider: "openai", defaultModel: "gpt-5.1" });
    return agentEnv(sandbox);
  },
  loggedOut: (sandbox) => agentEnv(sandbox),
  historyFolders: (sandbox) => [join(sandbox.home, ".pi/agent/sessions")],
  historyRecords: () => [],
  headless: (prompt) => ({
    args: [
      "-p",
      "--mode",
      "json",
      "--no-session",
      "--no-tools",
      "--no-skills",
      "--no-prompt-templates",
      "--no-context-files",
      "--system-prompt",
      prompt.system,
    ],
    stdin: prompt.body,
  }),
  control: (prompt) => ({ args: ["-p", "--mode", "json", "--system-prompt", prompt.system], stdin: prompt.body }),
  answer: lastAssistantText,
};

const omp: EngineAgent = {
  command: "omp",
  wire: "chat",
  configure(agent, dir, sandbox, fake) {
    configureAgent(agent, sandbox, fake.origin, dir, { modelRoles: { default: "openai/gpt-5.1" } });
    return agentEnv(sandbox);
  },
  loggedOut: (sandbox) => agentEnv(sandbox),
  historyFolders: (sandbox) => [join(sandbox.home, ".omp/agent/sessions")],
  historyRecords: () => [],
  headless: (prompt) => ({
    args: [
      "-p",
      "--mode",
      "json",
      "--no-session",
      "--no-tools",
      "--no-skills",
      "--no-rules",
      "--no-lsp",
      "--no-title",
      "--system-prompt",
      prompt.system,
    ],
    stdin: prompt.body,
  }),
  control: (prompt) => ({ args: ["-p", "--mode", "json", "--no-lsp", "--no-title", "--system-prompt", prompt.system], stdin: prompt.body }),
  answer: lastAssistantText,
};

const claudeCode: EngineAgent = {
  command: "claude",
  wire: "anthropic",
  configure(_agent, _dir, sandbox, fake) {
    mkdirSync(claudeConfigDir(sandbox), { recursive: true });
    return claudeEnv(sandbox, fake);
  },
  loggedOut(sandbox, fake) {
    mkdirSync(claudeConfigDir(sandbox), { recursive: true });
    const { ANTHROPIC_API_KEY: _key, ...env } = claudeEnv(sandbox, fake);
    return env;
  },
  historyFolders: (sandbox) => [join(claudeConfigDir(sandbox), "projects")],
  historyRecords: () => [],
  headless: (prompt) => ({
    args: ["-p", "--output-format", "json", "--no-session-persistence", "--tools", "", "--system-prompt", prompt.system],
    stdin: prompt.body,
  }),
  control: (prompt) => ({ args: ["-p", "--output-format", "json", "--system-prompt", prompt.system], stdin: prompt.body }),
  answer(stdout) {
    const result = jsonLines(stdout).findLast((event) => event.type === "result");
    return result && result.is_error !== true ? stringField(result, "result") : undefined;
  },
};

const codex: EngineAgent = {
  command: "codex",
  wire: "responses",
  configure(_agent, _dir, sandbox, fake) {
    prepareCodex(sandbox, fake);
    return sandbox.env({ CODEX_HOME: codexHomeOf(sandbox), COMPAT_FAKE_KEY: "compat-fake-key" });
  },
  // Never logged in: its folder and nothing in it. (It then tries OpenAI for ever: see the research.)
  loggedOut(sandbox) {
    mkdirSync(codexHomeOf(sandbox), { recursive: true });
    return sandbox.env({ CODEX_HOME: codexHomeOf(sandbox) });
  },
  historyFolders: (sandbox) => [join(codexHomeOf(sandbox), "sessions"), join(codexHomeOf(sandbox), "archived_sessions")],
  historyRecords: codexThreads,
  headless(prompt, scratch) {
    // Codex has no system-prompt flag: a file named in its config replaces its own instructions.
    const instructions = join(scratch, "instructions.md");
    writeFileSync(instructions, prompt.system);
    const quiet = [
      "include_environment_context",
      "include_permissions_instructions",
      "include_apps_instructions",
      "skills.include_instructions",
    ].flatMap((key) => ["-c", `${key}=false`]);
    const args = [
      "exec",
      "--json",
      "--ephemeral",
      "--skip-git-repo-check",
      "--sandbox",
      "read-only",
      "--color",
      "never",
      "--cd",
      scratch,
      ...CODEX_NO_TOOLS,
    ];
    return { args: [...args, "-c", `model_instructions_file=${JSON.stringify(instructions)}`, ...quiet, "-"], stdin: prompt.body };
  },
  control: (prompt, scratch) => ({
    args: ["exec", "--json", "--skip-git-repo-check", "--cd", scratch, "-"],
    stdin: `${prompt.system}\n\n${prompt.body}`,
  }),
  answer(stdout) {
    let text: string | undefined;
    for (const event of jsonLines(stdout)) {
      if (event.type === "item.completed" && isObject(event.item) && event.item.type === "agent_message")
        text = stringField(event.item, "text");
    }
    return text;
  },
};

export const ENGINE_AGENTS: Record<EngineName, EngineAgent> = { pi, omp, "claude-code": claudeCode, codex };
