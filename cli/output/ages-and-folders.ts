/**
 * How a session is shown to people: how long ago it was written, and its folder with `~` for the
 * home folder. ls, the picker and the messages that name a session all say it this way.
 */
import { sep } from "node:path";
import { countOf } from "../../core/index.ts";

/** `3 minutes ago`, `2 days ago`: how long ago a session was last written, for messages. */
export function describeAge(mtimeMs: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - mtimeMs) / 1000));
  const steps: [number, string][] = [
    [86_400 * 365, "year"],
    [86_400 * 30, "month"],
    [86_400, "day"],
    [3600, "hour"],
    [60, "minute"],
  ];
  for (const [size, unit] of steps) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${countOf(count, unit)} ago`;
  }
  return "just now";
}

/**
 * `~/…` for a path inside the home folder: shorter, and still a path a shell understands.
 * `separator` is the platform's (node:path's `sep`: `\` on Windows).
 */
export function tildePath(path: string, home: string, separator: string = sep): string {
  const base = home.endsWith(separator) ? home.slice(0, -separator.length) : home;
  if (base === "" || /^[A-Za-z]:$/.test(base)) return path;
  return path === base || path.startsWith(`${base}${separator}`) ? `~${path.slice(base.length)}` : path;
}
