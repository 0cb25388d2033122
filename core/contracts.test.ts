import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CONFIG_JSON_KEYS,
  CONFIG_SETTINGS_JSON_KEYS,
  DRY_RUN_AGENT_JSON_KEYS,
  DRY_RUN_DOCUMENT_JSON_KEYS,
  DRY_RUN_REQUESTS_JSON_KEYS,
  HANDOFF_JSON_KEYS,
  INSPECT_JSON_KEYS,
  LS_SESSION_JSON_KEYS,
} from "./contracts.ts";

// The README is what scripts are written against: its field list for each --json output must be
// the contract's keys, no more and no fewer.
const README = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");

/** The README's table row for a flag whose description starts with `start`. */
function row(start: string): string {
  const line = README.split("\n").find((l) => l.startsWith(start));
  if (line === undefined) throw new Error(`README: no row starting ${JSON.stringify(start)}`);
  return line.slice(start.length);
}

/** The backticked names in a text, with what stands in parentheses (a field's own fields, notes) left out. */
function backticked(text: string): string[] {
  let outer = text;
  for (let inner = outer.replace(/\([^()]*\)/g, ""); inner !== outer; inner = outer.replace(/\([^()]*\)/g, "")) outer = inner;
  return [...outer.matchAll(/`([A-Za-z-]+)`/g)].map((m) => m[1] ?? "");
}

const sorted = (keys: readonly string[]) => [...keys].sort();
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

describe("each --json output's fields are the README's", () => {
  test("handoff --json", () => {
    const fields = backticked(row("| `--json` | print one JSON object instead of the document:").replace(/\|\s*$/, ""));
    expect(sorted(fields)).toEqual(sorted(HANDOFF_JSON_KEYS));
  });

  test("handoff --dry-run --json, all three shapes", () => {
    // A field's own fields (`runs: [{command, env, prompt}]`) are left out: the shape's keys are the top level.
    const text = row("| `--dry-run` |").replace(/: \[\{[^}]*\}\]/g, "");
    const shapes = [...text.matchAll(/`\{([^}]*)\}`/g)].map((m) => sorted((m[1] ?? "").split(",").map((k) => k.trim())));
    expect(shapes).toEqual([sorted(DRY_RUN_REQUESTS_JSON_KEYS), sorted(DRY_RUN_DOCUMENT_JSON_KEYS), sorted(DRY_RUN_AGENT_JSON_KEYS)]);
  });

  test("ls --json: each session's fields, `messages` with --long", () => {
    const text = row("| `--json` | one JSON array of");
    const listed = /`\{([^}]*)\}`, and `([a-z]+)` with `--long`/.exec(text);
    const keys = [...(listed?.[1] ?? "").split(",").map((k) => k.trim()), listed?.[2] ?? ""];
    expect(sorted(keys)).toEqual(sorted(LS_SESSION_JSON_KEYS));
  });

  test("inspect --json", () => {
    expect(sorted(backticked(row("| `--json` | print one JSON object on stdout:")))).toEqual(sorted(INSPECT_JSON_KEYS));
  });

  test("config --json: the README's example, top level and settings", () => {
    const start = README.indexOf("`--json` prints one object:\n\n");
    const block = README.slice(start).split("\n\n")[1] ?? "";
    const example: unknown = JSON.parse(block);
    if (!isRecord(example) || !isRecord(example.settings))
      throw new Error("README: the config --json example is not an object with settings");
    expect(sorted(Object.keys(example))).toEqual(sorted(CONFIG_JSON_KEYS));
    expect(sorted(Object.keys(example.settings))).toEqual(sorted(CONFIG_SETTINGS_JSON_KEYS));
  });
});
