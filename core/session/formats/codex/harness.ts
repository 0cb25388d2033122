/**
 * Which `user`-role messages in a Codex rollout Codex itself wrote. Codex sends its own context
 * to the model as user messages (AGENTS.md, the environment, skills, a note that a turn was
 * interrupted, …) and recognises them again by their markers (codex-rs/core/src/context/:
 * every fragment registered in `contextual_user_message.rs`, plus the legacy ones older
 * sessions hold); a message with any such part is not something the user typed. The list is
 * the one Codex 0.169 keeps; `bun run compat` checks the real transcript against it.
 */

/** A fragment Codex wraps in an opening and a closing marker (compared without case, ends trimmed). */
const MARKED: readonly (readonly [open: string, close: string])[] = [
  ["# AGENTS.md instructions for ", "</INSTRUCTIONS>"],
  ["<user_instructions>", "</user_instructions>"],
  ["<environment_context>", "</environment_context>"],
  ["<skill", "</skill>"],
  ["<user_shell_command>", "</user_shell_command>"],
  ["<turn_aborted>", "</turn_aborted>"],
  ["<subagent_notification>", "</subagent_notification>"],
  ["<codex_internal_context", "</codex_internal_context>"],
  ["<goal_context>", "</goal_context>"],
  ["<next_prompt_suggestion>", "</next_prompt_suggestion>"],
  ["<hook_prompt", "</hook_prompt>"],
  // `<external_<source>>…</external_<source>>` and `<external_context kind=…>`: context an integration added.
  ["<external_", ">"],
];

/** Warnings older Codex versions sent as user messages; recognised by how they start (and end). */
const WARNINGS: readonly (readonly [start: string, end?: string])[] = [
  ["Warning: The maximum number of unified exec processes you can keep open is"],
  ["Warning: apply_patch was requested via ", "Use the apply_patch tool instead of exec_command."],
  ["Warning: Your account was flagged for potentially high-risk cyber activity"],
];

function startsWithIgnoringCase(text: string, prefix: string): boolean {
  return text.slice(0, prefix.length).toLowerCase() === prefix.toLowerCase();
}

function endsWithIgnoringCase(text: string, suffix: string): boolean {
  return text.slice(text.length - suffix.length).toLowerCase() === suffix.toLowerCase();
}

/** How every fragment above starts: a quick look rules most of the user's words out. */
const FIRST_CHARACTERS = new Set([...MARKED.map(([open]) => open[0]), ...WARNINGS.map(([start]) => start[0])]);

/** Whether one text part of a user message is a fragment Codex wrote. */
export function isHarnessText(text: string): boolean {
  const first = /\S/.exec(text.slice(0, 256))?.[0];
  if (first === undefined || !FIRST_CHARACTERS.has(first)) return false;
  const trimmed = text.trim();
  if (
    MARKED.some(
      ([open, close]) =>
        trimmed.length >= open.length + close.length && startsWithIgnoringCase(trimmed, open) && endsWithIgnoringCase(trimmed, close),
    )
  )
    return true;
  return WARNINGS.some(([start, end]) => trimmed.startsWith(start) && (end === undefined || trimmed.endsWith(end)));
}

/**
 * How the one-line preamble Codex puts before a compaction summary it sends as a user message
 * starts (codex-rs/core/templates/compact/summary_prefix.md); the summary follows its line
 * break. Such a message is the compaction's summary, not the user's words.
 */
export const SUMMARY_PREAMBLE_START = "Another language model started to solve this problem";

export function isSummaryText(text: string): boolean {
  return text.startsWith(SUMMARY_PREAMBLE_START) && text.includes("\n");
}

/** A compaction summary without Codex's preamble (which speaks to the model, not of the work). */
export function withoutSummaryPreamble(text: string): string {
  return isSummaryText(text) ? text.slice(text.indexOf("\n") + 1) : text;
}

/** A shell command the user ran themselves (`!cmd` in Codex), as Codex recorded it for the model. */
export interface UserShellCommand {
  command: string;
  exitCode: number | undefined;
  output: string;
}

/**
 * Reads `<user_shell_command>` (`<command>…</command>` and `<result>` with `Exit code: N` and
 * `Output:`), the shape Codex gives it; undefined when it has another shape.
 */
export function parseUserShellCommand(text: string): UserShellCommand | undefined {
  const body =
    /^\s*<user_shell_command>\s*<command>\n?([\s\S]*?)\n?<\/command>\s*<result>\n?([\s\S]*?)\n?<\/result>\s*<\/user_shell_command>\s*$/i.exec(
      text,
    );
  if (!body) return undefined;
  const [, command = "", result = ""] = body;
  const exit = /^Exit code: (-?\d+)$/m.exec(result);
  const outputAt = result.indexOf("Output:\n");
  return {
    command,
    exitCode: exit ? Number(exit[1]) : undefined,
    output: outputAt === -1 ? "" : result.slice(outputAt + "Output:\n".length),
  };
}
