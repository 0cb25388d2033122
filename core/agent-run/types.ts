import type { AgentPrompt } from "../handoff/agent-prompt.ts";
import type { TokenUsage } from "../llm/types.ts";
import type { AgentName } from "../session/formats/types.ts";

/**
 * An installed coding agent used as the model: how to run its own CLI headless with one prompt,
 * and how to read what it printed. Pure: `cli/agents/agent-run.ts` finds the executable, makes the
 * scratch folder, runs the plan and hands back what came out.
 */

/** What to run, apart from the executable itself. */
export interface AgentRunPlan {
  /** The arguments after the executable. The prompt is never among them (see `stdin`). */
  args: string[];
  /** Variables added to the user's environment (the agent needs the user's own login). */
  env: Record<string, string>;
  /** The prompt, on standard input: argv has a size limit, and `ps` shows it to everyone. */
  stdin: string;
  /** Files to write into the scratch folder before the run (name → text), such as an instructions file. */
  files?: Record<string, string>;
}

/** What a finished run left: its output streams and how it ended. */
export interface AgentRunOutput {
  stdout: string;
  stderr: string;
  /** `null` when it ended by a signal. */
  exitCode: number | null;
  signal?: string | null;
}

/** The agent's final answer, and what it said about the model and the cost. */
export interface AgentAnswer {
  text: string;
  usage: TokenUsage | undefined;
  /** The model the agent used, when it says. */
  model: string | undefined;
  /** The agent says the model stopped at its output limit: the answer may be cut short. */
  cutShort?: boolean;
}

/**
 * Why a run gave no answer: the agent is not logged in (or has no provider configured), it
 * refused or failed (with its own short message), it exited 0 with nothing, or it printed
 * something other than what this mode prints.
 */
export type AgentFailureKind = "logged-out" | "failed" | "empty" | "unreadable";

/**
 * `remove`: files the run left that hold the prompt (omp saves a refused request whole and
 * names the file in its message): removed, exactly those, so nothing of the session stays.
 */
export type AgentOutcome = { answer: AgentAnswer } | { failure: AgentFailureKind; message: string; remove?: string[] };

/**
 * One agent's engine. `Name` is its literal name, so the engine table's names form a type
 * (`EngineName`, in `table.ts`): an agent whose CLI cannot run safely as an engine has a format
 * and no engine, and nothing keyed by engine names needs a row for it.
 */
export interface AgentEngine<Name extends AgentName = AgentName> {
  name: Name;
  /** The product's name, for messages: `Claude Code`. */
  label: string;
  /** The executable looked up on PATH: `claude`. */
  command: string;
  /** The variable naming the executable: `AGENT_CLAUDE_CODE_BIN`. */
  binEnv: string;
  /** How to log in, said when the agent is not: "run `claude` once". */
  loginHint: string;
  /** The context window assumed when none is set (the one the agent's default model states). */
  contextWindow: number;
  /** Whether it may log in with OPENAI_API_KEY / OPENAI_BASE_URL (else they are not passed on). */
  usesOpenAiVariables: boolean;
  /** The most characters the agent takes as a prompt, where it has a limit of its own. */
  promptLimit?: number;
  /** The run for one prompt. `scratch` is the empty folder it runs in. */
  plan(prompt: AgentPrompt, scratch: string): AgentRunPlan;
  /**
   * Lines of its output it repeats as it streams and `read` never needs, told by their first
   * bytes: dropped unread as they pass, so they count toward no limit (pi's `message_update`
   * events hold the whole answer-so-far, once per streamed piece).
   */
  skipLine?(start: string): boolean;
  /** Reads a finished run. */
  read(output: AgentRunOutput): AgentOutcome;
}
