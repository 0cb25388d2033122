import { describe, expect, test } from "bun:test";
import { hookEntryMerge } from "./hook-entries.ts";
import { hookEntryGone, mergeAll, type MergePart } from "./merge-all.ts";

/** Entries of ours tell themselves by their command, as integrate's do. */
const isOurs = (tag: string) => (value: unknown) => JSON.stringify(value).includes(`ours-${tag}`);
const entry = (tag: string, n = 0) => ({ hooks: [{ type: "command", command: `ours-${tag} ${n}` }] });

const main = (): MergePart => ({ merge: hookEntryMerge("UserPromptExpansion", entry("main"), isOurs("main")), wanted: true });
const stop = (n: number | undefined): MergePart =>
  n === undefined
    ? { merge: hookEntryGone("Stop", isOurs("stop")), wanted: false }
    : { merge: hookEntryMerge("Stop", entry("stop", n), isOurs("stop")), wanted: true };

const STARTS: [string, string | undefined][] = [
  ["no file", undefined],
  ["{}", "{}\n"],
  ["one line", '{"model":"x"}'],
  ["pretty, another key", '{\n    "model": "x"\n}\n'],
  [
    "the user's own Stop hook",
    '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "say done" }] }\n    ]\n  }\n}\n',
  ],
];

/** The sequences of installs (a Stop percent, or none) a user may run before uninstalling. */
const RUNS: (number | undefined)[][] = [[80], [80, 70], [80, undefined], [undefined, 80], [80, 70, undefined, 60]];

describe("several entries of ours in one file", () => {
  for (const [name, start] of STARTS)
    for (const runs of RUNS)
      test(`${name}, installed ${runs.map((n) => n ?? "without").join(" → ")}: uninstall finds the bytes from before`, () => {
        let text = start;
        for (const n of runs) text = mergeAll([main(), stop(n)]).add(text);
        const last = runs.at(-1);
        const merge = mergeAll([main(), stop(last)]);
        expect(merge.state(text)).toBe("current");
        expect(merge.add(text ?? "")).toBe(text ?? "");
        expect(merge.remove(text ?? "", (candidate) => candidate === start)).toBe(start);
        // Without the hash from before (the user edited since), only our entries go: no "ours" left.
        expect(merge.remove(text ?? "", () => false) ?? "").not.toContain("ours-");
      });

  test("an entry of ours that must not be there reads outdated, and add takes it out with the list it emptied", () => {
    const installed = mergeAll([main(), stop(80)]).add('{"model":"x"}');
    const without = mergeAll([main(), stop(undefined)]);
    expect(without.state(installed)).toBe("outdated");
    expect(without.add(installed)).toBe(mergeAll([main()]).add('{"model":"x"}'));
  });

  test("the user's own Stop hook stays when ours goes", () => {
    const start = STARTS[4]?.[1] ?? "";
    const out = mergeAll([main(), stop(undefined)]).add(mergeAll([main(), stop(80)]).add(start));
    expect(out).toContain('"command": "say done"');
    expect(out).not.toContain("ours-stop");
  });

  test("the user's hook put into our entry: taking the offer out is refused, nothing lost", () => {
    const installed = mergeAll([main(), stop(80)]).add('{"model":"x"}');
    const mixed = installed.replace('"command":"ours-stop 80"}', '"command":"ours-stop 80"},{"type":"command","command":"say done"}');
    expect(mixed).toContain("say done");
    expect(() => mergeAll([main(), stop(undefined)]).add(mixed)).toThrow("has an entry with our hook and another in it");
  });
});
