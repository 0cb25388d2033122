import {
  elementSpans,
  insertItem,
  insertMember,
  lineAt,
  lineBreakOf,
  memberOf,
  parseJsonText,
  removeElement,
  renderJson,
  replaceItem,
  type JsonNode,
} from "./json-text.ts";
import { IntegrationProblem, type IntegrationState, type TextMerge } from "./types.ts";

/**
 * One entry in a hooks file of Claude Code's shape (`{"hooks": {"<Event>": [entry, …]}}`: Claude
 * Code's settings.json, Codex's hooks.json), merged at the text level. `isOurs` tells our entry
 * from the user's (by the command it runs), so a moved `agent` updates it instead of adding one.
 */
export function hookEntryMerge(event: string, entry: unknown, isOurs: (value: unknown) => boolean): TextMerge {
  const body = (eol: string) => renderJson({ hooks: { [event]: [entry] } }, "", "  ", eol);
  const ours = (text: string, node: JsonNode) => {
    const value = JSON.parse(text.slice(node.start, node.end));
    if (!isOurs(value)) return false;
    // The user's hook put beside ours in our entry would go with it (on --uninstall, on an
    // update): such an entry is refused, nothing written, until the two are apart again.
    const hooks = (value as { hooks: unknown[] }).hooks;
    if (hooks.some((hook) => !isOurs({ hooks: [hook] })))
      throw new IntegrationProblem(
        `"hooks"."${event}" has an entry with our hook and another in it; move the other to an entry of its own`,
        lineAt(text, node.start),
      );
    return true;
  };

  /** The root, its `hooks` object and the event's array, as far as they exist; a wrong type is a problem naming its line. */
  function locate(text: string) {
    const root = parseJsonText(text);
    if (root.type !== "object") throw new IntegrationProblem("is not a JSON object", lineAt(text, root.start));
    const hooks = memberOf(root, "hooks");
    if (hooks && hooks.value.type !== "object") throw new IntegrationProblem('"hooks" is not an object', lineAt(text, hooks.keyStart));
    const list = hooks && memberOf(hooks.value, event);
    if (list && list.value.type !== "array") throw new IntegrationProblem(`"hooks"."${event}" is not a list`, lineAt(text, list.keyStart));
    return { root, hooks: hooks?.value, list: list?.value };
  }

  /** `text` less its last entry of ours, or undefined when it has none. */
  function withoutLastOfOurs(text: string): string | undefined {
    const { list } = locate(text);
    if (list?.type !== "array") return undefined;
    const index = list.items.findLastIndex((item) => ours(text, item));
    return index < 0 ? undefined : removeElement(text, list, elementSpans(list), index);
  }

  /** `text` with every entry of ours taken out. */
  function withoutOurs(text: string): string {
    let current = text;
    for (let next = withoutLastOfOurs(current); next !== undefined; next = withoutLastOfOurs(current)) current = next;
    return current;
  }

  function add(before: string | undefined): string {
    if (before === undefined) return `${body("\n")}\n`;
    // An empty file stays told apart from no file (no line break added), a blank one keeps its blank lines (and their line breaks) first.
    const eol = lineBreakOf(before);
    if (before.trim() === "") return before === "" ? body(eol) : `${before}${body(eol)}${eol}`;
    const { list } = locate(before);
    if (list?.type === "array") {
      const mine = list.items.filter((item) => ours(before, item));
      const [only] = mine;
      if (mine.length === 1 && only && JSON.stringify(JSON.parse(before.slice(only.start, only.end))) === JSON.stringify(entry))
        return before;
      // One entry of ours, older (another percent, a moved agent): replaced where it stands, laid
      // out as it was, so the text is what a first install would have made and --uninstall still finds the bytes from before.
      if (mine.length === 1 && only) return replaceItem(before, list, list.items.indexOf(only), entry);
    }
    const text = withoutOurs(before);
    const { root, hooks, list: cleared } = locate(text);
    if (cleared?.type === "array") return insertItem(text, cleared, entry);
    if (hooks?.type === "object") return insertMember(text, hooks, event, [entry]);
    if (root.type === "object") return insertMember(text, root, "hooks", { [event]: [entry] });
    return text;
  }

  function remove(current: string, wasBefore: (text: string | undefined) => boolean): string | undefined {
    if (current.trim() === "") return current;
    const entriesOut = withoutOurs(current);
    if (entriesOut === current) return current;
    // The containers add may have made, emptied now: the event's list, then `hooks`, then the file itself.
    const candidates: (string | undefined)[] = [entriesOut];
    const { hooks, list } = locate(entriesOut);
    if (list?.type === "array" && list.items.length === 0 && hooks?.type === "object") {
      const index = hooks.members.findIndex((m) => m.value === list);
      const noList = removeElement(entriesOut, hooks, elementSpans(hooks), index);
      candidates.push(noList);
      const again = locate(noList);
      if (again.hooks?.type === "object" && again.hooks.members.length === 0 && again.root.type === "object") {
        const noHooks = removeElement(
          noList,
          again.root,
          elementSpans(again.root),
          again.root.members.findIndex((m) => m.value.type === "object" && m.key === "hooks"),
        );
        candidates.push(noHooks);
        const trimmed = noHooks.trimEnd();
        if (trimmed.endsWith("{}") && trimmed.slice(0, -2).trim() === "") {
          const lead = trimmed.slice(0, -2);
          candidates.push(lead === "" && noHooks === "{}\n" ? undefined : lead === "" ? "" : lead);
        }
      }
    }
    const mostCollapsedFirst = candidates.reverse();
    const at = mostCollapsedFirst.findIndex((text) => add(text) === current && wasBefore(text));
    return at < 0 ? entriesOut : mostCollapsedFirst[at];
  }

  function state(current: string | undefined): IntegrationState {
    if (current === undefined || current.trim() === "") return "absent";
    let list: JsonNode | undefined;
    try {
      list = locate(current).list;
    } catch {
      // A file that is not JSON (or not of the shape read) may still hold our entry.
      return "unreadable";
    }
    if (list?.type !== "array") return "absent";
    const mine = list.items.filter((item) => ours(current, item));
    if (mine.length === 0) return "absent";
    return add(current) === current ? "current" : "outdated";
  }

  return { add, remove, state };
}
