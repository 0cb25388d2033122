import type { LineLimits, RawLine, SessionBytes } from "../lines.ts";
import type { RestoredModel } from "../restored-model.ts";
import type { AgentName, Session, TokenUsage } from "../types.ts";
import type { AgentHome, PathSegments } from "./home.ts";
import type { SessionIndex } from "./session-index.ts";
import type { NewRow, SessionRowStore } from "./session-rows.ts";

export type { AgentHome, PathSegments } from "./home.ts";

export type { AgentName } from "../types.ts";

export type { NewSessionInput } from "./new-session-input.ts";
import type { NewSessionInput } from "./new-session-input.ts";

/** A new session as the target agent keeps it: the bytes and the file's name. */
export interface NewSessionFile {
  content: string;
  fileName: string;
  /** The id the agent resumes it by (`claude --resume <id>`, `codex resume <id>`, pi's header id). */
  sessionId: string;
  /** For a target whose sessions are rows in its database: the rows, written in one transaction (`content` and `fileName` are then empty). */
  rows?: readonly NewRow[];
}

/** The `api` a recorded answer names: the Chat Completions wire, an installed agent's CLI, or none (the offline engine wrote it). */
export type RecordedApi = "openai-completions" | "offline" | "agent-cli";

/** What recording a handoff into its source needs: the instruction and the answer, as the interactive agents record them. */
export interface RecordingInput {
  session: Session;
  /** The leaf that was handed off; the recorded turn hangs from it. */
  leafId: string | undefined;
  instruction: string;
  document: string;
  provider: string;
  model: string;
  api: RecordedApi;
  /** How the completion that gave the document ended, as the endpoint said (`stop`, `length`, …). */
  finishReason: string;
  usage: TokenUsage | undefined;
  timestamp: Date;
  /** Fresh entry ids, unused in the session. */
  newEntryId: () => string;
  /** The model the branch resumes with before the recording: it must resume with it after. */
  restore: RestoredModel;
}

/** How the source session changes after a handoff, if at all. */
export type Recording =
  | { mode: "append"; text: string }
  | {
      /** The file is replaced by its own lines rewritten by `rewrite`, then `turn`. */
      mode: "rewrite";
      /**
       * Writes the file's lines (read again, exactly: `splitLines(…, { exact: true })`) as the
       * format needs them before `turn` can follow; stops at the first line that is not what
       * was read (the file changed since) and returns it.
       */
      rewrite: (lines: Iterable<RawLine>, write: (text: string) => void) => { mismatchedLine: number } | undefined;
      turn: string;
      /** One line telling the user what the rewrite changed. */
      notice: string;
    }
  | { mode: "skip"; reason: string };

/** What decides the folder a new session goes in. */
export interface SessionPlace extends AgentHome {
  /** The session's working directory. */
  cwd: string;
  timestamp: Date;
  /** As in `NewSessionInput`: for agents that file sessions by local date. */
  utcOffsetMinutes: number;
  /** The folder the agent's folder registry names for `cwd` (see `FolderRegistry`), when it keeps one. */
  registeredFolder?: string;
}

/**
 * A file in which the agent names the folder of each cwd it has worked in (Gemini CLI's
 * `projects.json`: path → folder name), so the folder of a cwd is not a function of the path
 * alone. cli reads it before placing a new session and, when the agent would add an entry for a
 * cwd it has not seen, writes the new text after the session: only that entry is added.
 */
/** A folder under the sessions root, and the path its marker file names. */
export interface RegisteredFolder {
  name: string;
  owner: string | undefined;
}

export interface FolderRegistry {
  /** What it is called in messages ("Gemini CLI's projects.json"). */
  label: string;
  file(home: AgentHome): PathSegments;
  /**
   * The folder for `cwd`, from the registry's text (undefined: there is no such file) and the
   * folders already under the sessions root with the path each one's marker names (`owner`,
   * undefined when it has none; see `markerFile`); `newText` is the registry with the entry the
   * agent would add, when it has none for `cwd` yet. Throws `AgentError` for a registry it cannot
   * read as the agent does (nothing is written then).
   */
  folderFor(text: string | undefined, cwd: string, folders: readonly RegisteredFolder[]): { name: string; newText?: string };
  /** The file in a folder under the sessions root that names the path owning it (Gemini's `.project_root`). */
  markerFile: string;
  /** How many folders up from a session file that folder is (2 for Gemini's `<project>/chats/<file>`). */
  markerLevels: number;
  /**
   * The folders an agent named by an older rule (Gemini before `projects.json`: the SHA-256 of the
   * path), each name to the path it belongs to, for the registry's paths (its text:
   * `registryText`) and `cwds`: worked out once, then looked up for each folder with no marker.
   */
  olderFolderOwners?(registryText: string | undefined, cwds: readonly string[]): ReadonlyMap<string, string>;
}

/** Which files under an agent's sessions root are its sessions. */
export interface SessionFileLayout {
  /**
   * How many folders lie between the root and a session file: 1 for a folder per cwd (pi, omp,
   * Claude Code), 3 for Codex's `YYYY/MM/DD`, 0 when every session is in the root itself.
   * Nothing deeper is a session (Claude Code's subagents, omp's task artifacts live deeper).
   */
  folders: number;
  /** Whether a file name at that depth is one of its sessions (not a subagent's, an index, a lock). */
  isSessionName(name: string): boolean;
  /**
   * The name of the file the agent goes on in when it resumes the session named `name`, when it
   * is another file beside it (Gemini CLI copies a `session-….json` into `session-….jsonl`): with
   * that file there, `name` is an earlier copy of its session, not a session of its own.
   */
  continuedIn?(name: string): string | undefined;
  /**
   * The id an agent that finds a session by its file name reads there (Claude Code's
   * `<uuid>.jsonl`, Codex's `rollout-…-<uuid>.jsonl`); undefined for a name it cannot resume by.
   * Absent for agents that open a file of any name (pi, omp).
   */
  idInName?(name: string): string | undefined;
  /**
   * The name `idInName` reads an id from, as a person should write it (`<uuid>.jsonl`), for the
   * message that says why a file of another name cannot be resumed. Present with `idInName`.
   */
  nameWithId?: string;
}

/** Where an agent keeps its sessions: pure facts, so cli does all the file-system work. */
export interface AgentLocation {
  /** The folder under which the agent keeps every session (where discovery would look). */
  sessionsRoot(home: AgentHome): PathSegments;
  /** The folder the agent itself would put a new session for `place.cwd` in. */
  sessionFolder(place: SessionPlace): PathSegments;
  /**
   * Other folders the agent finds sessions of `place.cwd` in, besides `sessionFolder` (Claude
   * Code still reads the cwd's own project folder when `CLAUDE_CODE_PROJECT_DIR_NAME` names
   * another one). Absent: none.
   */
  alsoFindsSessionsIn?(place: SessionPlace): PathSegments[];
  /** Which files under `sessionsRoot` are sessions. */
  sessionFiles(home: AgentHome): SessionFileLayout;
  /**
   * Whether `sessionFolder` of a cwd (with `alsoFindsSessionsIn`) holds every session of that
   * cwd (its name comes from the cwd), so finding them needs no other folder; Codex files
   * sessions by date instead.
   */
  filesByCwd: boolean;
  /**
   * The agent finds a session by id (and lists it) only in its own folder for the cwd (Claude
   * Code's project folder, Codex's dated folders), so a new session goes there even when the
   * source, of the same agent, lies elsewhere. pi and omp open any file by its path.
   */
  findsSessionsOnlyInItsFolder?: boolean;
  /** The agent's file naming the folder of each cwd, where it keeps one; `sessionFolder` then takes `place.registeredFolder`. */
  folderRegistry?: FolderRegistry;
}

/** A session file's first and last lines (raw text, whole lines only, blank lines left out), and its name. */
export interface GlanceInput {
  head: readonly string[];
  /** The last lines; they may repeat some of `head` when the file is short. */
  tail: readonly string[];
  fileName: string;
  /** The name of the folder the file lies in (Claude Code's project folder: the encoded cwd), when known. */
  folderName?: string;
  /**
   * For an agent with a folder registry: the path its marker names for the project folder the
   * file lies in (Gemini's `tmp/<project>/.project_root`), when there is one; the session's cwd
   * when the file itself does not say.
   */
  folderOwner?: string;
}

/** What a session's first and last lines tell, without reading the rest: enough to list and find it. */
export interface SessionGlance {
  id: string;
  /** The working directory the session recorded (its start), if the lines read say. */
  cwd: string | undefined;
  /** The title the agent shows for it (one the user gave, or one it generated), on one line. */
  title: string | undefined;
  /** The first thing the user asked, on one line, when the head holds it. */
  firstRequest: string | undefined;
  /**
   * Set when the file is a thread the agent ran for itself (a Codex subagent, a review), no
   * session the user worked in: what it is, in words. Listing and searching leave such a file
   * out; `--session` with its id says what it is instead of that no session has the id.
   */
  agentThread?: string;
}

/** A session file to continue in its agent. */
export interface ResumeTarget {
  sessionId: string;
  /** Its absolute path. */
  path: string;
  /** The working directory the session records. */
  cwd: string | undefined;
  /** Its path below the agent's sessions root (folders, then the file name); undefined when it lies elsewhere. */
  underRoot: PathSegments | undefined;
  /** The environment the command runs in: the agent's overrides decide where it looks (`CLAUDE_CODE_PROJECT_DIR_NAME`). */
  env: AgentHome["env"];
}

/** The command that continues a session in its agent, and the folder to run it in. */
export interface ResumeCommand {
  argv: readonly string[];
  cwd: string | undefined;
}

/**
 * One agent's session format: how to recognise, read and write it. Every format is one object
 * in one table (`formats/table.ts`); `inspect` and `handoff` ask the table, never the agent's
 * name, so adding an agent is a folder and one table line.
 */
export interface SessionFormat {
  name: AgentName;
  /** How people call the agent ("Claude Code"), for messages. */
  label: string;
  /** Other names a person may type for it (`claude`). */
  aliases: readonly string[];
  /** Whether the file's first lines (raw text, at most `HEAD_LINES`, blank lines left out) are this format's. */
  detect(head: readonly string[]): boolean;
  /**
   * The whole file into the common session model; throws `NOT_A_SESSION` naming the file. The
   * session's `format` names the agent that wrote it, which may be another format of the same
   * family (pi's reader tells omp's files from pi's only after reading them whole).
   */
  read(input: string | SessionBytes, file: string, limits?: LineLimits): Session;
  /** A new session holding the document, as the agent would resume it. */
  renderNewSession(input: NewSessionInput): NewSessionFile;
  /**
   * How a handoff is recorded into a source of this format; absent when it is not (the source
   * is then left untouched). pi and omp only.
   */
  record?: (input: RecordingInput) => Recording;
  /**
   * The model providers this agent's sessions name the way pi and omp do, when not all of them
   * are. Absent: every one is. A new session for another agent names the source's model only when
   * its provider is one of these; otherwise the agent starts with its default model.
   */
  sharedProviders?: readonly string[];
  /** The newest agent version `bun run compat` has run; a session written by a newer one gets a notice. */
  testedVersion: string | undefined;
  /** Where the agent keeps its sessions. */
  location: AgentLocation;
  /**
   * What a file's first and last lines say (its id, cwd, title), for listing and finding
   * sessions without reading them whole; undefined when they are not one of its sessions
   * (another format's file, a subagent's transcript).
   */
  glance(lines: GlanceInput): SessionGlance | undefined;
  /**
   * The command that continues a session file in the agent (`pi --session <file>`,
   * `claude --resume <id>`, …); undefined when the agent cannot open a file where it lies.
   */
  resumeCommand(target: ResumeTarget): ResumeCommand | undefined;
  /** Where the agent keeps the content-addressed blobs its sessions refer to (omp's images), if it does. */
  blobFolder?: (home: AgentHome) => PathSegments;
  /**
   * The agent's own index of its sessions, where it keeps one that its "continue the latest"
   * reads (Codex's thread table): a new session written into its folder gets a row there.
   */
  sessionIndex?: SessionIndex;
  /**
   * Set for an agent that keeps its sessions as rows in its own database, not as files (opencode):
   * cli reads and writes them through this store, by id (cli/sessions/session-rows.ts), and the
   * file half of the format refuses.
   */
  rows?: SessionRowStore;
}
