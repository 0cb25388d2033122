import { describe, expect, test } from "bun:test";
import { hookEntryMerge } from "./hook-entries.ts";
import { IntegrationProblem } from "./types.ts";

const ours = (command: string) => ({ matcher: "handoff", hooks: [{ type: "command", command, timeout: 600 }] });
const isOurs = (value: unknown) => JSON.stringify(value).includes("OURS");
const merge = hookEntryMerge("UserPromptExpansion", ours("run OURS v2"), isOurs);

const OTHER_HOOK = { matcher: "review", hooks: [{ type: "command", command: "echo review" }] };

/** Starting states of a settings file: the bytes before `integrate` (undefined: no file). */
const STATES: [string, string | undefined][] = [
  ["no file", undefined],
  ["an empty file", ""],
  ["a file of blank lines", "\n\n"],
  ["an empty object", "{}"],
  ["an empty object and a line break", "{}\n"],
  ["other keys, tabs", '{\n\t"model": "opus",\n\t"env": {\n\t\t"A": "1"\n\t}\n}\n'],
  ["other keys on one line", '{"model":"opus","permissions":{"allow":["Bash(ls)"]}}'],
  ["another event's hooks", '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": []\n      }\n    ]\n  }\n}\n'],
  ["an empty hooks object", '{\n  "hooks": {}\n}\n'],
  ["the event with an empty list", '{\n    "hooks": {\n        "UserPromptExpansion": []\n    }\n}'],
  ["other hooks of the same event", `${JSON.stringify({ a: 1, hooks: { UserPromptExpansion: [OTHER_HOOK] }, z: [1, 2] }, null, 2)}\n`],
  ["other hooks of the same event, on one line", JSON.stringify({ hooks: { UserPromptExpansion: [OTHER_HOOK] } })],
  ["an older entry of ours", `${JSON.stringify({ hooks: { UserPromptExpansion: [OTHER_HOOK, ours("run OURS v1")] } }, null, 2)}\n`],
  ["CRLF line ends", '{\r\n  "model": "opus"\r\n}\r\n'],
  ["CRLF, an empty object", "{}\r\n"],
  ["CRLF, blank lines", "\r\n\r\n"],
  ["CRLF, an empty hooks object", '{\r\n  "hooks": {}\r\n}\r\n'],
  [
    "CRLF, other hooks of the same event",
    `${JSON.stringify({ hooks: { UserPromptExpansion: [OTHER_HOOK] } }, null, 2).replaceAll("\n", "\r\n")}\r\n`,
  ],
  ["CRLF, no final line break", '{\r\n  "model": "opus"\r\n}'],
  ["no final line break", '{\n  "model": "opus",\n  "hooks": {"Stop": []}\n}'],
  [
    "strings with braces, brackets, escaped quotes and unicode",
    '{\n  "a": "}\\"{[",\n  "b": "\\u00e9\\\\",\n  "hooks": {"Stop": [[], {"x": [1, -2.5e3, true, null]}]}\n}\n',
  ],
  ["a key named like ours elsewhere", '{\n  "env": {"hooks": {"UserPromptExpansion": 1}}\n}\n'],
];

function parsed(text: string | undefined): unknown {
  return text === undefined || text.trim() === "" ? {} : JSON.parse(text);
}

/** The JSON `add` should give: the same value with our one entry last in the event's list (an old one of ours replaced). */
function expected(before: string | undefined): unknown {
  const value = structuredClone(parsed(before)) as { hooks?: Record<string, unknown[]> };
  value.hooks ??= {};
  const list = (value.hooks.UserPromptExpansion ?? []).filter((entry) => !isOurs(entry));
  value.hooks.UserPromptExpansion = [...list, ours("run OURS v2")];
  return value;
}

describe("a hook entry merged into a settings file at the text level", () => {
  test.each(STATES)("%s: add gives the same settings with our entry, once", (_, before) => {
    const after = merge.add(before);
    expect(JSON.parse(after)).toEqual(expected(before));
    expect(merge.add(after)).toBe(after);
    expect(merge.state(after)).toBe("current");
  });

  test.each(STATES)("%s: every line break added is the file's own (CRLF stays CRLF)", (_, before) => {
    const after = merge.add(before);
    const crlf = before?.includes("\r\n") ?? false;
    const breaks = (text: string) => [...text.matchAll(/\r?\n/g)].map((m) => m[0]);
    expect(new Set(breaks(after))).toEqual(new Set(breaks(after).length === 0 ? [] : [crlf ? "\r\n" : "\n"]));
    // Nothing added after the file's end: a file without a final line break still has none.
    if (before !== undefined && before.trim() !== "") expect(after.endsWith("\n")).toBe(before.endsWith("\n"));
  });

  test.each(STATES)("%s: remove gives back the very bytes there were", (_, before) => {
    const after = merge.add(before);
    const wasBefore = (text: string | undefined) => text === before;
    // An older entry of ours was there before: taking ours out cannot bring the old one back, and need not.
    if (before?.includes("OURS v1"))
      return expect(parsed(merge.remove(after, wasBefore))).toEqual({ hooks: { UserPromptExpansion: [OTHER_HOOK] } });
    expect(merge.remove(after, wasBefore)).toBe(before);
  });

  test.each(STATES)("%s: with nothing known of before, only our entry goes", (_, before) => {
    const after = merge.add(before);
    const removed = merge.remove(after, () => false);
    expect(removed).toBeDefined();
    expect(merge.state(removed)).toBe("absent");
    expect(JSON.stringify(removed)).not.toContain("OURS");
    const value = parsed(removed) as { hooks?: Record<string, unknown[]> };
    expect(value.hooks?.UserPromptExpansion?.length ?? 0).toBe(
      ((parsed(before) as { hooks?: Record<string, unknown[]> }).hooks?.UserPromptExpansion ?? []).filter((e) => !isOurs(e)).length,
    );
  });

  test("an edit made since integrate stays; our entry goes", () => {
    const after = merge.add('{\n  "model": "opus"\n}\n');
    const edited = after.replace('"model": "opus"', '"model": "sonnet",\n  "theme": "dark"');
    const removed = merge.remove(edited, () => false) ?? "";
    expect(JSON.parse(removed)).toEqual({ model: "sonnet", theme: "dark", hooks: { UserPromptExpansion: [] } });
    expect(removed.startsWith('{\n  "model": "sonnet",\n  "theme": "dark",\n')).toBe(true);
  });

  test("a file without our entry is left as it is, and is absent", () => {
    const text = JSON.stringify({ hooks: { UserPromptExpansion: [OTHER_HOOK] } });
    expect(merge.remove(text, () => true)).toBe(text);
    expect(merge.state(text)).toBe("absent");
    expect(merge.state(undefined)).toBe("absent");
  });

  test("an older entry of ours is outdated", () => {
    const old = hookEntryMerge("UserPromptExpansion", ours("run OURS v1"), isOurs).add(undefined);
    expect(merge.state(old)).toBe("outdated");
  });

  test.each<[string, string, string, number]>([
    ["not JSON", '{\n  "a": 1,\n  oops\n}', "is not JSON: a key that is not a string", 3],
    ["a trailing comma", '{\n  "a": 1,\n}', "is not JSON: a key that is not a string", 3],
    ["a list at the top", "[1]", "is not a JSON object", 1],
    ["hooks a list", '{\n  "hooks": []\n}', '"hooks" is not an object', 2],
    ["the event not a list", '{"hooks": {\n"UserPromptExpansion": {}}}', '"hooks"."UserPromptExpansion" is not a list', 2],
    ["a comment", '// mine\n{"a": 1}', 'is not JSON: unexpected "/"', 1],
    [
      "a hook of the user's put in our entry",
      `{"hooks": {"UserPromptExpansion": [\n${JSON.stringify({ ...(ours("run OURS") as object), hooks: [...(ours("run OURS") as { hooks: unknown[] }).hooks, OTHER_HOOK.hooks[0]] })}]}}`,
      '"hooks"."UserPromptExpansion" has an entry with our hook and another in it; move the other to an entry of its own',
      2,
    ],
    // The agents keep the last of two same-named keys; an entry merged into the first would not be read.
    ["hooks twice", '{"hooks": {},\n"model": "x",\n"hooks": {}}', 'has "hooks" twice in one object (the agent reads only the last)', 3],
    [
      "the event twice",
      '{"hooks": {\n"UserPromptExpansion": [],\n"UserPromptExpansion": []}}',
      'has "UserPromptExpansion" twice in one object (the agent reads only the last)',
      3,
    ],
    ["a key twice deeper", '{"env": {"A": "1",\n"A": "2"}}', 'has "A" twice in one object (the agent reads only the last)', 2],
    [
      "keys that are the same once unescaped",
      '{"hooks": {},\n"\\u0068ooks": {}}',
      'has "hooks" twice in one object (the agent reads only the last)',
      2,
    ],
  ])("%s: one problem naming the line", (_, text, problem, line) => {
    let thrown: unknown;
    try {
      merge.add(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IntegrationProblem);
    expect({ problem: (thrown as IntegrationProblem).problem, line: (thrown as IntegrationProblem).line }).toEqual({ problem, line });
  });
});
