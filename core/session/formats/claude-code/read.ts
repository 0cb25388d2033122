/**
 * A Claude Code transcript into the common session model: the chain of `uuid`/`parentUuid` lines from the
 * newest main-chain line back to a root. The format's facts, line by line: docs/design/claude-code-transcript.md.
 */
import { AgentError } from "../../../errors.ts";
import { isObject, stringField, type JsonObject } from "../../../json.ts";
import { splitLines, type LineLimits, type RawLine, type SessionBytes } from "../../lines.ts";
import type { LineProblem, Session } from "../../types.ts";
import { addAssistantLine, type MessageIds } from "./assistant.ts";
import { addAttachmentLine } from "./attachment.ts";
import { BackgroundTasks } from "./background-tasks.ts";
import { ChainBuilder, PASS_THROUGH_PREFIX } from "./chain.ts";
import { addSystemLine } from "./compaction.ts";
import { HeaderFacts } from "./header.ts";
import { SessionMarks } from "./marks.ts";
import { addUserLine, type UserContext } from "./user.ts";

/** Line types that sit in the uuid chain; any other type with a uuid is kept as pass-through and named once. */
const CHAIN_TYPES = new Set(["user", "assistant", "system", "attachment", "progress"]);

/**
 * Lines whose first bytes show they are nothing this reader keeps: Claude Code's bookkeeping
 * (written type first) and a subagent's lines. Once the session's id is known they are not
 * parsed at all; in a long transcript they are about half the lines (the logged API requests
 * repeat every message). One that does not end in `}` is parsed anyway, so a torn one is
 * still reported.
 */
const BOOKKEEPING_LINE =
  /^\{"type":"(?:queue-operation|last-prompt|api-request|api-request-shape|api-request-blob|api-request-resumed|cost-state|mode|atis-latch|tools-used|file-history-snapshot|file-history-delta|ai-title|tag|summary)"/;
const SIDECHAIN_LINE = /^\{"parentUuid":(?:null|"[^"]*"),"isSidechain":true,/;

function notASession(file: string, why: string, line?: number): AgentError {
  return new AgentError("NOT_A_SESSION", `${file}${line ? `:${line}` : ""}: not a session: ${why}`, { file, line });
}

function parseLine(raw: RawLine): JsonObject | string {
  if (raw.unusable) return raw.unusable;
  let value: unknown;
  try {
    value = JSON.parse(raw.text);
  } catch {
    return "not valid JSON (a torn or hand-edited line?)";
  }
  if (!isObject(value)) return "not a JSON object";
  if (typeof value.type !== "string" || value.type === "") return 'no string "type"';
  return CHAIN_TYPES.has(value.type) ? (chainLineProblem(value) ?? value) : value;
}

/**
 * What makes a conversation line unusable, checked here so a broken one is reported with its
 * number rather than half read: an id or a parent of the wrong type would silently cut the
 * chain, a message that is not an object (or whose content is neither text nor blocks) would
 * silently drop a turn.
 */
function chainLineProblem(value: JsonObject): string | undefined {
  if ("uuid" in value && typeof value.uuid !== "string") return '"uuid" is not a string';
  if ("parentUuid" in value && value.parentUuid !== null && typeof value.parentUuid !== "string")
    return '"parentUuid" is neither a string nor null';
  if ("isSidechain" in value && typeof value.isSidechain !== "boolean") return '"isSidechain" is neither true nor false';
  if (value.type !== "user" && value.type !== "assistant") return undefined;
  const line = value.type === "user" ? 'a "user" line' : 'an "assistant" line';
  if (!isObject(value.message)) return `${line} whose "message" is not an object`;
  const content = value.message.content;
  if (typeof content !== "string" && !Array.isArray(content)) return `${line} whose message "content" is neither text nor a list of blocks`;
  return undefined;
}

class TranscriptReader {
  readonly chain = new ChainBuilder();
  readonly header = new HeaderFacts();
  readonly marks = new SessionMarks();
  readonly problems: LineProblem[] = [];
  readonly unknownTypes = new Set<string>();
  private readonly messageIds: MessageIds = new Map();
  private readonly user: UserContext = {
    chain: this.chain,
    toolNames: new Map(),
    boundaries: new Map(),
    commands: new Set(),
    background: new BackgroundTasks(),
  };
  sidechainLines = 0;

  read(raw: RawLine): void {
    if (this.header.named && raw.text.endsWith("}")) {
      if (BOOKKEEPING_LINE.test(raw.text)) return;
      if (SIDECHAIN_LINE.test(raw.text)) {
        this.sidechainLines++;
        return;
      }
    }
    const record = parseLine(raw);
    if (typeof record === "string") {
      this.problems.push({ line: raw.line, reason: record });
      return;
    }
    this.header.see(record, raw.line);
    if (record.isSidechain === true) {
      this.sidechainLines++;
      return;
    }
    if (this.marks.see(record, raw.line)) return;
    const type = String(record.type);
    const message = isObject(record.message) ? record.message : undefined;
    const named = this.lineId(record, type, message !== undefined, raw.line);
    if (!named) return; // bookkeeping
    const { uuid, parentUuid } = named;
    if (type === "user" || type === "assistant") this.marks.conversationAt();
    const timestamp = stringField(record, "timestamp");
    if (type === "user" && message) addUserLine(this.user, { uuid, parentUuid, line: raw.line, timestamp, message, record });
    else if (type === "assistant" && message) {
      this.rememberToolNames(message);
      addAssistantLine(this.chain, this.messageIds, {
        uuid,
        parentUuid,
        line: raw.line,
        timestamp,
        message,
        isApiErrorMessage: record.isApiErrorMessage === true,
      });
    } else if (type === "system") addSystemLine(this.chain, this.user.boundaries, { uuid, parentUuid, line: raw.line, record });
    else if (type === "attachment")
      addAttachmentLine(this.chain, this.user.background, { uuid, parentUuid, line: raw.line, timestamp, record });
    else {
      if (!CHAIN_TYPES.has(type)) this.unknownTypes.add(type);
      this.chain.add(`${PASS_THROUGH_PREFIX}${type}`, uuid, raw.line, parentUuid, {}, { conversation: false });
    }
  }

  /**
   * A line's id and parent. A `user` or `assistant` line without a `uuid` (the smallest line
   * Claude Code resumes has none) is named by its line number. Claude Code 2.1.328 keeps such
   * lines under one missing key, so only the last of them reaches the model (seen by `bun run
   * compat`): each is a root of its own, and the newest is the leaf.
   */
  private lineId(
    record: JsonObject,
    type: string,
    hasMessage: boolean,
    line: number,
  ): { uuid: string; parentUuid: string | null } | undefined {
    const uuid = stringField(record, "uuid");
    const parentUuid = stringField(record, "parentUuid") ?? null;
    if (uuid !== undefined && uuid !== "") return { uuid, parentUuid };
    if (!hasMessage || (type !== "user" && type !== "assistant")) return undefined;
    return { uuid: `line-${line}`, parentUuid };
  }

  private rememberToolNames(message: JsonObject): void {
    if (!Array.isArray(message.content)) return;
    for (const block of message.content) {
      if (isObject(block) && block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string")
        this.user.toolNames.set(block.id, block.name);
    }
  }
}

/**
 * Reads a whole Claude Code transcript, as text or as the bytes read from disk. Throws
 * `NOT_A_SESSION` when no line of it is Claude Code's; tolerates and reports lines that are not
 * JSON anywhere else.
 */
export function readClaudeCodeSession(input: string | SessionBytes, file = "session", limits: LineLimits = {}): Session {
  const reader = new TranscriptReader();
  let last: RawLine | undefined;
  for (const raw of splitLines(input, limits)) {
    last = raw;
    reader.read(raw);
  }
  if (!last) throw notASession(file, "the file is empty");
  const entries = reader.chain.finish();
  if (entries.length === 0 && reader.sidechainLines > 0) {
    throw notASession(file, "it is a Claude Code subagent's transcript (every line is isSidechain); hand off the session it belongs to");
  }
  const header = reader.header.build(file);
  if (!header) throw notASession(file, "no line names a Claude Code session (a sessionId, or a conversation line)");
  const used = new Set(entries.map((entry) => entry.line));
  return {
    format: "claude-code",
    titleSlot: undefined,
    title: reader.marks.title(header.id),
    notices: reader.marks.notices(header.id),
    header,
    versionFound: undefined,
    version: 3,
    entries,
    malformedLines: reader.problems.map((problem) => problem.line).filter((line) => !used.has(line)),
    problems: reader.problems,
    unknownTypes: [...reader.unknownTypes],
    missingFinalNewline: !last.ended,
    joinedIds: reader.chain.joinedIds(),
  };
}
