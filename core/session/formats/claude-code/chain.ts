/**
 * The entries of a Claude Code file as they are built, line by line: ids, the parent links
 * between them, and the lines that became part of an entry made earlier (the blocks of one
 * assistant message, the output of a `!` command). Such a line gets no entry of its own; its
 * uuid stands for the entry it joined, so whatever hangs from it still hangs in the right place.
 */
import type { JsonObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";
import { regroupToolResults, type ResultLine } from "./results.ts";

/** Entry types the context ignores: lines that sit in the uuid chain but are not conversation. */
export const PASS_THROUGH_PREFIX = "claude-code/";

export class ChainBuilder {
  /** In file order. Until `finish`, an entry's `parentId` is the uuid its line named, unresolved. */
  private readonly entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  /** A compaction boundary's own `parentUuid`, for when the line it names (`logicalParentUuid`) is not in the file. */
  private readonly fallbackParents = new Map<Entry, string | null>();
  /** uuid of a line without an entry of its own → the id of the entry it joined. */
  private readonly joined = new Map<string, string>();
  /** The entry that holds the newest main-chain conversation line: the leaf. */
  private leaf: Entry | undefined;
  /** Every tool-result line, to put back behind the answer that called it (results.ts). */
  private readonly resultLines: ResultLine[] = [];

  /** The id a line's uuid stands for now. */
  resolve(uuid: string): string {
    return this.joined.get(uuid) ?? uuid;
  }

  /** The entry a line hangs from (by the uuid it named), if that has been read. */
  parentEntry(entry: Entry): Entry | undefined {
    return this.entryFor(entry.parentId);
  }

  /** The entry a uuid stands for, if it has been read. */
  entryFor(uuid: string | null): Entry | undefined {
    return uuid === null ? undefined : this.byId.get(this.resolve(uuid));
  }

  /**
   * Adds an entry; `data` (a fresh object) becomes its record. `conversation` marks one the
   * context reads (a message or a compaction): the newest of those is the leaf.
   */
  add(
    type: string,
    id: string,
    line: number,
    parentUuid: string | null,
    data: JsonObject,
    options: { conversation: boolean; fallbackParentUuid?: string | null },
  ): Entry {
    data.type = type;
    data.id = id;
    const entry: Entry = { type, id, parentId: parentUuid, line, data };
    this.entries.push(entry);
    this.byId.set(id, entry);
    if (options.fallbackParentUuid !== undefined) this.fallbackParents.set(entry, options.fallbackParentUuid);
    if (options.conversation) this.leaf = entry;
    return entry;
  }

  /** A line that has no entry of its own: `uuid` now stands for `entry`, which it added to. */
  join(uuid: string, entry: Entry, conversation: boolean): void {
    if (uuid !== entry.id) this.joined.set(uuid, entry.id);
    if (conversation) this.leaf = entry;
  }

  /** A line of tool results became `first` … `last`; read once the file is, by `finish`. */
  addResultLine(line: ResultLine): void {
    this.resultLines.push(line);
  }

  /** Every line id that joined another entry, with the id of the entry it stands for now. */
  joinedIds(): ReadonlyMap<string, string> {
    return new Map(this.joined);
  }

  /**
   * Makes a conversation entry a pass-through one (a line read as the user's words turned out to
   * be Claude Code's own); the leaf moves to the nearest conversation entry above it.
   */
  demote(entry: Entry, type: string): void {
    entry.type = type;
    entry.data.type = type;
    if (this.leaf !== entry) return;
    const seen = new Set<Entry>();
    let above = this.parentEntry(entry);
    while (above && !seen.has(above) && above.type.startsWith(PASS_THROUGH_PREFIX)) {
      seen.add(above);
      above = this.parentEntry(above);
    }
    this.leaf = above;
  }

  /**
   * The entries, with every parent resolved, in file order except the leaf, which comes last:
   * the common model walks the branch from the last entry, and in a Claude Code file the lines
   * after the newest conversation line (attachments, bookkeeping) are not where it continues.
   */
  finish(): Entry[] {
    for (const entry of this.entries) {
      let parent = entry.parentId === null ? null : this.resolve(entry.parentId);
      const fallback = this.fallbackParents.get(entry);
      if (parent !== null && fallback !== undefined && !this.byId.has(parent)) parent = fallback === null ? null : this.resolve(fallback);
      entry.parentId = parent;
      entry.data.parentId = parent;
    }
    const leaf = regroupToolResults(
      this.entries,
      this.byId,
      this.resultLines,
      this.leaf,
      (entry) => !entry.type.startsWith(PASS_THROUGH_PREFIX),
    );
    const entries = this.entries.filter((entry) => entry !== leaf);
    if (leaf) entries.push(leaf);
    return entries;
  }
}
