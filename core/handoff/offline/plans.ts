/**
 * Plans and checklists the session wrote itself (`- [ ] step` lines) that later work made stale:
 * an open step names a file (or a file's stem: "CHANGELOG" for CHANGELOG.md) that changed after
 * the plan was last written, and the plan was never touched again. Such a file is named with a
 * warning, so the next session trusts the commits and results rather than it.
 */
import { pathNormalizer } from "../../session/paths.ts";
import type { OfflineNotes } from "./note-types.ts";

/** A checklist line, open (`[ ]`) or done (`[x]`). */
const CHECKLIST = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.+)$/;

export interface StalePlan {
  path: string;
  /** The open step later work contradicts, and the file that changed after. */
  step: string;
  changed: string;
}

/** What a write call puts in files: its `content` (pi, Claude Code), or the files an `apply_patch` patch adds (Codex). */
export function writtenContents(args: unknown, path: string | undefined): { path: string; content: string }[] {
  if (typeof args !== "object" || args === null) return [];
  const fields = args as { content?: unknown; input?: unknown; patch?: unknown };
  if (typeof fields.content === "string" && path !== undefined) return [{ path, content: fields.content }];
  const patch = [fields.input, fields.patch].find((v): v is string => typeof v === "string");
  if (patch === undefined) return [];
  const added: { path: string; content: string }[] = [];
  for (const part of patch.split(/^\*\*\* Add File: /m).slice(1)) {
    const [first = "", ...rest] = part.split("\n");
    const body = rest.slice(0, rest.findIndex((l) => l.startsWith("***")) >>> 0);
    added.push({
      path: first.trim(),
      content: body
        .filter((l) => l.startsWith("+"))
        .map((l) => l.slice(1))
        .join("\n"),
    });
  }
  return added;
}

/** Whether a file's content is a plan or checklist: two checklist lines at least. */
export function isPlan(content: string): boolean {
  // Most writes are code: a file with no checkbox at all is not split into lines.
  if (!/\[[ xX]\]/.test(content)) return false;
  return content.split("\n").filter((line) => CHECKLIST.test(line)).length >= 2;
}

const stem = (path: string) => (path.split("/").at(-1) ?? path).replace(/\.[^.]*$/, "").toLowerCase();

/** The plans the session wrote that later changes contradict (one warning per plan, its first contradicted step). */
export function stalePlans(notes: OfflineNotes, cwd: string | undefined): StalePlan[] {
  const stale: StalePlan[] = [];
  // Every plan looks through all the edits: each path is worked out once.
  const one = pathNormalizer(cwd);
  for (const plan of notes.plans) {
    const path = one(plan.path);
    const lastTouch = Math.max(plan.at, ...notes.edits.filter((e) => one(e.text) === path).map((e) => e.at));
    const later = notes.edits.filter((e) => e.at > lastTouch);
    const changed = new Map(later.map((e) => [one(e.text), one(e.text)]));
    const stems = new Map([...changed.keys()].map((file) => [stem(file), file]));
    for (const line of plan.content.split("\n")) {
      const match = CHECKLIST.exec(line);
      if (match?.[1] !== " " || match[2] === undefined) continue;
      const words = match[2].toLowerCase().split(/[^\w./-]+/);
      const file = words.map((w) => changed.get(w) ?? stems.get(w)).find((f) => f !== undefined && f !== path);
      if (file === undefined) continue;
      stale.push({ path, step: line.trim(), changed: file });
      break;
    }
  }
  return stale;
}
