import { AgentError, errorMessage } from "../../core/index.ts";

/**
 * File-system (and exec) error codes in words a user can act on: the one wording for reads,
 * writes and starting programs alike. A test over cli/ keeps other tables of these words out.
 */
export const FS_REASONS = {
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
  ELOOP: "too many symbolic links",
  EIO: "input/output error",
  EFBIG: "file too large",
  ENOEXEC: "not a program this system can run (a script without a #! line?)",
} satisfies Record<string, string>;

const REASON_OF_CODE: Readonly<Record<string, string>> = FS_REASONS;

/** The system's code of a failure (`ENOENT`, `SQLITE_BUSY`, …); "" when it carries none. */
export function errorCode(error: unknown): string {
  return error instanceof Error && "code" in error && (typeof error.code === "string" || typeof error.code === "number")
    ? String(error.code)
    : "";
}

/** Whether the failure says the path is not there (it, or a folder on the way to it). */
export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Why a file-system call failed, in words a user can act on (the system's own words for a code we do not list). */
export function fsReason(error: unknown): string {
  return REASON_OF_CODE[errorCode(error)] ?? errorMessage(error);
}

/** A file-system failure in words a user can act on, naming the path. */
export function fileError(path: string, error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  return new AgentError("FILE", `${path}: ${fsReason(error)}`, { file: path });
}
