import type { Session } from "../types.ts";
import type { SessionFormat } from "./types.ts";

/** `2.1.328` → [2, 1, 328]; what follows the numbers (`-beta.1`, ` (build)`) does not count. Undefined when it starts with no number. */
function versionNumbers(version: string): number[] | undefined {
  const match = /^v?(\d+(?:\.\d+)*)/.exec(version.trim());
  return match?.[1]?.split(".").map(Number);
}

/** Whether `version` is later than `tested`, by their numbers; a version without numbers is never later. */
export function isNewerVersion(version: string, tested: string): boolean {
  const a = versionNumbers(version);
  const b = versionNumbers(tested);
  if (!a || !b) return false;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return false;
}

/**
 * One line when the session was written by a newer version of its agent than the one
 * `bun run compat` ran: formats change between versions, and we may misread what changed.
 */
export function newerVersionNotice(session: Session, format: SessionFormat): string | undefined {
  const version = session.header.agentVersion;
  const tested = format.testedVersion;
  if (version === undefined || tested === undefined || !isNewerVersion(version, tested)) return undefined;
  // The version is the file's own text: a damaged or hostile one is cut, to keep the notice one line.
  const flat = version.replace(/\s+/g, " ");
  const shown = flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
  return `written by ${format.label} ${shown}, newer than ${tested}, the version we tested: its format may have changed, and parts of it may be misread`;
}
