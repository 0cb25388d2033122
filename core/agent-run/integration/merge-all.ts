import { elementSpans, lineAt, memberOf, parseJsonText, removeElement } from "./json-text.ts";
import { IntegrationProblem, type IntegrationState, type TextMerge } from "./types.ts";

/**
 * Several entries of ours in one settings file (Claude Code's `UserPromptExpansion`, the offer's
 * `Stop`, the `PreCompact`), and entries of ours that must not be there (the offer asked for no
 * more): one merge of the file, which `--uninstall` still turns back into the bytes from before.
 */

/** A part of the file's merge: an entry `integrate` writes (`wanted`), or one it takes out when it finds it. */
export interface MergePart {
  merge: TextMerge;
  wanted: boolean;
}

function addAll(parts: readonly MergePart[], before: string | undefined): string | undefined {
  let text = before;
  // No file yet: an entry that must not be there is not, and makes no file.
  for (const part of parts) text = text === undefined && !part.wanted ? undefined : part.merge.add(text);
  return text;
}

/**
 * Our entries out, last part first: each part's `remove` looks for the text before it (the most
 * collapsed one), and a candidate counts only if the parts before it, removed in turn, reach a
 * text `wasBefore` accepts that they turn into that candidate again.
 */
function removeAll(parts: readonly MergePart[], current: string, wasBefore: (text: string | undefined) => boolean): string | undefined {
  const last = parts.at(-1);
  if (last === undefined) return current;
  const inner = parts.slice(0, -1);
  if (inner.length === 0) return last.merge.remove(current, wasBefore);
  const outer = last.merge.remove(current, (candidate) => {
    if (candidate === undefined) return false;
    const original = removeAll(inner, candidate, wasBefore);
    return addAll(inner, original) === candidate && wasBefore(original);
  });
  return outer === undefined ? undefined : removeAll(inner, outer, wasBefore);
}

/** One merge made of `parts`, applied in order (`add`), taken out in reverse (`remove`). */
export function mergeAll(parts: readonly MergePart[]): TextMerge {
  return {
    add: (before) => addAll(parts, before) ?? "",
    remove: (current, wasBefore) => removeAll(parts, current, wasBefore),
    state(current) {
      const states = parts.map((part) => ({ wanted: part.wanted, state: part.merge.state(current) }));
      if (states.some((s) => s.state === "unreadable")) return "unreadable";
      // An entry that must not be there and is not counts as neither installed nor missing.
      const wanted = states.filter((s) => s.wanted).map((s) => s.state);
      const stray = states.some((s) => !s.wanted && s.state !== "current");
      if (wanted.every((s) => s === "absent")) return stray ? "outdated" : "absent";
      if (wanted.every((s) => s === "current")) return stray ? "outdated" : "current";
      return "outdated";
    },
  };
}

/**
 * An entry of ours for `event` that must not be there (the user ran `integrate` without the
 * option that wrote it): `add` takes it out, with the event's list and `hooks` when that left them
 * empty; its state is `current` when there is none, `outdated` when there is.
 */
export function hookEntryGone(event: string, isOurs: (value: unknown) => boolean): TextMerge {
  function list(text: string) {
    const root = parseJsonText(text);
    if (root.type !== "object") throw new IntegrationProblem("is not a JSON object", lineAt(text, root.start));
    const hooks = memberOf(root, "hooks");
    const entries = hooks?.value.type === "object" ? memberOf(hooks.value, event) : undefined;
    return { root, hooks: hooks?.value, entries: entries?.value.type === "array" ? entries.value : undefined };
  }
  const ours = (text: string, start: number, end: number) => {
    const value: unknown = JSON.parse(text.slice(start, end));
    if (!isOurs(value)) return false;
    // The user's hook put beside ours in our entry would go with it: refused, as hookEntryMerge refuses it.
    const hooks = (value as { hooks?: unknown }).hooks;
    if (Array.isArray(hooks) && hooks.some((hook) => !isOurs({ hooks: [hook] })))
      throw new IntegrationProblem(
        `"hooks"."${event}" has an entry with our hook and another in it; move the other to an entry of its own`,
        lineAt(text, start),
      );
    return true;
  };

  function withoutOurs(text: string): string {
    let current = text;
    for (;;) {
      const { entries } = list(current);
      const index = entries?.items.findLastIndex((item) => ours(current, item.start, item.end)) ?? -1;
      if (entries === undefined || index < 0) return current;
      current = removeElement(current, entries, elementSpans(entries), index);
      const after = list(current);
      // The list and `hooks` this emptied go too: integrate made them, or they held only ours.
      if (after.entries?.items.length === 0 && after.hooks?.type === "object") {
        const hooks = after.hooks;
        current = removeElement(
          current,
          hooks,
          elementSpans(hooks),
          hooks.members.findIndex((m) => m.value === after.entries),
        );
        const again = list(current);
        if (again.hooks?.type === "object" && again.hooks.members.length === 0 && again.root.type === "object") {
          const root = again.root;
          current = removeElement(
            current,
            root,
            elementSpans(root),
            root.members.findIndex((m) => m.key === "hooks"),
          );
        }
        return current;
      }
    }
  }

  const add = (before: string | undefined) => (before === undefined || before.trim() === "" ? (before ?? "") : withoutOurs(before));
  return {
    add,
    remove: (current) => add(current),
    state(current): IntegrationState {
      if (current === undefined || current.trim() === "") return "current";
      try {
        return withoutOurs(current) === current ? "current" : "outdated";
      } catch {
        return "unreadable";
      }
    },
  };
}
