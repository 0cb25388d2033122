import type { TokenUsage } from "../session/types.ts";

/**
 * The Chat Completions request shape we send, declared here so core does not depend on the
 * `openai` package. Field names follow the wire format.
 */
export type ChatContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: "system"; content: string }
  /** OpenAI's name for the instructions on its reasoning models (o1 and newer). */
  | { role: "developer"; content: string }
  | { role: "user"; content: string | ChatContentPart[] }
  /** `reasoning_content` only where an endpoint wants the reasoning of earlier turns back (providers/turns.ts). */
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[]; reasoning_content?: string }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: { type: "object"; properties: Record<string, never> } };
}

export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high";

/**
 * One request. Core builds it in the plain form every endpoint knows (`system`, `max_tokens`,
 * `stream_options`); a provider profile then renames or drops fields as that provider documents
 * (see providers/shape.ts), so what is printed by `--dry-run` is what is sent.
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: true;
  /** Left out for providers that refuse it (and always report usage anyway). */
  stream_options?: { include_usage: true };
  tools?: ChatTool[];
  tool_choice?: "none" | "auto";
  max_tokens?: number;
  /** The output limit under the name OpenAI's reasoning models (and Groq) take. */
  max_completion_tokens?: number;
  /** OpenAI-style reasoning effort (OpenAI, Gemini, Groq). */
  reasoning_effort?: ReasoningEffort;
  /** OpenRouter's reasoning switch. */
  reasoning?: { effort: ReasoningEffort };
}

/** Declared in core/session (a session records it); here too, for the model port. */
export type { TokenUsage };

/** What the model port returns for one request. */
export interface Completion {
  /** The assistant's text, content deltas concatenated; reasoning and tool calls excluded. */
  text: string;
  finishReason: string;
  usage: TokenUsage | undefined;
  /** The model the endpoint says answered, when it says. */
  model: string | undefined;
  /** Requests sent again after the endpoint refused a parameter (see providers/adapt.ts). */
  resent?: number;
}

export interface CompleteOptions {
  signal?: AbortSignal;
  /**
   * Called with each request right before it goes out, once for every attempt: the first, each
   * retry after a failure, each resend without a refused parameter. A port calls it for every
   * request it sends; when it throws, that request is not sent and the error is the port's.
   * This is how `--max-input-tokens` counts every request sent, retries included.
   */
  beforeSend?: (request: ChatRequest) => void;
}

/**
 * The port through which core talks to a model. The CLI implements it over HTTP (cli/model:
 * streaming, retries, timeouts); tests implement it with plain functions.
 * It throws `CompletionError` for failures core reacts to, `AgentError` for the rest.
 */
export type Complete = (request: ChatRequest, options: CompleteOptions) => Promise<Completion>;

/**
 * Failures the pipeline can recover from by changing the request: the prompt is larger than the
 * window, or the endpoint refused one parameter (named in `param`, as the endpoint named it).
 */
export type CompletionFailure = "context_length" | "unsupported_parameter";

export class CompletionError extends Error {
  override readonly name = "CompletionError";
  constructor(
    readonly failure: CompletionFailure,
    message: string,
    /** For `unsupported_parameter`: the field the endpoint refused (`max_tokens`, `messages[0].role`). */
    readonly param?: string,
  ) {
    super(message);
  }
}
