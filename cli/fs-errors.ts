import { AgentError, errorMessage } from "../core/index.ts";

/** File-system error codes in words a user can act on: the one wording for reads and writes alike. */
export const FS_REASONS: Record<string, string> = {
  EISDIR: "it is a directory",
  ENXIO: "nothing can be read from it (a socket?)",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOENT: "no such file or folder",
  EEXIST: "already exists; refusing to overwrite it",
  EXDEV: "hard links are not possible there",
  ENAMETOOLONG: "the name is too long for the file system",
  ENOTDIR: "a part of the path is not a folder",
};

/** Why a file-system call failed, in words a user can act on (the system's own words for a code we do not list). */
export function fsReason(error: unknown): string {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  return FS_REASONS[code] ?? errorMessage(error);
}

/** A file-system failure in words a user can act on, naming the path. */
export function fileError(path: string, error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  return new AgentError("FILE", `${path}: ${fsReason(error)}`, { file: path });
}
