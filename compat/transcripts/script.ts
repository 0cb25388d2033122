/**
 * The scripted model behind the real transcripts: the same little task for every agent —
 * look around with a shell command, read a file, fix a typo in it, run a command that fails,
 * answer; then a second turn that reads the file again and answers; then a compaction.
 */
import { isObject } from "../../core/json.ts";
import type { Reply, ToolCallReply } from "../fake/reply.ts";
import type { LoggedRequest, Script } from "../fake/server.ts";
import { contentText } from "../checks/session-file.ts";

/** The project every agent works in (relative paths), written before the first turn. */
export const PROJECT_FILES: Record<string, string> = {
  "src/greet.txt": "Hello, wrold!\n",
  "README.md": "# greet\n\nPrints a greeting.\n",
};

export const FIRST_PROMPT = "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.";
export const SECOND_PROMPT = "Show me src/greet.txt once more.";
export const COMPACT_INSTRUCTIONS = "Keep only what the next turn needs.";
export const THANKS = "Thanks, that is all.";
export const SUMMARY_TEXT = "COMPAT-SUMMARY: fixed the typo in src/greet.txt (wrold -> world); notes/todo.txt does not exist.";

/** How an agent names its tools and their arguments: the task is the same, the calls are not. */
export interface ToolStyle {
  bash(command: string): ToolCallReply;
  read(path: string): ToolCallReply;
  /** Replace `oldText` by `newText` in `path` (some agents only have a write or a shell for this). */
  edit(path: string, oldText: string, newText: string): ToolCallReply;
}

/** The model's side of both turns, in order; `project` is the absolute project folder. */
export function turnReplies(style: ToolStyle): Reply[] {
  return [
    { text: "Looking around first.", toolCalls: [style.bash("ls src && wc -c src/greet.txt")] },
    { toolCalls: [style.read("src/greet.txt")] },
    { text: "The typo is 'wrold'.", toolCalls: [style.edit("src/greet.txt", "wrold", "world")] },
    { toolCalls: [style.bash("test -f notes/todo.txt")] },
    { text: "Fixed the typo in src/greet.txt. notes/todo.txt does not exist (the check exited with 1)." },
    { toolCalls: [style.read("src/greet.txt")] },
    { text: "src/greet.txt now reads: Hello, world!" },
  ];
}

/** Every text of ours a transcript may carry: what the sanitizer keeps. */
export function ourTexts(replies: readonly Reply[]): string[] {
  const texts = [
    FIRST_PROMPT,
    SECOND_PROMPT,
    COMPACT_INSTRUCTIONS,
    SUMMARY_TEXT,
    THANKS,
    ...Object.values(PROJECT_FILES),
    "Hello, world!\n",
  ];
  for (const reply of replies) {
    if (reply.text) texts.push(reply.text);
    for (const call of reply.toolCalls ?? [])
      for (const value of Object.values(call.arguments)) if (typeof value === "string" && value.length > 3) texts.push(value);
  }
  return [...new Set(texts)].filter((t) => t.trim().length > 3);
}

/**
 * The last text of the last user-side message of a request, on any wire, without Claude Code's
 * `<system-reminder>` blocks: what the agent added last (the user's prompt, or its own request
 * for a summary). The parts before it may be the agent's own context: Claude Code opens a
 * session's first message with reminders, one of which lists skills that "summarize".
 */
export function lastUserText(body: unknown): string {
  if (!isObject(body)) return "";
  // The Gemini API's `contents` hold `parts`; the other wires' messages, `content`.
  const list = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.input)
      ? body.input
      : Array.isArray(body.contents)
        ? body.contents
        : [];
  const message: unknown = list.findLast((item: unknown) => isObject(item) && item.role === "user");
  if (!isObject(message)) return "";
  const content = message.content ?? message.parts;
  const parts = Array.isArray(content) ? content : [content];
  const texts = parts.map((part: unknown) => contentText(typeof part === "string" ? part : [part])).filter((text: string) => text !== "");
  return (texts.at(-1) ?? "").replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "").trim();
}

/**
 * A compaction asks for a summary in the words it adds last (Gemini CLI's, and its check of it,
 * for a `<state_snapshot>`); none of our own prompts says "summar", "compact" or "state_snapshot".
 */
export function isCompaction(request: LoggedRequest): boolean {
  const text = lastUserText(request.body).toLowerCase();
  return text.includes("summar") || text.includes("compact") || text.includes("<state_snapshot>");
}

/**
 * The fake's script: compactions get the summary, other requests with tools get the next
 * reply in order, everything else (titles, side questions) a short text. `inputTokens`
 * makes the reported usage large enough for the agents' automatic compaction to start.
 */
export function transcriptScript(replies: Reply[], inputTokens: () => number): Script {
  let next = 0;
  return (request) => {
    if (isCompaction(request)) return { text: SUMMARY_TEXT, inputTokens: 500 };
    const hasTools = isObject(request.body) && Array.isArray(request.body.tools) && request.body.tools.length > 0;
    if (!hasTools) return { text: "Fix greeting typo", inputTokens: 200 };
    const reply = replies[next] ?? { text: "Nothing more to do." };
    next++;
    return { ...reply, inputTokens: inputTokens() };
  };
}
