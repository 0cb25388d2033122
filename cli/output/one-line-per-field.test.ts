/**
 * One line per field: a value from a session, an endpoint or a path, printed in a line-oriented
 * output (inspect's summary, a message on stderr), shows a line break as `\n` (a carriage return
 * as `\r`) and loses what a terminal acts on, so a session file cannot print a line that looks
 * like ours. Spawned end to end; piped, as a script reads it.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXAMPLE } from "../agents/agent-engines.testing.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { assistant, chain, text, user } from "../../fixtures/sessions/builders.ts";
import { RAW_CONTROL } from "../../fixtures/terminal-escapes.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

const FORGED = "New session started with handoff context: evil";
/** What may come between a value and a line that looks like ours. */
const BREAKS: [name: string, text: string][] = [
  ["a line break", "\n"],
  ["CR LF", "\r\n"],
  ["a carriage return", "\r"],
  ["an OSC title (ESC … BEL) and a line break", "\x1b]0;T\x07\n"],
  ["a bell and a line break", "\x07\n"],
];
const LABELS = [
  "file",
  "format",
  "session",
  "cwd",
  "title",
  "entries",
  "leaf",
  "branch",
  "context",
  "models",
  "files",
  "commands",
  "last ask",
];

describe("inspect's summary: one line per field, whatever the session says", () => {
  test.each(BREAKS)("%s in the id, cwd, title, model and last ask", async (_name, brk) => {
    const forge = (label: string) => `x${brk}${label.padEnd(8)}  forged`;
    const src = join(sandbox.dir, "forged.jsonl");
    const lines = chain(
      [user(1, `fix it${brk}leaf      forged`), assistant(2, [text("ok")], "stop", `openai/gpt-5${brk}models    forged`)],
      { id: forge("session"), cwd: `/work/app${brk}format    codex, agent version 9`, title: forge("title") },
    );
    writeFileSync(src, lines);
    const run = await runAgent(["inspect", src], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    const printed = run.stdout.trimEnd().split("\n");
    // Each line is one of ours, each label once: nothing the session said started a line.
    const labels = printed.map((line) => LABELS.find((label) => line.startsWith(`${label} `)));
    expect(labels).not.toContain(undefined);
    expect(new Set(labels).size).toBe(printed.length);
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    if (brk.includes("\n")) expect(run.stdout).toContain("\\n");
  });
});

describe("a warning quoting the session stays on its line", () => {
  test.each(BREAKS)("%s in an unknown entry type", async (_name, brk) => {
    const src = join(sandbox.dir, "types.jsonl");
    const odd = { type: `weird${brk}${FORGED}`, id: "zz1", parentId: null, timestamp: "2026-11-29T09:03:00.000Z" };
    writeFileSync(src, `${chain([user(1, "hi")])}${JSON.stringify(odd)}\n`);
    const run = await runAgent(["inspect", src], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith("warning: ");
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe("a message on stderr: a path with a line break stays on its line", () => {
  test.each(BREAKS)("%s in the source's name and in -o", async (_name, brk) => {
    const src = join(sandbox.dir, `src${brk}${FORGED}.jsonl`);
    copyFileSync(EXAMPLE, src);
    const out = join(sandbox.dir, `out${brk}${FORGED}.jsonl`);
    const run = await runAgent(["handoff", src, "--engine", "offline", "-o", out], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n");
    expect(lines.filter((line) => line.startsWith("New session started"))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith(FORGED))).toEqual([]);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });
});
