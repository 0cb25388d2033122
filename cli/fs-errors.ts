import { AgentError } from "../core/index.ts";

/** File-system error codes in words a user can act on. */
export const FS_REASONS: Record<string, string> = {
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

/** A file-system failure in words a user can act on, naming the path. */
export function fileError(path: string, error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  const reason = FS_REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  return new AgentError("FILE", `${path}: ${reason}`, { file: path });
}
