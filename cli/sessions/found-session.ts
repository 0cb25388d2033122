/** A session discovery found (a file, or rows of an agent's database), and what it could not read on the way. */
import { statSync } from "node:fs";
import type { SessionFormat, SessionGlance } from "../../core/index.ts";
import { asField } from "../output/terminal.ts";

export interface FoundSession {
  format: SessionFormat;
  /** Where it was found (under the agent's root). */
  path: string;
  /** Its size on disk. */
  bytes: number;
  /** The size of its text (larger for a compressed rollout); undefined when a compressed one was too large to read to its end. */
  textBytes: number | undefined;
  mtimeMs: number;
  glance: SessionGlance;
  /** Set for a session kept as rows in its agent's database (opencode): its id there; `path` is then the database. */
  rowId?: string;
  /** For such a session, how many messages its rows hold, when the database said. */
  rowMessages?: number;
}

/** A found session as messages name it: its file, or its id in its agent's database (which holds many). */
export function nameOfFound(found: FoundSession): string {
  return found.rowId === undefined ? asField(found.path) : `${asField(found.rowId)} in ${asField(found.path)}`;
}

/** A session file, or a folder of them, that could not be read: the one picked may not be the newest. */
export interface Unreadable {
  path: string;
  folder: boolean;
  /** When it last changed (a folder: when a file in it was last added or removed); undefined when even that cannot be told. */
  mtimeMs: number | undefined;
  /** Why, in words (`permission denied`). */
  reason: string;
  /** Set when it is an agent's database of sessions (opencode's): every session of that agent is left out, which `agent ls` says. */
  database?: true;
}

/** Reports a folder or file that could not be read: a warning, shown with `--verbose`. */
export type Warn = (line: string) => void;

/** When `path` last changed, as far as can be told without reading it. */
export function changedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}
