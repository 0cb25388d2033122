import { describe, expect, test } from "bun:test";
import type { ArgsDef } from "citty";
import { findFlagProblem, suggest } from "./args.ts";
import { handoffCommand } from "../commands/handoff/handoff.ts";

/** The handoff command's own flags, so these tests follow the real definition. */
async function handoffArgs(): Promise<ArgsDef> {
  const args = handoffCommand.args;
  return (typeof args === "function" ? await args() : await args) ?? {};
}

describe("findFlagProblem on agent handoff", () => {
  test.each([
    ["a misspelt --focus", ["s.jsonl", "--foucs", "the parser"], "unknown option --foucs; did you mean --focus?"],
    ["a misspelt flag with an inline value", ["s.jsonl", "--foucs=the parser"], "unknown option --foucs; did you mean --focus?"],
    ["a misspelt --strict", ["s.jsonl", "--strcit"], "unknown option --strcit; did you mean --strict?"],
    ["a misspelt --dry-run", ["s.jsonl", "--dryrun"], "unknown option --dryrun; did you mean --dry-run?"],
    ["a misspelt --no-record", ["s.jsonl", "--no-recrod"], "unknown option --no-recrod; did you mean --no-record?"],
    ["a flag after a valid one", ["s.jsonl", "--strict", "--modle", "x"], "unknown option --modle; did you mean --model?"],
    ["a flag far from any", ["s.jsonl", "--frobnicate-everything"], "unknown option --frobnicate-everything"],
    ["an unknown short flag", ["s.jsonl", "-x"], "unknown option -x"],
    ["an unknown letter in a group", ["s.jsonl", "-qz"], "unknown option -z (in -qz)"],
    ["--no- on a flag that is not a switch", ["s.jsonl", "--no-focus"], "unknown option --no-focus; did you mean --no-facts?"],
    ["a value flag at the end, with no value", ["s.jsonl", "--focus"], "option --focus needs a value"],
    ["a value flag followed by another flag", ["s.jsonl", "--out", "--strict"], "option --out needs a value"],
    ["a short value flag with no value", ["s.jsonl", "-o"], "option -o needs a value"],
    ["a value flag followed by --", ["s.jsonl", "--leaf", "--"], "option --leaf needs a value"],
    ["a second session", ["a.jsonl", "b.jsonl"], 'unexpected argument "b.jsonl": this command takes <path> only'],
    [
      "a second session after the flags",
      ["a.jsonl", "--strict", "b.jsonl"],
      'unexpected argument "b.jsonl": this command takes <path> only',
    ],
    ["a word after a flag's value", ["a.jsonl", "-f", "x", "y"], 'unexpected argument "y": this command takes <path> only'],
    ["a second lone dash", ["-", "-"], 'unexpected argument "-": this command takes <path> only'],
    ["a second word after --", ["a.jsonl", "--", "--json"], 'unexpected argument "--json": this command takes <path> only'],
    ["an unquoted focus", ["a.jsonl", "--focus", "finish", "the", "parser"], 'unexpected argument "the": this command takes <path> only'],
  ])("rejects %s", async (_, argv, message) => {
    expect(findFlagProblem(argv, await handoffArgs())).toBe(message);
  });

  test.each([
    ["no flags", ["s.jsonl"]],
    [
      "every long flag",
      [
        "s.jsonl",
        "--focus",
        "x",
        "--model",
        "m",
        "--base-url",
        "http://h",
        "--out",
        "o.jsonl",
        "--leaf",
        "a1",
        "--json",
        "--dry-run",
        "--strict",
        "--timeout",
        "5",
        "--retries",
        "1",
        "--system-prompt-file",
        "p.md",
        "--quiet",
        "--verbose",
      ],
    ],
    ["--no-record", ["s.jsonl", "--no-record"]],
    ["--no- on any switch", ["s.jsonl", "--no-strict", "--no-json"]],
    ["--flag=value", ["s.jsonl", "--focus=the parser", "--timeout=30", "--base-url=http://127.0.0.1:1/v1"]],
    ["an empty inline value", ["s.jsonl", "--focus=", "--strict"]],
    ["camelCase spellings", ["s.jsonl", "--dryRun", "--baseUrl", "http://h", "--systemPromptFile", "p.md"]],
    ["aliases", ["s.jsonl", "-f", "x", "-m", "gpt-5", "-o", "out.jsonl", "-q", "-v"]],
    ["grouped short switches", ["s.jsonl", "-qv"]],
    ["a short flag with its value attached", ["s.jsonl", "-fthe parser", "-vf", "x"]],
    ["a value that starts with a dash, given inline", ["s.jsonl", "--focus=--not-a-flag", "--retries", "-1"]],
    ["help", ["s.jsonl", "--help", "-h"]],
    ["a session after --, even one named like a flag", ["--", "--foucs.jsonl"]],
    ["a lone dash", ["-", "--strict"]],
  ])("accepts %s", async (_, argv) => {
    expect(findFlagProblem(argv, await handoffArgs())).toBeUndefined();
  });
});

describe("findFlagProblem on any definition", () => {
  const def: ArgsDef = {
    file: { type: "positional", required: false },
    level: { type: "enum", options: ["a", "b"], alias: ["l", "lvl"] },
    keepGoing: { type: "boolean" },
  };

  test.each([
    ["an enum flag's value is skipped", ["--level", "weird"], undefined],
    ["an enum flag with no value", ["--level"], "option --level needs a value"],
    ["a short alias", ["-l", "a"], undefined],
    ["a long alias", ["--lvl", "b"], undefined],
    ["a camelCase name in kebab case", ["--keep-going"], undefined],
    ["its negation", ["--no-keep-going"], undefined],
    ["a near miss", ["--keep-goign"], "unknown option --keep-goign; did you mean --keep-going?"],
    ["a positional's name is not a flag", ["--file", "x"], "unknown option --file"],
    ["one word per positional", ["a", "--keep-going"], undefined],
    ["a word too many", ["a", "b"], 'unexpected argument "b": this command takes <file> only'],
  ])("%s", (_, argv, expected) => {
    expect(findFlagProblem(argv, def)).toBe(expected);
  });

  // citty's own message would be another style ("Missing required positional argument: FILE").
  test.each<[string, string[], ArgsDef["file"], string | undefined]>([
    ["a required positional left out", [], { type: "positional" }, "argument <file> is missing"],
    ["a required positional left out, a flag given", ["--json"], { type: "positional" }, "argument <file> is missing"],
    ["a positional with a default", [], { type: "positional", default: "x" }, undefined],
    ["a positional not required", [], { type: "positional", required: false }, undefined],
  ])("%s", (_, argv, file, expected) => {
    expect(findFlagProblem(argv, { file, json: { type: "boolean" } })).toBe(expected);
  });

  test.each([
    ["a command without positionals", [], undefined],
    ["a word for a command that takes none", ["x"], 'unexpected argument "x": this command takes no arguments'],
  ])("%s", (_, argv, expected) => {
    expect(findFlagProblem(argv, { json: { type: "boolean" } })).toBe(expected);
  });
});

describe("suggest", () => {
  test.each([
    ["foucs", ["focus", "model"], "focus"],
    ["inspcet", ["handoff", "inspect"], "inspect"],
    ["xyz", ["handoff", "inspect"], undefined],
    // Two edits, but every letter replaced: nothing in common.
    ["x", ["to", "json"], undefined],
    ["ab", ["to"], undefined],
    ["t", ["to", "json"], "to"],
    ["tto", ["to"], "to"],
    ["anything", [], undefined],
  ])("suggests for %s among %p: %p", (word, known, expected) => {
    expect(suggest(word, known)).toBe(expected);
  });
});
