import type { SessionBytes } from "../lines.ts";
import type { RestoredModel } from "../restored-model.ts";
import type { Session } from "../types.ts";

/**
 * The agents whose sessions we read and write, in their one spelling: flag values (`--to`,
 * `--agent`), `inspect`'s `format`, `--json`. A name typed by a person may also be an alias
 * (`claude`); `SessionFormat.aliases` lists them.
 */
export type AgentName = "pi" | "omp" | "claude-code" | "codex";

/** What a format needs to write a new session that opens with the handoff document. */
export interface NewSessionInput {
  /** The document already wrapped in `<handoff-context>` (core/handoff/wrap.ts owns that text). */
  wrappedDocument: string;
  /**
   * What the assistant answers to the document, for formats whose agents need an answer on
   * disk before the user's next words (core/handoff/wrap.ts owns this text too).
   */
  acknowledgement: string;
  /** A fresh UUID: the new session's id, and its file name where the agent names files by id. */
  sessionId: string;
  /** Fresh entry ids (8 hex), as many as the format asks for; never one of the source's. */
  newEntryId: () => string;
  timestamp: Date;
  /**
   * Minutes to add to UTC for the user's local time (the negation of
   * `Date.getTimezoneOffset()`): agents that name folders or files by local date need it,
   * and core has no clock or time zone of its own.
   */
  utcOffsetMinutes: number;
  /** The source session's working directory; the new session works in the same folder. */
  cwd: string | undefined;
  /** Absolute path of the source, where the format records it; undefined for a stream. */
  parentSession: string | undefined;
  /** The model the source's branch resumes with, for formats that can say which model to use. */
  model: RestoredModel;
  /** What the target may need to know of the source (e.g. Codex refuses another provider). */
  source: { format: AgentName; agentVersion: string | undefined; modelProvider: string | undefined };
}

/** A new session as the target agent keeps it: the bytes and the file's name. */
export interface NewSessionFile {
  content: string;
  fileName: string;
  /** The id the agent resumes it by (`claude --resume <id>`, `codex resume <id>`, pi's header id). */
  sessionId: string;
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
  /** Whether the file's first lines (raw text, at most a few) are this format's. */
  detect(head: readonly string[]): boolean;
  /** The whole file into the common session model; throws `NOT_A_SESSION` naming the file. */
  read(input: string | SessionBytes, file: string): Session;
  /** A new session holding the document, as the agent would resume it. */
  renderNewSession(input: NewSessionInput): NewSessionFile;
  /** Whether a handoff may be recorded into a source of this format (pi and omp only). */
  canRecord: boolean;
  /** The newest agent version `bun run compat` has run; a newer session gets a notice. */
  testedVersion: string | undefined;
}
