/**
 * Tool results back in line behind the answer that called them. Claude Code 2.1.328 hangs each
 * tool-result line from the assistant line holding its `tool_use` (`parentUuid` ==
 * `sourceToolAssistantUUID`), and an answer with parallel calls is saved a line per call: its
 * results are then siblings, and the next answer hangs from only one of them. Claude Code loads
 * such a file by re-attaching the others: for every answer on the conversation, the result lines
 * hanging from any of its lines, and those answering one of its calls from elsewhere, go after it,
 * before the next message that is not part of the turn, in file order. The model sees every
 * result, so the context must hold every one.
 *
 * Here the same rule is a change of parents, so every branch through the answer gets it: the
 * answer's result lines are chained in file order, the first from the answer, and whatever hung
 * from one of them (the next answer, an attachment, a prompt queued meanwhile), or was a message
 * hanging from the answer itself, hangs from the last.
 */
import { isObject } from "../../../json.ts";
import type { Entry } from "../../types.ts";

/** The entries one tool-result line became: its results (and the user's words after them), chained. */
export interface ResultLine {
  first: Entry;
  last: Entry;
  /** The `tool_use` ids its results answer. */
  answers: readonly string[];
}

function isAnswer(entry: Entry): boolean {
  return entry.type === "message" && isObject(entry.data.message) && entry.data.message.role === "assistant";
}

function isAssistantMessage(entry: Entry | undefined): entry is Entry {
  return entry !== undefined && isAnswer(entry);
}

function callIds(entry: Entry): string[] {
  const message = isObject(entry.data.message) ? entry.data.message : undefined;
  if (!message || !Array.isArray(message.content)) return [];
  return message.content.flatMap((block) =>
    isObject(block) && block.type === "toolCall" && typeof block.id === "string" ? [block.id] : [],
  );
}

/** Call id → the answer holding it; null when two answers hold it (no telling which). */
function callOwners(entries: readonly Entry[]): Map<string, Entry | null> {
  const owners = new Map<string, Entry | null>();
  for (const entry of entries) {
    if (!isAssistantMessage(entry)) continue;
    for (const id of callIds(entry)) owners.set(id, owners.has(id) && owners.get(id) !== entry ? null : entry);
  }
  return owners;
}

/**
 * Entries whose every ancestor in the file comes before them, as Claude Code writes them: only
 * their result lines are moved (those come after them), so a hand-made file whose parents point
 * forward gets no loop. One pass, in file order.
 */
function orderedEntries(entries: readonly Entry[], byId: ReadonlyMap<string, Entry>): Set<Entry> {
  const ordered = new Set<Entry>();
  for (const entry of entries) {
    const parent = entry.parentId === null ? undefined : byId.get(entry.parentId);
    if (parent === undefined || (parent !== entry && parent.line <= entry.line && ordered.has(parent))) ordered.add(entry);
  }
  return ordered;
}

/** Each answer's result lines, in file order: those hanging from it, then those answering a call of it from elsewhere. */
function resultRuns(lines: readonly ResultLine[], entries: readonly Entry[], byId: ReadonlyMap<string, Entry>): Map<Entry, ResultLine[]> {
  const runs = new Map<Entry, ResultLine[]>();
  const join = (owner: Entry, line: ResultLine) => {
    const run = runs.get(owner);
    if (run) run.push(line);
    else runs.set(owner, [line]);
  };
  const elsewhere: ResultLine[] = [];
  for (const line of lines) {
    const parent = line.first.parentId === null ? undefined : byId.get(line.first.parentId);
    if (isAssistantMessage(parent)) join(parent, line);
    else elsewhere.push(line);
  }
  if (elsewhere.length === 0) return sortRuns(runs);
  let owners: Map<string, Entry | null> | undefined;
  const answered = new Set<string>();
  for (const run of runs.values()) for (const line of run) for (const id of line.answers) answered.add(id);
  for (const line of elsewhere) {
    // Mostly the answer just above (older versions chained the results one after another);
    // else the one answer in the file that holds the call.
    const above = answerAbove(line, byId);
    const ownerOf = (id: string) => (above && callIds(above).includes(id) ? above : (owners ??= callOwners(entries)).get(id));
    const owner = line.answers.map(ownerOf).find((found): found is Entry => found !== undefined && found !== null);
    // As Claude Code: only a line that answers a call of the answer no result of it answered yet.
    if (!owner || !line.answers.some((id) => ownerOf(id) === owner && !answered.has(id))) continue;
    join(owner, line);
    for (const id of line.answers) answered.add(id);
  }
  return sortRuns(runs);
}

/** The nearest answer above a result line, past results and lines the context passes over (a few steps at most). */
function answerAbove(line: ResultLine, byId: ReadonlyMap<string, Entry>): Entry | undefined {
  let parentId = line.first.parentId;
  for (let steps = 0; parentId !== null && steps < 64; steps++) {
    const entry = byId.get(parentId);
    if (entry === undefined || isAnswer(entry)) return entry;
    parentId = entry.parentId;
  }
  return undefined;
}

function sortRuns(runs: Map<Entry, ResultLine[]>): Map<Entry, ResultLine[]> {
  for (const run of runs.values()) if (run.length > 1) run.sort((a, b) => a.first.line - b.first.line);
  return runs;
}

/**
 * Re-parents the result lines of every answer as Claude Code links them when it loads the file
 * (see the top of this file). `entries` are in file order with their parents resolved;
 * `isConversation` tells a message from a line the context passes over. Returns
 * the entry the leaf must move to when the leaf was a result that is no longer last.
 */
export function regroupToolResults(
  entries: readonly Entry[],
  byId: ReadonlyMap<string, Entry>,
  lines: readonly ResultLine[],
  leaf: Entry | undefined,
  isConversation: (entry: Entry) => boolean,
): Entry | undefined {
  if (lines.length === 0) return leaf;
  const ordered = orderedEntries(entries, byId);
  const runs = resultRuns(lines, entries, byId);
  // The children of the answers and of their result lines only: those are all that may move.
  const children = new Map<string, Entry[]>();
  for (const [answer, run] of runs) {
    children.set(answer.id, []);
    for (const line of run) children.set(line.last.id, []);
  }
  for (const entry of entries) if (entry.parentId !== null) children.get(entry.parentId)?.push(entry);
  let newLeaf = leaf;
  for (const [answer, found] of runs) {
    if (!ordered.has(answer)) continue;
    const run = found.filter((line) => line.first.line > answer.line);
    const tail = run.at(-1)?.last;
    if (tail === undefined) continue;
    const members = new Set<Entry>(run.flatMap((line) => [line.first, line.last]));
    let parent = answer;
    for (const line of run) {
      setParent(line.first, parent.id);
      parent = line.last;
    }
    // The answer's other children that are conversation come after its results too; a line
    // Claude Code saved while the answer streamed (an attachment) stays where it was, aside.
    for (const child of children.get(answer.id) ?? [])
      if (!members.has(child) && child.parentId === answer.id && isConversation(child)) setParent(child, tail.id);
    for (const line of run) {
      for (const child of children.get(line.last.id) ?? [])
        if (!members.has(child) && child.parentId === line.last.id) setParent(child, tail.id);
    }
    if (leaf !== undefined && members.has(leaf)) newLeaf = tail;
  }
  return newLeaf;
}

function setParent(entry: Entry, parentId: string): void {
  entry.parentId = parentId;
  entry.data.parentId = parentId;
}
