import type { RestoredModel } from "../restored-model.ts";
import type { AgentName } from "../types.ts";

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
  /** For a target whose sessions are rows in its database: what the cwd's folders say of its project (cli finds it). */
  projectPlace?: ProjectPlace;
  /** What the target may need to know of the source (e.g. Codex refuses another provider). */
  source: { format: AgentName; agentVersion: string | undefined; modelProvider: string | undefined };
}

/** What the folder the new session works in says, found by cli: the nearest folder above it holding `projectMarker`, and the file `projectFile` there, read. */
export interface ProjectPlace {
  /** The folder holding the marker (`.git`), undefined when none above the cwd does. */
  root: string | undefined;
  /** The text of `<root>/<marker>/<projectFile>` (opencode's cached project id), undefined when there is none. */
  cached: string | undefined;
}
