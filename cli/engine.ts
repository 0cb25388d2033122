import { AgentError } from "../core/index.ts";

export type Engine = "llm" | "offline";

const HOW_TO_CONFIGURE = "set OPENAI_API_KEY (and --base-url or OPENAI_BASE_URL for an endpoint other than OpenAI; a local server needs only the URL)";

/**
 * Which engine writes the document. `auto` uses a model when one is configured (a key or a
 * base URL), else the offline engine, and says so: people try a tool before configuring it,
 * and CI jobs run without secrets.
 */
export function resolveEngine(flag: string | undefined, configured: { apiKey?: string; baseUrl?: string }): { engine: Engine; notice?: string } {
  const hasModel = Boolean(configured.apiKey || configured.baseUrl);
  switch (flag ?? "auto") {
    case "auto":
      return hasModel ? { engine: "llm" } : { engine: "offline", notice: `no model configured, so the offline engine writes the handoff; to have a model write it, ${HOW_TO_CONFIGURE}` };
    case "llm":
      if (!hasModel) throw new AgentError("USAGE", `--engine llm needs a model: ${HOW_TO_CONFIGURE}, or use --engine offline`);
      return { engine: "llm" };
    case "offline":
      return { engine: "offline" };
    default:
      throw new AgentError("USAGE", `--engine takes auto, llm or offline, not "${flag}"`);
  }
}
