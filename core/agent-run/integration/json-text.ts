import { IntegrationProblem } from "./types.ts";

/**
 * JSON read with the place of every value, so a settings file can be changed at the text level:
 * one span inserted or taken out, every other byte (keys, order, spacing) as it was. Strict JSON,
 * as the agents read their settings files.
 */
export type JsonNode =
  | { type: "object"; start: number; end: number; members: JsonMember[] }
  | { type: "array"; start: number; end: number; items: JsonNode[] }
  | { type: "string"; start: number; end: number; value: string }
  | { type: "other"; start: number; end: number };

export interface JsonMember {
  key: string;
  /** Where the key's opening quote is. */
  keyStart: number;
  value: JsonNode;
}

/** The 1-based line of offset `at`. */
export function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** More nesting than any settings file has: deeper is refused rather than risking the stack. */
const MAX_DEPTH = 200;

/** Parses `text` (one JSON value, whitespace around it) with the spans of every value. */
export function parseJsonText(text: string): JsonNode {
  let at = 0;
  const fail = (what: string): never => {
    throw new IntegrationProblem(`is not JSON: ${what}`, lineAt(text, at));
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text.charAt(at))) at++;
  };
  const string = (): JsonNode => {
    const start = at;
    at++;
    while (at < text.length && text.charAt(at) !== '"') {
      if (text.charAt(at) === "\\") at++;
      else if (text.charCodeAt(at) < 0x20) fail("a control character in a string");
      at++;
    }
    if (at >= text.length) fail("a string that does not end");
    at++;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, at));
    } catch {
      at = start;
      fail("a bad escape in a string");
    }
    return { type: "string", start, end: at, value: value as string };
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail(`more than ${MAX_DEPTH} levels of nesting`);
    space();
    const start = at;
    const c = text.charAt(at);
    if (c === "{") {
      at++;
      const members: JsonMember[] = [];
      space();
      if (text.charAt(at) === "}") return { type: "object", start, end: ++at, members };
      for (;;) {
        space();
        if (text.charAt(at) !== '"') fail("a key that is not a string");
        const keyStart = at;
        const key = string() as { value: string };
        // JSON.parse and the agents keep the last of two same-named keys, so an entry merged
        // into the first would be written and reported installed, yet never read: refused.
        if (members.some((m) => m.key === key.value)) {
          throw new IntegrationProblem(
            `has ${JSON.stringify(key.value)} twice in one object (the agent reads only the last)`,
            lineAt(text, keyStart),
          );
        }
        space();
        if (text.charAt(at) !== ":") fail('":" expected after a key');
        at++;
        members.push({ key: key.value, keyStart, value: value(depth + 1) });
        space();
        if (text.charAt(at) === ",") {
          at++;
          continue;
        }
        if (text.charAt(at) === "}") return { type: "object", start, end: ++at, members };
        fail('"," or "}" expected');
      }
    }
    if (c === "[") {
      at++;
      const items: JsonNode[] = [];
      space();
      if (text.charAt(at) === "]") return { type: "array", start, end: ++at, items };
      for (;;) {
        items.push(value(depth + 1));
        space();
        if (text.charAt(at) === ",") {
          at++;
          continue;
        }
        if (text.charAt(at) === "]") return { type: "array", start, end: ++at, items };
        fail('"," or "]" expected');
      }
    }
    if (c === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (literal === null) return fail(at >= text.length ? "the text ends where a value should be" : `unexpected "${text.charAt(at)}"`);
    at += literal[0].length;
    return { type: "other", start, end: at };
  };
  const root = value(0);
  space();
  if (at < text.length) fail("more text after the value");
  return root;
}

/** The whitespace that starts the line `at` is on. */
function indentOf(text: string, at: number): string {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}

/** The file's own indentation step (the first indented line's), else two spaces. */
export function indentUnit(text: string): string {
  return /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
}

/**
 * The file's own line break, its first one's: `\r\n` in a file written on Windows, else `\n`.
 * Every line break we insert is this one, so a CRLF file stays CRLF (and `--uninstall`, taking
 * out exactly what was inserted, gives back its bytes).
 */
export function lineBreakOf(text: string): "\n" | "\r\n" {
  const at = text.indexOf("\n");
  return at > 0 && text.charAt(at - 1) === "\r" ? "\r\n" : "\n";
}

/** `value` as JSON, laid out from `indent` with `unit` per level (its first line not indented), lines broken with `eol`. */
export function renderJson(value: unknown, indent: string, unit: string, eol = "\n"): string {
  return JSON.stringify(value, null, unit).replaceAll("\n", `${eol}${indent}`);
}

/** Whether two offsets are on the same line. */
function sameLine(text: string, from: number, to: number): boolean {
  return !text.slice(from, to).includes("\n");
}

/** `text` with `"key": value` added as the last member of `object`, laid out as its other members are. */
export function insertMember(text: string, object: JsonNode & { type: "object" }, key: string, value: unknown): string {
  const unit = indentUnit(text);
  const eol = lineBreakOf(text);
  const last = object.members.at(-1);
  if (last === undefined) {
    const outer = indentOf(text, object.start);
    const inner = outer + unit;
    const member = `${JSON.stringify(key)}: ${renderJson(value, inner, unit, eol)}`;
    return `${text.slice(0, object.start + 1)}${eol}${inner}${member}${eol}${outer}${text.slice(object.end - 1)}`;
  }
  if (sameLine(text, object.start, last.keyStart)) {
    const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return `${text.slice(0, last.value.end)}, ${member}${text.slice(last.value.end)}`;
  }
  const inner = indentOf(text, last.keyStart);
  const member = `${JSON.stringify(key)}: ${renderJson(value, inner, unit, eol)}`;
  return `${text.slice(0, last.value.end)},${eol}${inner}${member}${text.slice(last.value.end)}`;
}

/** `text` with `value` added as the last item of `array`, laid out as its other items are. */
export function insertItem(text: string, array: JsonNode & { type: "array" }, value: unknown): string {
  const unit = indentUnit(text);
  const eol = lineBreakOf(text);
  const last = array.items.at(-1);
  if (last === undefined) {
    const outer = indentOf(text, array.start);
    const inner = outer + unit;
    return `${text.slice(0, array.start + 1)}${eol}${inner}${renderJson(value, inner, unit, eol)}${eol}${outer}${text.slice(array.end - 1)}`;
  }
  if (sameLine(text, array.start, last.start)) {
    return `${text.slice(0, last.end)}, ${JSON.stringify(value)}${text.slice(last.end)}`;
  }
  const inner = indentOf(text, last.start);
  return `${text.slice(0, last.end)},${eol}${inner}${renderJson(value, inner, unit, eol)}${text.slice(last.end)}`;
}

/** `text` with the item of `array` at `index` replaced by `value`, laid out where it stood. */
export function replaceItem(text: string, array: JsonNode & { type: "array" }, index: number, value: unknown): string {
  const item = array.items[index];
  if (item === undefined) return text;
  const rendered = sameLine(text, array.start, item.start)
    ? JSON.stringify(value)
    : renderJson(value, indentOf(text, item.start), indentUnit(text), lineBreakOf(text));
  return text.slice(0, item.start) + rendered + text.slice(item.end);
}

/**
 * `text` with one element (`spans[index]`, an item's or a member's `[start, end)`) of a container
 * taken out with its separator: after the one before it, else up to the one after it, else all
 * the container holds (`{}`, `[]`). The inverse of `insertMember` and `insertItem` for the last element.
 */
export function removeElement(
  text: string,
  container: { start: number; end: number },
  spans: readonly [number, number][],
  index: number,
): string {
  const span = spans[index];
  if (span === undefined) return text;
  const before = spans[index - 1];
  if (before !== undefined) return text.slice(0, before[1]) + text.slice(span[1]);
  const after = spans[index + 1];
  if (after !== undefined) return text.slice(0, span[0]) + text.slice(after[0]);
  return text.slice(0, container.start + 1) + text.slice(container.end - 1);
}

/** The spans of a container's elements, for `removeElement`. */
export function elementSpans(node: JsonNode): [number, number][] {
  if (node.type === "object") return node.members.map((m) => [m.keyStart, m.value.end]);
  if (node.type === "array") return node.items.map((i) => [i.start, i.end]);
  return [];
}

/** The member of `object` named `key`. */
export function memberOf(node: JsonNode, key: string): JsonMember | undefined {
  return node.type === "object" ? node.members.find((m) => m.key === key) : undefined;
}
