import { readFileSync, statSync, type Stats } from "node:fs";
import { resolve } from "node:path";
import { AgentError } from "../core/index.ts";

export interface SessionFile {
  /** The path as the user gave it, for messages. */
  path: string;
  absolutePath: string;
  text: string;
  size: number;
  mtimeMs: number;
}

function describeFsError(error: unknown): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return error instanceof Error ? error.message : String(error);
}

/** Reads a session file as UTF-8 text, refusing folders and unreadable paths with a clear message. */
export function readSessionFile(path: string): SessionFile {
  const absolutePath = resolve(path);
  let stats: Stats;
  try {
    stats = statSync(absolutePath);
  } catch (error) {
    throw new AgentError("FILE", `${path}: ${describeFsError(error)}`, { file: path });
  }
  if (stats.isDirectory()) throw new AgentError("FILE", `${path}: is a directory, not a session file`, { file: path });
  if (!stats.isFile()) throw new AgentError("FILE", `${path}: is not a regular file`, { file: path });
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolutePath);
  } catch (error) {
    throw new AgentError("FILE", `${path}: ${describeFsError(error)}`, { file: path });
  }
  return { path, absolutePath, text: bytes.toString("utf8"), size: stats.size, mtimeMs: stats.mtimeMs };
}
