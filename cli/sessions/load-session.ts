import type { Run } from "../run.ts";
import { join } from "node:path";
import type { ConsolaInstance } from "consola/core";
import {
  AgentError,
  analyzeBranch,
  describeSessionProblems,
  isAgentError,
  newerVersionNotice,
  unknownLayoutNotice,
  withUsableCwd,
  readSession,
  type BranchAnalysis,
  type ResolveBlob,
  type Session,
  type SessionFormat,
} from "../../core/index.ts";
import { sessionFolderOwner } from "./discover-older-folders.ts";
import { agentHome } from "./agent-home.ts";
import { openSessionInput, type SessionFile } from "./session-file.ts";
import { readRegularFile } from "../io/read-whole.ts";
import { statSync } from "node:fs";
import { readRowSession, type RowSessionRef } from "./session-rows.ts";

/** A session this large keeps the same code busy long enough for compiling it to pay (see ProcessHost.longWork). */
export const LONG_WORK_BYTES = 4 * 1024 * 1024;

/** The largest blob read: an image a model takes is a few MB; anything larger is left out like a missing blob. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024;
import { asField } from "../output/terminal.ts";

/** Blobs an agent keeps beside its sessions (omp's large images), read by their hash. */
export function blobResolver(blobDir: string): ResolveBlob {
  return (sha256) => {
    try {
      // A blob that is not a regular file (a pipe someone left there) is not read: it could block the run.
      return readRegularFile(join(blobDir, sha256), (reason) => new AgentError("FILE", reason), MAX_BLOB_BYTES).toString("base64");
    } catch {
      return undefined;
    }
  };
}

/** Puts the file in front of a core error that could not know it (an unknown `--leaf` id). */
function namingFile<T>(path: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (isAgentError(error) && error.location?.file === undefined)
      throw new AgentError(error.code, `${path}: ${error.message}`, { file: path });
    throw error;
  }
}

async function readFromFile(run: Run, path: string): Promise<{ file: SessionFile; read: { session: Session; format: SessionFormat } }> {
  const { file, chunks, bytes } = await openSessionInput(path, run.cancel.signal, { cwd: run.cwd, stdin: run.io.stdin });
  if (bytes >= LONG_WORK_BYTES) run.host.longWork?.();
  const read = readSession(chunks, path);
  // A session that does not name its folder (Gemini's from before JSON Lines) worked in the one
  // its project folder stands for, by the rule agent ls places it with.
  const owner =
    read.session.header.cwd === undefined && file.stream === undefined
      ? sessionFolderOwner(read.format, file.absolutePath, agentHome(run), [run.cwd])
      : undefined;
  if (owner === undefined) return { file, read };
  return { file, read: { ...read, session: { ...read.session, header: { ...read.session.header, cwd: owner } } } };
}

/**
 * A session kept as rows, read through the port. Its database is the "file" messages name; it is
 * never written to, so it stands as a stream does: nothing to record into, no file to name as a parent.
 */
function readFromRows(ref: RowSessionRef): { file: SessionFile; read: { session: Session; format: SessionFormat } } {
  const session = readRowSession(ref.database, ref.format.rows, ref.id);
  const stats = statSync(ref.database);
  const file: SessionFile = {
    path: ref.database,
    absolutePath: ref.database,
    realPath: ref.database,
    links: stats.nlink,
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    stream: `it is rows of ${ref.format.rows.label}, which agent handoff never writes to`,
  };
  return { file, read: { session, format: ref.format } };
}

export interface LoadedSession {
  file: SessionFile;
  session: Session;
  /** The format the session was read in (the table's entry for the agent that wrote it). */
  format: SessionFormat;
  analysis: BranchAnalysis;
  warnings: string[];
}

/**
 * Reads, recognises, parses and analyses a session for a command, warning about what was
 * skipped. With `strict`, any unusable line is an error instead.
 */
export async function loadSession(
  run: Run,
  ref: string | RowSessionRef,
  options: { leafId?: string; strict?: boolean; logger: ConsolaInstance; asWritten?: boolean },
): Promise<LoadedSession> {
  const { file, read } = typeof ref === "string" ? await readFromFile(run, ref) : readFromRows(ref);
  const { path } = file;
  const { format } = read;
  // The one place a source's cwd is checked before it names a folder or a command (core/session/cwd.ts);
  // `inspect` (asWritten) shows it as the file has it.
  const session = options.asWritten ? read.session : withUsableCwd(read.session);
  if (options.strict && session.problems.length > 0) {
    const first = session.problems[0];
    const more = session.problems.length > 1 ? ` (and ${session.problems.length - 1} more)` : "";
    throw new AgentError("MALFORMED_SESSION", `${path}:${first?.line}: ${first?.reason}${more}; --strict refuses unusable lines`, {
      file: path,
      line: first?.line,
    });
  }
  const blobs = format.blobFolder?.(agentHome(run));
  const analysis = namingFile(path, () =>
    analyzeBranch(session, { leafId: options.leafId, resolveBlob: blobs && blobResolver(join(...blobs)) }),
  );
  // A version is cut to 40 characters only once nothing secret is left in it.
  const notices = [
    unknownLayoutNotice(session),
    newerVersionNotice(session, format, (version) => run.printed.shortForPeople(version, 40)),
  ].filter((n) => n !== undefined);
  const warnings = [...notices, ...describeSessionProblems(session, analysis)];
  // One line each: a warning quotes the file (an entry type, a reason), which may hold line breaks.
  for (const warning of warnings) options.logger.warn(`${asField(path)}: ${asField(warning)}`);
  return { file, session, format, analysis, warnings };
}
