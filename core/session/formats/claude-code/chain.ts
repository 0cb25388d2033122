/**
 * The entries of a Claude Code file as they are built, line by line: ids, the parent links
 * between them, and the lines that became part of an entry made earlier (the blocks of one
 * assistant message, the output of a `!` command). Such a line gets no entry of its own; its
 * uuid stands for the entry it joined, so whatever hangs from it still hangs in the right place.
 */
import type { JsonObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";

/** Entry types the context ignores: lines that sit in the uuid chain but are not conversation. */
export const PASS_THROUGH_PREFIX = "claude-code/";

interface Pending {
  entry: Entry;
  /** The uuid the line named as its parent (`parentUuid`, or `logicalParentUuid` for a compaction boundary). */
  parentUuid: string | null;
  /** A parent to fall back on when `parentUuid` is not in the file (a boundary's own `parentUuid`). */
  fallbackParentUuid?: string | null;
}

export class ChainBuilder {
  private readonly pending: Pending[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly parentUuids = new Map<Entry, string | null>();
  /** uuid of a line without an entry of its own → the id of the entry it joined. */
  private readonly joined = new Map<string, string>();
  /** The entry that holds the newest main-chain conversation line: the leaf. */
  private leaf: Entry | undefined;

  /** The id a line's uuid stands for now. */
  resolve(uuid: string): string {
    return this.joined.get(uuid) ?? uuid;
  }

  /** The entry a line hangs from (by the uuid it named), if that has been read. */
  parentEntry(entry: Entry): Entry | undefined {
    return this.entryFor(this.parentUuids.get(entry) ?? null);
  }

  /** The entry a uuid stands for, if it has been read. */
  entryFor(uuid: string | null): Entry | undefined {
    return uuid === null ? undefined : this.byId.get(this.resolve(uuid));
  }

  /**
   * Adds an entry. `conversation` marks one the context reads (a message or a compaction):
   * the newest of those is the leaf.
   */
  add(type: string, id: string, line: number, parentUuid: string | null, data: JsonObject, options: { conversation: boolean; fallbackParentUuid?: string | null }): Entry {
    const entry: Entry = { type, id, parentId: null, line, data: { type, id, ...data } };
    this.pending.push({ entry, parentUuid, fallbackParentUuid: options.fallbackParentUuid });
    this.byId.set(id, entry);
    this.parentUuids.set(entry, parentUuid);
    if (options.conversation) this.leaf = entry;
    return entry;
  }

  /** A line that has no entry of its own: `uuid` now stands for `entry`, which it added to. */
  join(uuid: string, entry: Entry, conversation: boolean): void {
    if (uuid !== entry.id) this.joined.set(uuid, entry.id);
    if (conversation) this.leaf = entry;
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
    const entries: Entry[] = [];
    for (const { entry, parentUuid, fallbackParentUuid } of this.pending) {
      let parent = parentUuid === null ? null : this.resolve(parentUuid);
      if (parent !== null && !this.byId.has(parent) && fallbackParentUuid !== undefined) {
        parent = fallbackParentUuid === null ? null : this.resolve(fallbackParentUuid);
      }
      entry.parentId = parent;
      entry.data.parentId = parent;
      if (entry !== this.leaf) entries.push(entry);
    }
    if (this.leaf) entries.push(this.leaf);
    return entries;
  }
}
