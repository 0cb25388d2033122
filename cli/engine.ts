import { AgentError } from "../core/index.ts";

export type Engine = "llm" | "offline";

const HOW_TO_CONFIGURE = "set OPENAI_API_KEY (and --base-url or OPENAI_BASE_URL for an endpoint other than OpenAI; a local server needs only the URL)";

/** Said once per run when nobody asked for an engine and no model is configured: short, since every offline run prints it. */
export const NO_MODEL_NOTICE = "no model configured: the offline engine writes the handoff (see agent config)";

/**
 * Which engine writes the document. `auto` uses a model when one is configured (a key or a
 * base URL), else the offline engine, and says so: people try a tool before configuring it,
 * and CI jobs run without secrets. `said` is how the choice was written, for the message when
 * `llm` cannot be honoured (`--engine llm`, `AGENT_ENGINE=llm`, `engine = "llm" in <file>`).
 */
export function resolveEngine(choice: string | undefined, configured: { apiKey?: string; baseUrl?: string }, said = `--engine ${choice}`): { engine: Engine; notice?: string } {
  const hasModel = Boolean(configured.apiKey || configured.baseUrl);
  switch (choice ?? "auto") {
    case "auto":
      return hasModel ? { engine: "llm" } : { engine: "offline", notice: NO_MODEL_NOTICE };
    case "llm":
      if (!hasModel) throw new AgentError("USAGE", `${said} needs a model: ${HOW_TO_CONFIGURE}, or use --engine offline`);
      return { engine: "llm" };
    case "offline":
      return { engine: "offline" };
    default:
      throw new AgentError("USAGE", `--engine takes auto, llm or offline, not "${choice}"`);
  }
}
