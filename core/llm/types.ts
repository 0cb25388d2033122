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
  | { role: "user"; content: string | ChatContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: { type: "object"; properties: Record<string, never>; additionalProperties: true } };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: true;
  stream_options: { include_usage: true };
  tools?: ChatTool[];
  tool_choice?: "none" | "auto";
  max_tokens?: number;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** What the model port returns for one request. */
export interface Completion {
  /** The assistant's text, content deltas concatenated; reasoning and tool calls excluded. */
  text: string;
  finishReason: string;
  usage: TokenUsage | undefined;
  /** The model the endpoint says answered, when it says. */
  model: string | undefined;
}

export interface CompleteOptions {
  signal?: AbortSignal;
}

/**
 * The port through which core talks to a model. The CLI implements it over HTTP with the
 * `openai` SDK (streaming, retries, timeouts); tests implement it with plain functions.
 * It throws `CompletionError` for failures core reacts to, `AgentError` for the rest.
 */
export type Complete = (request: ChatRequest, options: CompleteOptions) => Promise<Completion>;

/** Failures the pipeline can recover from by changing the request. */
export type CompletionFailure = "context_length" | "tool_choice_unsupported";

export class CompletionError extends Error {
  override readonly name = "CompletionError";
  constructor(
    readonly failure: CompletionFailure,
    message: string,
  ) {
    super(message);
  }
}
