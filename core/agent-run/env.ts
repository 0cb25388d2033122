import type { AgentEngine } from "./types.ts";

/**
 * The environment an agent runs with: the user's own (its login, its provider keys, its
 * proxy settings), less what is ours and what would make it believe it runs inside another
 * agent's session. Called from inside Claude Code's or Codex's shell, `agent handoff` inherits
 * that session's markers; Claude Code 2.1 reads CLAUDECODE, CLAUDE_CODE_CHILD_SESSION and
 * CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS to treat itself as a child of that session.
 */
const SESSION_MARKERS = [
  "CLAUDECODE",
  "CLAUDE_CODE_ENTRYPOINT",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_CODE_CHILD_SESSION",
  "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS",
  // The port of an IDE the calling session talks to.
  "CLAUDE_CODE_SSE_PORT",
  "CODEX_THREAD_ID",
];

/** Our own settings, which no agent reads: `AGENT_ENGINE`, `AGENT_MODEL`, `AGENT_<NAME>_BIN`… */
const OUR_PREFIX = "AGENT_";

/**
 * The llm engine's endpoint and key. Codex, pi and omp may log in with the same variables (an
 * OpenAI key is theirs to use too); Claude Code reads neither, so it is not given them.
 */
const OPENAI_VARIABLES = ["OPENAI_API_KEY", "OPENAI_BASE_URL"];

/** The variables for a run of `engine`: `user` filtered as above, then the plan's own. */
export function agentEnvironment(
  engine: AgentEngine,
  user: Readonly<Record<string, string | undefined>>,
  plan: Readonly<Record<string, string>>,
): Record<string, string> {
  const dropped = new Set([...SESSION_MARKERS, ...(engine.usesOpenAiVariables ? [] : OPENAI_VARIABLES)]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(user)) {
    if (value === undefined || dropped.has(name) || name.startsWith(OUR_PREFIX)) continue;
    env[name] = value;
  }
  return { ...env, ...plan };
}
