import { realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentHome, PathSegments } from "../core/index.ts";

/** A folder with its links resolved, as the agents compare folders; as given when it cannot be. */
function realFolder(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Where the agents keep their files on this machine, from the environment (as the agents read it). */
export function agentHome(env: Readonly<Record<string, string | undefined>> = process.env): AgentHome {
  return { home: realFolder(homedir()), env, tmpdir: realFolder(tmpdir()) };
}

/** Joins a format's path segments (core has no path module). */
export function joinSegments(segments: PathSegments): string {
  return join(...segments);
}
