import { describeFormatNames, findFormat } from "../../session/formats/table.ts";
import type { AgentName } from "../../session/types.ts";

/**
 * What the user typed after `/handoff` (Codex: `$handoff`; omp: `/agent-handoff`), read as data:
 * `[--to <agent>] [--] [focus …]`. Every agent's call comes through here; the focus is never
 * shell text, and anything that is neither `--to` nor the focus is refused in one line.
 */
export type HandoffArgs = { to: AgentName | undefined; focus: string } | { problem: string };

/** `--` ends the options: what follows is the focus, even when it starts with `-`. */
function focusAfter(rest: string): string {
  const trimmed = rest.trim();
  return trimmed === "--" ? "" : trimmed.startsWith("-- ") || trimmed.startsWith("--\n") ? trimmed.slice(3).trim() : trimmed;
}

export function parseHandoffArgs(text: string): HandoffArgs {
  // A NUL cannot be passed on as an argument by any agent, and no focus means one.
  if (text.includes("\0")) return { problem: "the text after the command holds a NUL character; type it without one" };
  const trimmed = text.trim();
  if (trimmed === "--" || /^--\s/.test(trimmed)) return { to: undefined, focus: focusAfter(trimmed) };
  const to = /^--to(?:=|\s+)(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (to) {
    const name = to[1] ?? "";
    const format = findFormat(name);
    if (!format) return { problem: `--to takes ${describeFormatNames()}, not ${JSON.stringify(name.slice(0, 40))}` };
    return { to: format.name, focus: focusAfter(to[2] ?? "") };
  }
  if (/^--to\s*$/.test(trimmed)) return { problem: "--to needs an agent: --to <agent>" };
  const flag = /^(-{1,2}[A-Za-z][\w-]*)/.exec(trimmed);
  if (flag)
    return { problem: `${flag[1]} is not an option here: only --to <agent>, then the focus (put -- before a focus that starts with -)` };
  return { to: undefined, focus: trimmed };
}
