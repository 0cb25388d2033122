/**
 * Where our context deliberately differs from what pi and omp send, each named with its reason.
 * `alignTheirs` applies exactly these differences to what an agent would send; what is left
 * must equal our context message for message, or the check fails.
 */

/** One message as a reading probe reports it (see probes/shared.mjs). */
export interface ProbeMessage {
  label: string;
  toolCallIds?: string[];
  hasText?: boolean;
  toolCallId?: string;
  synthetic?: boolean;
  text?: string;
}

export const DIFFERENCES = {
  addedResult:
    'pi answers a tool call that has no result with an added error result ("No result provided"); we drop the call instead, and the turn with it when nothing else is left: we do not invent results',
  orphanResult:
    "pi sends a tool result whose call is not on the branch (its call was on an abandoned branch, or in a turn dropped as aborted); we drop it: its call never reaches the model",
  staleResult:
    "omp turns a tool result whose call is not on the branch into a user note (<stale-tool-result>); we drop it: its call never reaches the model",
  notASession:
    "the file is not a session: we refuse it (exit 2); pi 0.73.1 (and omp, for an empty file) would start a new session in its place",
  titleSlot: "pi 0.73.1 does not know omp's title line and takes the file for an empty one; we read omp's files",
  cycle: "pi 0.73.1 walks a parent cycle forever; we cut the branch where it loops and warn",
} as const;

export type DifferenceName = keyof typeof DIFFERENCES;

interface Kept {
  label: string;
  calls?: Set<string>;
  hasText?: boolean;
}

/** Their messages with the named differences applied, as labels comparable with our `contextRoles`. */
export function alignTheirs(messages: readonly ProbeMessage[]): { labels: string[]; applied: DifferenceName[] } {
  const applied = new Set<DifferenceName>();
  const kept: Kept[] = [];
  let open = new Set<string>();
  let turn: Kept | undefined;
  for (const message of messages) {
    if (message.label === "assistant") {
      turn = { label: "assistant", calls: new Set(message.toolCallIds ?? []), hasText: message.hasText === true };
      open = new Set(message.toolCallIds ?? []);
      kept.push(turn);
    } else if (message.label.startsWith("toolResult")) {
      const id = message.toolCallId ?? "";
      if (message.synthetic) {
        applied.add("addedResult");
        turn?.calls?.delete(id);
      } else if (!open.has(id)) {
        applied.add("orphanResult");
      } else {
        open.delete(id);
        kept.push({ label: "toolResult" });
      }
    } else if (message.label === "user(added)" && message.text?.startsWith("<stale-tool-result")) {
      applied.add("staleResult");
    } else {
      kept.push({ label: message.label });
    }
  }
  const labels = kept.filter((m) => !(m.label === "assistant" && m.calls?.size === 0 && !m.hasText)).map((m) => m.label);
  return { labels, applied: [...applied] };
}

/** The first position where two label lists differ, shown with a little context. */
export function firstMismatch(ours: readonly string[], theirs: readonly string[]): string | undefined {
  const length = Math.max(ours.length, theirs.length);
  for (let i = 0; i < length; i++) {
    if (ours[i] === theirs[i]) continue;
    const around = (list: readonly string[]) => list.slice(Math.max(0, i - 2), i + 3).join(", ");
    return `message ${i + 1}: ours ${ours[i] ?? "(none)"}, theirs ${theirs[i] ?? "(none)"} (ours …${around(ours)}…; theirs …${around(theirs)}…)`;
  }
  return undefined;
}
