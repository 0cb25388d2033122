import { describe, expect, test } from "bun:test";
import { describeFormatNames } from "../../session/formats/table.ts";
import { parseHandoffArgs } from "./hook-args.ts";

const NOT_AN_OPTION = "is not an option here: only --to <agent>, then the focus (put -- before a focus that starts with -)";

describe("the text after /handoff, read as data", () => {
  // [typed, what it is]
  test.each<[string, ReturnType<typeof parseHandoffArgs>]>([
    ["", { to: undefined, focus: "" }],
    ["  finish the parser  ", { to: undefined, focus: "finish the parser" }],
    ["finish $(rm -rf ~) `id` \"a\" 'b'; touch x", { to: undefined, focus: "finish $(rm -rf ~) `id` \"a\" 'b'; touch x" }],
    ["two\nlines", { to: undefined, focus: "two\nlines" }],
    ["--to codex carry on", { to: "codex", focus: "carry on" }],
    ["--to=codex carry on", { to: "codex", focus: "carry on" }],
    ["--to\tclaude\n--verbose is data here", { to: "claude-code", focus: "--verbose is data here" }],
    ["--to pi -- --help me", { to: "pi", focus: "--help me" }],
    ["-- --to is not a flag here", { to: undefined, focus: "--to is not a flag here" }],
    ["--", { to: undefined, focus: "" }],
    ["-5 degrees outside", { to: undefined, focus: "-5 degrees outside" }],
    ["--to", { problem: "--to needs an agent: --to <agent>" }],
    ["--to /tmp/x", { problem: `--to takes ${describeFormatNames()}, not "/tmp/x"` }],
    ["--to ../codex", { problem: `--to takes ${describeFormatNames()}, not "../codex"` }],
    ["--to vim", { problem: `--to takes ${describeFormatNames()}, not "vim"` }],
    [`--to ${"x".repeat(100)}`, { problem: `--to takes ${describeFormatNames()}, not "${"x".repeat(40)}"` }],
    ["--help", { problem: `--help ${NOT_AN_OPTION}` }],
    ["-h", { problem: `-h ${NOT_AN_OPTION}` }],
    ["--engine llm", { problem: `--engine ${NOT_AN_OPTION}` }],
    ["a\0b", { problem: "the text after the command holds a NUL character; type it without one" }],
  ])("%p", (typed, expected) => {
    expect(parseHandoffArgs(typed)).toEqual(expected);
  });

  test("a focus of a megabyte is taken whole", () => {
    const focus = "y".repeat(1024 * 1024);
    expect(parseHandoffArgs(focus)).toEqual({ to: undefined, focus });
  });
});
