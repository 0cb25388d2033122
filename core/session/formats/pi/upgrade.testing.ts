import type { RawLine } from "../../lines.ts";
import type { Session } from "../../types.ts";
import { upgradeToVersion3 } from "./upgrade.ts";

/** `upgradeToVersion3` into one string, for tests. */
export function upgradeToVersion3Text(session: Session, lines: Iterable<RawLine>): { text: string } | { mismatchedLine: number } {
  const parts: string[] = [];
  const mismatch = upgradeToVersion3(session, lines, (text) => parts.push(text));
  return mismatch ?? { text: parts.join("") };
}
