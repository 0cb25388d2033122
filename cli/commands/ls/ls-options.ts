/**
 * What `agent ls`'s flags ask for (pure, but for reading the clock's time zone in an ISO date):
 * which sessions (a folder, every folder, one agent) and how many (`--limit`, `--since`).
 */
import type { SessionFormat } from "../../../core/index.ts";
import { formatsFor } from "../../sessions/find-session.ts";
import { parseAgent } from "../../flags/setting-values.ts";
import { CommandLineError } from "../../flags/usage.ts";

export interface LsOptions {
  formats: readonly SessionFormat[];
  /** The folder named (as given); undefined for the current one, or with `--all`. */
  folder: string | undefined;
  all: boolean;
  /** At most this many, the newest. */
  limit: number | undefined;
  /** Only sessions updated at this time (ms since the epoch) or later. */
  sinceMs: number | undefined;
}

/** The furthest a JavaScript date reaches from 1970, either way, in ms. */
const MAX_TIME_MS = 8.64e15;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `2026-07-01`, `2026-07-01T09:30`, `2026-07-01 09:30:00`, `2026-07-01T09:30:00.000Z`, `…+02:00`. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * `--since`: a duration back from `now` (`90s`, `30m`, `2h`, `7d`, `2w`), or an ISO date or time;
 * without a zone, local time (midnight for a date alone), as `git log --since` reads one.
 */
export function parseSince(text: string, now: number): number {
  const trimmed = text.trim();
  const duration = /^(\d+)\s*([smhdw])$/i.exec(trimmed);
  if (duration) {
    const ms = now - Number(duration[1]) * (UNIT_MS[duration[2]?.toLowerCase() ?? ""] ?? 0);
    // A time is a date only within ±8.64e15 ms of 1970 (about 270,000 years): further back is no time to list from.
    if (Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS) return ms;
    throw new CommandLineError(
      `--since ${trimmed} reaches back further than a date can (about 270,000 years); give a shorter duration or an ISO date`,
    );
  }
  const iso = ISO.exec(trimmed);
  if (iso) {
    const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone] = iso;
    const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${normalZone(zone)}`);
    // A day that does not exist (2026-02-31) is refused, not rolled over into March.
    if (Number.isFinite(ms) && Number(month) >= 1 && Number(month) <= 12 && Number(day) <= daysIn(Number(year), Number(month))) return ms;
  }
  throw new CommandLineError(`--since takes a duration (30m, 2h, 7d) or an ISO date (2026-07-01), not "${text}"`);
}

function normalZone(zone: string | undefined): string {
  if (zone === undefined || zone === "Z") return zone ?? "";
  return zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `--limit`: a whole number, at least 1. */
export function parseLimit(text: string): number {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1)
    throw new CommandLineError(`--limit takes a whole number of sessions, at least 1, not "${text}"`);
  return value;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function resolveLsOptions(args: Record<string, unknown>, now: number): LsOptions {
  const folder = text(args.folder);
  const all = args.all === true;
  if (folder !== undefined && all) throw new CommandLineError(`give a folder or --all, not both (${folder} and --all)`);
  const agent = text(args.agent);
  const limit = text(args.limit);
  const since = text(args.since);
  return {
    formats: formatsFor(agent === undefined ? undefined : parseAgent(agent, "--agent"), true),
    folder,
    all,
    limit: limit === undefined ? undefined : parseLimit(limit),
    sinceMs: since === undefined ? undefined : parseSince(since, now),
  };
}
