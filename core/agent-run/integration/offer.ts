import type { ContextUsage } from "../../session/context-usage.ts";

/**
 * The offer before the context rots: when the context of the session the agent has open passes a
 * share of its model's window, the agent shows one line offering the handoff command, once per
 * crossing (shown again only after the context fell below the share, e.g. after a compaction).
 * Pure: cli reads the session's tail and keeps the state of what was offered.
 */

/** What `agent integrate <agent>` installs besides `/handoff` itself. */
export interface IntegrateOptions {
  /** The share of the window (percent, 1–99) past which the agent offers the handoff; undefined: no offer. */
  offer?: number | undefined;
  /** Claude Code: write the handoff session before an automatic compaction, and say where at the next Stop. */
  beforeCompact?: boolean | undefined;
}

/** `--offer`'s value: a whole percent from 1 to 99, else the one line saying what it takes. */
export function parseOfferPercent(value: unknown): number | { problem: string } {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim().replace(/%$/, "") : "";
  const percent = /^[0-9]{1,2}$/.test(text) ? Number(text) : Number.NaN;
  if (percent >= 1 && percent <= 99) return percent;
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 20)) : String(value);
  return { problem: `--offer takes a whole percent of the model's window from 1 to 99 (e.g. --offer 80), not ${shown}` };
}

/** The arguments of a Stop-time call (`agent hook <agent> --stop …`), as `integrate` and the extension write them. */
export interface StopArgs {
  offer?: number;
  /** pi and omp: the session file the agent has open, its folder, and its model's window as the agent knows it. */
  session?: string;
  cwd?: string;
  window?: number;
}

const STOP_USAGE = "expected --stop [--offer <percent>] [--session <file> --cwd <folder> [--window <tokens>]]";

/** Reads `--stop [--offer N] [--session F] [--cwd C] [--window W]` strictly: each once, nothing else. */
export function parseStopArgv(argv: readonly string[]): StopArgs | { problem: string } {
  if (argv[0] !== "--stop") return { problem: STOP_USAGE };
  const seen = new Map<string, string>();
  for (let i = 1; i < argv.length; i += 2) {
    const [name = "", value] = [argv[i], argv[i + 1]];
    if (!["--offer", "--session", "--cwd", "--window"].includes(name))
      return { problem: `unexpected ${JSON.stringify(name)} (${STOP_USAGE})` };
    if (value === undefined || value === "") return { problem: `${name} needs a value (${STOP_USAGE})` };
    if (seen.has(name)) return { problem: `${name} is given twice (${STOP_USAGE})` };
    seen.set(name, value);
  }
  const args: StopArgs = {};
  const offer = seen.get("--offer");
  if (offer !== undefined) {
    const percent = parseOfferPercent(offer);
    if (typeof percent === "object") return percent;
    args.offer = percent;
  }
  const window = seen.get("--window");
  // The running agent may know no window (no model yet): then it passes none, or nothing usable.
  if (window !== undefined && /^[0-9]{1,10}$/.test(window) && Number(window) > 0) args.window = Number(window);
  const session = seen.get("--session");
  const cwd = seen.get("--cwd");
  if (session !== undefined) args.session = session;
  if (cwd !== undefined) args.cwd = cwd;
  return args;
}

/** Where the window comes from, most trusted first: recorded in the session, known to the running agent, the user's setting, the model's name. */
export function windowOf(usage: ContextUsage, liveWindow: number | undefined, setting: number | undefined): number | undefined {
  return usage.window ?? liveWindow ?? setting ?? usage.modelWindow;
}

export interface OfferInput {
  usage: ContextUsage | undefined;
  percent: number;
  window: number | undefined;
  /** Whether the offer was shown since the context last was below the share. */
  offered: boolean;
  /** What the user types in this agent: `/handoff`, `$handoff`, `/agent-handoff`. */
  command: string;
}

/** `offer`: show the line and remember it; `rearm`: below the share again, forget it; `none`: nothing to do. */
export type OfferStep = { kind: "offer"; text: string } | { kind: "rearm" } | { kind: "none" };

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** What the offer does after one turn. */
export function offerStep({ usage, percent, window, offered, command }: OfferInput): OfferStep {
  // No figures yet, or stale ones (a compaction since): nothing is known, nothing changes.
  if (usage === undefined || window === undefined) return { kind: "none" };
  const share = (usage.tokens / window) * 100;
  if (share < percent) return offered ? { kind: "rearm" } : { kind: "none" };
  if (offered) return { kind: "none" };
  const shown = Math.min(999, Math.floor(share));
  return {
    kind: "offer",
    text: `Context ${shown}% full (${thousands(usage.tokens)} of ${thousands(window)} tokens): type ${command} to continue in a fresh session with a handoff document.`,
  };
}
