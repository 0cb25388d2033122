/** The messages a branch turns into: what the model would see, in our own normalised shape. */

export interface TextBlock {
  type: "text";
  text: string;
}
export interface ImageBlock {
  type: "image";
  /** Base64 image bytes. */
  data: string;
  mimeType: string;
}
export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
}
export interface ToolCallBlock {
  type: "toolCall";
  id: string;
  name: string;
  arguments: unknown;
}

export type UserBlock = TextBlock | ImageBlock;
export type AssistantBlock = TextBlock | ThinkingBlock | ToolCallBlock;

/**
 * Where a user-side message came from. Only `user` is something a person typed; the rest are
 * wrappers we build around summaries, custom messages and executions.
 */
export type UserMessageKind =
  | "user"
  | "developer"
  | "compactionSummary"
  | "branchSummary"
  | "custom"
  | "bashExecution"
  | "pythonExecution"
  | "fileMention";

export interface UserContextMessage {
  role: "user";
  kind: UserMessageKind;
  content: UserBlock[];
  entryId: string;
  /**
   * On a compaction summary: what the user typed in the entries it replaced, oldest first. Never
   * sent to a model (the summary stands for them); the offline engine reads the goal from them.
   */
  replacedRequests?: UserContextMessage[];
}

export interface AssistantContextMessage {
  role: "assistant";
  content: AssistantBlock[];
  provider: string | undefined;
  model: string | undefined;
  stopReason: string | undefined;
  entryId: string;
}

export interface ToolResultContextMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: UserBlock[];
  isError: boolean;
  /** An exit code the reader found beside the text (Claude Code's Bash): `null` for a run cut short. */
  exitCode?: number | null;
  /** The agent reported the run failed, whatever its code (Claude Code's report on a background command). */
  reportedFailed?: boolean;
  entryId: string;
}

export type ContextMessage = UserContextMessage | AssistantContextMessage | ToolResultContextMessage;

/** The text blocks of a message joined with `\n`. */
export function messageText(message: ContextMessage): string {
  const parts: string[] = [];
  for (const block of message.content) if (block.type === "text") parts.push(block.text);
  return parts.join("\n");
}
