import { handoffFromHookJson, readHookJson } from "./hook-json.ts";
import type { IntegrateOptions } from "./offer.ts";
import type { HookAnswer, HookCommand, HookInput, StopRequest } from "./types.ts";

/**
 * The end-of-turn (`Stop`) and before-compaction (`PreCompact`) hooks of the agents that give
 * their hooks JSON (Claude Code, Codex): the entries `integrate` writes, how a call is read, and
 * the `systemMessage` answer both show the user.
 */

/** The `Stop` hook's timeout (seconds): it reads the session's tail and answers at once. */
export const STOP_TIMEOUT_SECONDS = 30;

/** Whether a hooks entry is ours and runs `hook <agent> <first>` (`--stop`, `--before-compact`). */
export function runsOurHookWith(agent: string, first: string): (value: unknown) => boolean {
  return (value) => {
    if (typeof value !== "object" || value === null) return false;
    const hooks = (value as { hooks?: unknown }).hooks;
    if (!Array.isArray(hooks)) return false;
    return hooks.some((hook) => {
      const command = (hook as { command?: unknown } | null)?.command;
      return typeof command === "string" && command.includes(` hook ${agent} '${first}'`) && command.endsWith("# agent integrate");
    });
  };
}

/** What an agent that reads `systemMessage` shows at the end of a turn: the lines, or nothing at all. */
export function systemMessage(lines: readonly string[]): HookAnswer {
  return { stdout: lines.length === 0 ? "" : `${JSON.stringify({ systemMessage: lines.join("\n") })}\n`, exitCode: 0 };
}

/** The `Stop` entry: `hook <agent> --stop [--offer N]`; when agent is gone, its one line as a `systemMessage`. */
export function stopEntry(command: HookCommand, options: IntegrateOptions): unknown {
  const args = ["--stop", ...(options.offer === undefined ? [] : ["--offer", String(options.offer)])];
  const shell = command.shellWith(args, (why) => systemMessage([why]).stdout);
  return { hooks: [{ type: "command", command: shell, timeout: STOP_TIMEOUT_SECONDS }] };
}

/** One end-of-turn (or before-compaction) call: the session it names, when the event is `event`. */
export function stopFromHookJson(
  { stdin }: HookInput,
  label: string,
  event: string,
  when?: (input: Record<string, unknown>) => boolean,
): StopRequest {
  const input = readHookJson(stdin, label);
  if ("problem" in input) return { kind: "problem", message: input.problem as string };
  if (input.hook_event_name !== event || (when !== undefined && !when(input))) return { kind: "ignore" };
  // Codex passes no transcript for a thread it does not keep on disk: nothing to read, nothing to say.
  if (input.transcript_path === null) return { kind: "ignore" };
  const request = handoffFromHookJson(input, "", label);
  if (request.kind !== "handoff") return request;
  return { kind: "stop", sessionPath: request.sessionPath, sessionId: request.sessionId, cwd: request.cwd };
}

function entries(settings: unknown, event: string): unknown[] {
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  const list = typeof hooks === "object" && hooks !== null ? (hooks as Record<string, unknown>)[event] : undefined;
  return Array.isArray(list) ? list : [];
}

/** What an earlier `integrate` put in a hooks file: the offer's percent (in our `Stop` entry), our `PreCompact` entry. */
export function installedInHooksFile(text: string | undefined, agent: string): IntegrateOptions {
  if (text === undefined) return {};
  let settings: unknown;
  try {
    settings = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return {};
  }
  const options: IntegrateOptions = {};
  const stop = entries(settings, "Stop").find(runsOurHookWith(agent, "--stop"));
  const percent = /'--offer' '([0-9]{1,2})'/.exec(JSON.stringify(stop ?? null))?.[1];
  if (percent !== undefined) options.offer = Number(percent);
  if (entries(settings, "PreCompact").some(runsOurHookWith(agent, "--before-compact"))) options.beforeCompact = true;
  return options;
}
