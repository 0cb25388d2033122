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
 * `bun run compat` ran: formats change between versions, and we may misread what changed. The
 * version is the file's own text: `show` is how the caller prints it (the CLI cuts a damaged or
 * hostile one short, after taking any secret out of it, so a cut never leaves half a secret).
 */
export function newerVersionNotice(
  session: Session,
  format: SessionFormat,
  show: (version: string) => string = (version) => version,
): string | undefined {
  const version = session.header.agentVersion;
  const tested = format.testedVersion;
  if (version === undefined || tested === undefined || !isNewerVersion(version, tested)) return undefined;
  return `written by ${format.label} ${show(version.replace(/\s+/g, " "))}, newer than ${tested}, the version we tested: its format may have changed, and parts of it may be misread`;
}

/** The layout versions pi and omp have written (`version` in the header), each read and recorded by us. */
export const KNOWN_LAYOUT_VERSIONS: readonly number[] = [1, 2, 3];

/** The layout version a file says it has, when it says one we do not know (pi, omp); else undefined. */
export function unknownLayoutVersion(session: Session): number | undefined {
  const found = session.versionFound;
  return found !== undefined && !KNOWN_LAYOUT_VERSIONS.includes(found) ? found : undefined;
}

/** Where an unknown layout version stands beside the ones we know. */
function beside(found: number): string {
  if (found > 3) return "newer than the 3 we know";
  if (found < 1) return "older than the 1 we know";
  return "not one we know";
}

/**
 * One line when the header says a layout version we do not know: the file is read all the
 * same, as the layout named (the header line is read, not skipped), and nothing is recorded
 * into it (see `unknownLayoutRefusal`).
 */
export function unknownLayoutNotice(session: Session): string | undefined {
  const found = unknownLayoutVersion(session);
  if (found === undefined) return undefined;
  const known = found > 3 || found < 1 ? `, ${beside(found)}` : "";
  return `line ${session.header.line}: unknown session version ${found}${known}; read as version ${session.version}`;
}

/**
 * Why the handoff is not recorded into a source of a layout version we do not know: a newer pi
 * may not read our version-3 lines in it, and upgrading an unknown layout could lose what it
 * holds. Undefined when the version is one we know.
 */
export function unknownLayoutRefusal(session: Session): string | undefined {
  const found = unknownLayoutVersion(session);
  if (found === undefined) return undefined;
  return `its session version ${found} is ${beside(found)}, and we record only into versions 1 to 3 (the agent that wrote it may not read our lines)`;
}
