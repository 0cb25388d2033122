import { AgentError } from "../errors.ts";
import type { Entry } from "./types.ts";

/** Entries by id. When an id repeats, the later entry wins and the id is reported. */
export interface SessionTree {
  byId: Map<string, Entry>;
  duplicateIds: string[];
}

export function indexEntries(entries: readonly Entry[]): SessionTree {
  const byId = new Map<string, Entry>();
  const duplicates = new Set<string>();
  for (const entry of entries) {
    const known = byId.size;
    byId.set(entry.id, entry);
    if (byId.size === known) duplicates.add(entry.id); // one lookup per entry, not two
  }
  return { byId, duplicateIds: [...duplicates] };
}

/** A path from the root to a leaf, and what stopped the walk early if anything did. */
export interface Branch {
  leafId: string | undefined;
  /** Root first, leaf last. */
  entries: Entry[];
  /** Set when the walk met an entry whose parent is missing. */
  danglingParent?: { entryId: string; parentId: string };
  /** Set when the walk came back to an entry it had already visited. */
  cycleAt?: string;
}

/**
 * Walks from a leaf to the root. The leaf is `leafId`, or else the last entry in file order.
 * A missing parent or a cycle ends the walk where it is found and is reported on the branch,
 * so a corrupt file still gives the longest usable branch and never loops.
 */
export function walkBranch(entries: readonly Entry[], tree: SessionTree, leafId?: string): Branch {
  let leaf: Entry | undefined;
  if (leafId !== undefined) {
    leaf = tree.byId.get(leafId);
    if (!leaf) throw new AgentError("UNKNOWN_ENTRY", `no entry with id "${leafId}" in this session`);
  } else {
    leaf = entries.at(-1);
  }
  if (!leaf) return { leafId: undefined, entries: [] };

  const path: Entry[] = [];
  // Without a cycle a walk visits each id once. Ids are remembered (a set as long as the branch)
  // only when a walk went on longer than that: it starts again, to find where it loops.
  let seen: Set<string> | undefined;
  const branch: Branch = { leafId: leaf.id, entries: path };
  for (let current: Entry | undefined = leaf; current; ) {
    if (!seen && path.length > tree.byId.size) {
      seen = new Set<string>();
      path.length = 0;
      current = leaf;
    }
    if (seen?.has(current.id)) {
      branch.cycleAt = current.id;
      break;
    }
    seen?.add(current.id);
    path.push(current);
    const parentId: string | null = current.parentId;
    if (parentId === null) break;
    const parent = tree.byId.get(parentId);
    if (!parent) {
      branch.danglingParent = { entryId: current.id, parentId };
      break;
    }
    current = parent;
  }
  path.reverse();
  return branch;
}
