import { AgentError, type EngineName } from "../../core/index.ts";
import { ENGINE_CHOICES, engineNamed } from "./setting-values.ts";
import { CommandLineError } from "./usage.ts";

/** Who writes the document: a model endpoint, code, or an installed agent's own CLI (see cli/agents/agent-run.ts). */
export type Engine = "llm" | "offline" | EngineName;

const HOW_TO_CONFIGURE =
  "set OPENAI_API_KEY (and --base-url or OPENAI_BASE_URL for an endpoint other than OpenAI; a local server needs only the URL)";

/** Said once per run when nobody asked for an engine and no model is configured: short, since every offline run prints it. */
export const NO_MODEL_NOTICE = "no model configured: the offline engine writes the handoff (see agent config)";

/** Whether an engine is an installed agent's CLI. */
export function isAgentEngine(engine: Engine): engine is EngineName {
  return engine !== "llm" && engine !== "offline";
}

/**
 * The notice when `auto` fell back to offline and an agent's CLI is installed: the same line,
 * with the engine that would use it. `auto` never starts an agent itself (it would spend the
 * user's subscription unasked).
 */
export function noModelNotice(installed: { name: EngineName; label: string } | undefined): string {
  return installed === undefined
    ? NO_MODEL_NOTICE
    : `${NO_MODEL_NOTICE}; ${installed.label} is installed: --engine ${installed.name} has it write the handoff`;
}

/**
 * Which engine writes the document. `auto` uses a model when one is configured (a key or a
 * base URL), else the offline engine, and says so: people try a tool before configuring it,
 * and CI jobs run without secrets. An agent engine (`claude-code`, `codex`, `pi`, `omp`, any
 * spelling `--to` takes) is used only when named. `said` is how the choice was written, for
 * the message when `llm` cannot be honoured (`--engine llm`, `AGENT_ENGINE=llm`, `engine = "llm" in <file>`).
 */
export function resolveEngine(
  choice: string | undefined,
  configured: { apiKey?: string; baseUrl?: string },
  said = `--engine ${choice}`,
): { engine: Engine; notice?: string } {
  const hasModel = Boolean(configured.apiKey || configured.baseUrl);
  switch (choice ?? "auto") {
    case "auto":
      return hasModel ? { engine: "llm" } : { engine: "offline", notice: NO_MODEL_NOTICE };
    case "llm":
      if (!hasModel) throw new AgentError("USAGE", `${said} needs a model: ${HOW_TO_CONFIGURE}, or use --engine offline`);
      return { engine: "llm" };
    case "offline":
      return { engine: "offline" };
    default: {
      const agent = choice === undefined ? undefined : engineNamed(choice, "--engine");
      if (agent) return { engine: agent };
      throw new CommandLineError(`--engine takes ${ENGINE_CHOICES}, not "${choice}"`);
    }
  }
}
