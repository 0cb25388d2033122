/**
 * Builds the common model's entries from a rollout, one item at a time. A rollout has no entry
 * ids: they are numbered here in file order (8 hex digits), each entry the child of the one
 * before, except after a rollback (Codex drops the newest user turns: the entries after it
 * hang from where those turns began, so the dropped turns become an abandoned branch).
 */
import { isObject, type JsonObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";
import type { Block, ItemMeaning } from "./items.ts";
import { epochMs } from "./time.ts";

/** Where an entry came from in the file. */
export interface Origin {
  line: number;
  /** The line's ISO time, when it has one. */
  timestamp: string | undefined;
}

export class EntryChain {
  readonly entries: Entry[] = [];
  /** The parent of the next entry. */
  private leaf: string | null = null;
  private counter = 0;
  /** The model turn being read: consecutive model items join it. */
  private openTurn: { content: Block[]; message: JsonObject } | undefined;
  /** Tool names by call id, so a result can name its tool. */
  private readonly callNames = new Map<string, string>();
  /** Where each user turn of the history Codex continues from starts, oldest first. */
  private userTurns: Entry[] = [];
  /** How many of `userTurns` a rollback cannot drop: those a compaction kept. */
  private rollbackFloor = 0;
  /** The model the turns are answered by, as `turn_context` lines say. */
  private model: { provider: string | undefined; id: string } | undefined;

  add(type: string, origin: Origin, fields: JsonObject): Entry {
    const id = entryId(++this.counter);
    // Object.assign, not a spread: the same object, made faster for every entry of a long rollout.
    const data: JsonObject = Object.assign({ type, id, parentId: this.leaf, timestamp: origin.timestamp }, fields);
    const entry: Entry = { type, id, parentId: this.leaf, line: origin.line, data };
    this.entries.push(entry);
    this.leaf = id;
    return entry;
  }

  private addMessage(origin: Origin, message: JsonObject): Entry {
    this.openTurn = undefined;
    message.timestamp = epochMs(origin.timestamp);
    return this.add("message", origin, { message });
  }

  /** Records what one item means. Returns the entry it started, if any. */
  addItem(meaning: ItemMeaning, origin: Origin): Entry | undefined {
    switch (meaning.kind) {
      case "assistant":
        return this.addModelBlocks(meaning.blocks, origin);
      case "user": {
        const entry = this.addMessage(origin, { role: "user", content: meaning.content });
        this.userTurns.push(entry);
        return entry;
      }
      case "handoff":
        this.openTurn = undefined;
        return this.add("custom_message", origin, { customType: "handoff", content: meaning.text, display: true });
      case "shell": {
        const { command, exitCode, output } = meaning.run;
        return this.addMessage(origin, { role: "bashExecution", command, output, exitCode, cancelled: false, truncated: false });
      }
      case "result":
        return this.addMessage(origin, {
          role: "toolResult",
          toolCallId: meaning.callId,
          toolName: this.callNames.get(meaning.callId) ?? "tool",
          content: meaning.content,
          isError: meaning.isError,
        });
      default:
        return undefined;
    }
  }

  /** Model output joins the turn being read, or starts one: one assistant message per model turn. */
  private addModelBlocks(blocks: Block[], origin: Origin): Entry | undefined {
    for (const block of blocks)
      if (block.type === "toolCall" && typeof block.id === "string" && typeof block.name === "string")
        this.callNames.set(block.id, block.name);
    if (blocks.length === 0) return undefined; // encrypted reasoning: nothing to read, the turn goes on
    if (this.openTurn) {
      for (const block of blocks) this.openTurn.content.push(block);
      // Only the new blocks can change it (a turn of many calls is not read again per call).
      if (this.openTurn.message.stopReason !== "toolUse") this.openTurn.message.stopReason = stopReason(blocks);
      return undefined;
    }
    const content = [...blocks];
    const message: JsonObject = {
      role: "assistant",
      content,
      provider: this.model?.provider,
      model: this.model?.id,
      stopReason: stopReason(content),
    };
    const entry = this.addMessage(origin, message);
    this.openTurn = { content, message };
    return entry;
  }

  /** A `turn_context` naming the model: a `model_change` entry when it differs from the last. */
  setModel(provider: string | undefined, id: string, origin: Origin): void {
    if (this.model?.id === id && this.model.provider === provider) return;
    this.model = { provider, id };
    this.openTurn = undefined;
    this.add("model_change", origin, { provider, modelId: id });
  }

  /**
   * Codex dropped the newest `turns` user turns (`thread_rolled_back`). A rollback never reaches
   * behind the newest compaction here: that would cut the compaction off the branch.
   */
  rollBack(turns: number): void {
    const keep = Math.max(this.rollbackFloor, this.userTurns.length - turns);
    const first = this.userTurns[keep];
    if (!first) return;
    this.userTurns = this.userTurns.slice(0, keep);
    this.leaf = first.parentId;
    this.openTurn = undefined;
  }

  /** Ends the model turn being read (any other line in between belongs to no turn). */
  endTurn(): void {
    this.openTurn = undefined;
  }

  /** Marks where a compaction's history starts: the user messages added since the last call are what it kept. */
  startCompaction(): void {
    this.userTurns = [];
    this.openTurn = undefined;
  }

  endCompaction(): void {
    this.rollbackFloor = this.userTurns.length;
    this.openTurn = undefined;
  }

  /** The user's own words in the history Codex continues from (a compaction's kept ones, then later ones), oldest first. */
  userTurnContents(): Block[][] {
    return this.userTurns.map((entry) => {
      const content = isObject(entry.data.message) ? entry.data.message.content : undefined;
      return Array.isArray(content) ? content.filter(isObject) : [];
    });
  }
}

/** Lower-case hex digits by value, as character codes. */
const HEX = [..."0123456789abcdef"].map((digit) => digit.charCodeAt(0));

/** The character code of the hex digit of `n` at bit `shift`. */
function hexDigit(n: number, shift: number): number {
  return HEX[(n >>> shift) & 0xf] ?? 0;
}

/**
 * `n` as 8 hex digits (more past 0xffffffff). Built from character codes in one call: `padStart`
 * or `slice` would give a string made of two others, more objects for the garbage collector to
 * visit, flattened again when the id is first hashed as a key.
 */
function entryId(n: number): string {
  if (n > 0xffffffff) return n.toString(16);
  return String.fromCharCode(
    hexDigit(n, 28),
    hexDigit(n, 24),
    hexDigit(n, 20),
    hexDigit(n, 16),
    hexDigit(n, 12),
    hexDigit(n, 8),
    hexDigit(n, 4),
    hexDigit(n, 0),
  );
}

function stopReason(content: readonly Block[]): string {
  return content.some((block) => block.type === "toolCall") ? "toolUse" : "stop";
}
