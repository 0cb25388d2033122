import type { HookRequest } from "./types.ts";

/** More than any hook's JSON holds (the prompt is the longest part): a bigger stdin is refused unread. */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

/** The JSON object an agent gives its hook on stdin, or the one-line problem with it. */
export function readHookJson(stdin: string | undefined, label: string): Record<string, unknown> | { problem: string } {
  if (stdin === undefined || stdin.trim() === "")
    return { problem: `agent hook got nothing on stdin: ${label} gives its hook JSON there (run it from ${label}, not a shell)` };
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch {
    return { problem: `agent hook got text that is not JSON on stdin, not the hook input ${label} gives` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problem: `agent hook got JSON that is not an object on stdin, not the hook input ${label} gives` };
  return value as Record<string, unknown>;
}

/** The handoff request from the hook input's fields: the session by id and transcript path, checked for shape only (cli checks the file). */
export function handoffFromHookJson(input: Record<string, unknown>, args: string, label: string): HookRequest {
  const { session_id: sessionId, transcript_path: sessionPath, cwd } = input;
  if (typeof sessionId !== "string" || sessionId === "")
    return { kind: "problem", message: `agent hook: the hook input from ${label} names no session_id` };
  if (typeof sessionPath !== "string" || sessionPath === "")
    return { kind: "problem", message: `agent hook: the hook input from ${label} names no transcript_path` };
  return { kind: "handoff", sessionId, sessionPath, cwd: typeof cwd === "string" && cwd !== "" ? cwd : undefined, args };
}

/** Whether `command` (a hook's shell line) is the one `integrate` writes for `agent`: it ends its program's run with `hook <agent>`. */
export function runsOurHook(value: unknown, agent: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  const hooks = (value as { hooks?: unknown }).hooks;
  if (!Array.isArray(hooks)) return false;
  return hooks.some((hook) => {
    const command = (hook as { command?: unknown } | null)?.command;
    return typeof command === "string" && command.includes(` hook ${agent};`) && command.endsWith("# agent integrate");
  });
}
