/**
 * A Claude Code file has no header line: every line repeats `sessionId`, most say `cwd`,
 * `version` and `timestamp`. The common model's header is gathered from them.
 */
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import type { SessionHeader } from "../../types.ts";

/** `<uuid>.jsonl` at the end of a path: Claude Code names a session's file by its id. */
const FILE_ID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export class HeaderFacts {
  private firstSessionId: string | undefined;
  /** The newest conversation line's: a forked session's file starts with lines copied from its parent. */
  private conversationSessionId: string | undefined;
  private cwd: string | undefined;
  /** The newest: a session resumed by a later Claude Code is that version's file from then on. */
  private version: string | undefined;
  private timestamp: string | undefined;
  private line: number | undefined;
  private conversation = false;

  /** Whether a line has named the session. */
  get named(): boolean {
    return this.firstSessionId !== undefined;
  }

  see(record: JsonObject, line: number): void {
    const sessionId = stringField(record, "sessionId");
    const inChain = typeof record.uuid === "string" && record.isSidechain !== true;
    if (sessionId !== undefined && sessionId !== "") {
      this.firstSessionId ??= sessionId;
      if (inChain) this.conversationSessionId = sessionId;
    }
    if (record.isSidechain !== true && (record.type === "user" || record.type === "assistant") && isObject(record.message))
      this.conversation = true;
    if (inChain || sessionId !== undefined) this.line ??= line;
    // The session's own folder: where it started, not where a `cd` took it later.
    if (inChain) this.cwd ??= stringField(record, "cwd");
    const version = stringField(record, "version");
    if (version !== undefined && version !== "") this.version = version;
    this.timestamp ??= stringField(record, "timestamp");
  }

  /** The header, or undefined when no line named a session and none was a conversation line. */
  build(file: string): SessionHeader | undefined {
    const fromName = this.conversation ? FILE_ID.exec(file)?.[1] : undefined;
    const id = this.conversationSessionId ?? this.firstSessionId ?? fromName;
    if (id === undefined) return undefined;
    const raw: JsonObject = { sessionId: id, cwd: this.cwd, version: this.version, timestamp: this.timestamp };
    return {
      id,
      cwd: this.cwd,
      timestamp: this.timestamp,
      parentSession: undefined,
      ...(this.version === undefined ? {} : { agentVersion: this.version }),
      line: this.line ?? 1,
      raw,
    };
  }
}
