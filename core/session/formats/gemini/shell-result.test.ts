/** The exit code in Gemini CLI 0.61.0's shell results: only Gemini's own lines after the output count. */
import { describe, expect, test } from "bun:test";
import { geminiShellExitCode, readGeminiShellResult } from "./shell-result.ts";

const wrap = (text: string) => `<untrusted_context>\n${text}\n</untrusted_context>`;

describe("the exit code a run_shell_command result states", () => {
  test.each<[string, string, number | null | undefined]>([
    ["exit 0: no Exit Code line", wrap("Output: ok\nProcess Group PGID: 10"), 0],
    ["exit 0, no output", wrap("Output: (empty)\nProcess Group PGID: 10"), 0],
    ["non-zero", wrap("Output: (empty)\nExit Code: 1\nProcess Group PGID: 29767"), 1],
    [
      "non-zero with an error line and background PIDs",
      wrap("Output: x\nError: boom\nExit Code: 127\nBackground PIDs: 4, 5\nProcess Group PGID: 3"),
      127,
    ],
    ["non-zero, no PGID line", wrap("Output: a\nb\nExit Code: 2"), 2],
    ["without the untrusted_context wrapper", "Output: (empty)\nExit Code: 3\nProcess Group PGID: 1", 3],
    ["killed by a signal: no code", wrap("Output: partial\nSignal: 9\nProcess Group PGID: 8"), null],
    [
      "cancelled by the user",
      wrap("Command was cancelled by user before it could complete. There was no output before it was cancelled."),
      null,
    ],
    [
      "cancelled by the timeout",
      wrap("Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output."),
      null,
    ],
    ["moved to the background", wrap("Command moved to background (PID: 77). Output hidden. Press Ctrl+B to view."), null],
    ["the command printed Exit Code, then more", wrap("Output: Exit Code: 7\ndone\nProcess Group PGID: 10"), 0],
    [
      "the command printed Exit Code as its last line, Gemini's lines after it",
      wrap("Output: Exit Code: 7\nExit Code: 2\nProcess Group PGID: 10"),
      2,
    ],
    ["the command printed Exit Code on the Output line only", wrap("Output: Exit Code: 7\nProcess Group PGID: 10"), 0],
    ["Gemini's lines out of its order are the output's", wrap("Output: x\nProcess Group PGID: 10\nExit Code: 4"), 4],
    [
      "a second PGID line above Gemini's is the output's",
      wrap("Output: x\nExit Code: 5\nProcess Group PGID: 9\nProcess Group PGID: 10"),
      0,
    ],
    ["a summary, in no shell shape", wrap("The command listed three files."), undefined],
    ["an empty text", "", undefined],
  ])("%s", (_name, text, code) => {
    expect(geminiShellExitCode(text)).toBe(code);
  });
});

describe("the command's own output inside Gemini's framing", () => {
  test.each<[string, string, string | undefined]>([
    [
      "Gemini's lines after it are not the output's",
      wrap("Output: a\nb\nError: boom\nExit Code: 1\nProcess Group PGID: 7"),
      "a\nb\nError: boom",
    ],
    ["no output", wrap("Output: (empty)\nExit Code: 1\nProcess Group PGID: 7"), ""],
    ["an Exit Code the command printed stays in it", wrap("Output: Exit Code: 7\ndone\nProcess Group PGID: 10"), "Exit Code: 7\ndone"],
    [
      "a cancelled run: Gemini's words",
      wrap("Command was cancelled by user before it could complete. Below is the output before it was cancelled:\nx"),
      "Command was cancelled by user before it could complete. Below is the output before it was cancelled:\nx",
    ],
    ["no shell shape", "The command listed three files.", undefined],
  ])("%s", (_name, text, body) => {
    expect(readGeminiShellResult(text)?.body).toBe(body);
  });
});

/** A result as Gemini CLI wrote it before 0.61 (its `.json` sessions): every field on its line. */
const older = (fields: { output?: string; error?: string; code?: string; signal?: string; pgid?: boolean; streams?: [string, string] }) =>
  [
    "Command: npm test",
    "Directory: (root)",
    ...(fields.streams ? [`Stdout: ${fields.streams[0]}`, `Stderr: ${fields.streams[1]}`] : [`Output: ${fields.output ?? "(empty)"}`]),
    `Error: ${fields.error ?? "(none)"}`,
    `Exit Code: ${fields.code ?? "0"}`,
    `Signal: ${fields.signal ?? "(none)"}`,
    "Background PIDs: (none)",
    ...(fields.pgid === false ? [] : ["Process Group PGID: 4242"]),
  ].join("\n");

describe("a result in the shape before 0.61 (every field, (none) when empty)", () => {
  test.each<[string, string, number | null | undefined, string | undefined]>([
    ["exit 0", older({ output: "ok" }), 0, "ok"],
    ["exit 1, output on two lines", older({ output: "FAIL x\nerror: expected 2", code: "1" }), 1, "FAIL x\nerror: expected 2"],
    ["no output", older({ code: "2" }), 2, ""],
    ["killed by a signal: Exit Code (none)", older({ code: "(none)", signal: "9" }), null, ""],
    ["a spawn error, no code", older({ error: "spawn bash ENOENT", code: "(none)" }), null, ""],
    ["the earliest, without a PGID line", older({ output: "ok", code: "3", pgid: false }), 3, "ok"],
    ["stdout and stderr apart (earlier still)", older({ streams: ["out", "err"], code: "1" }), 1, "out\nerr"],
    ["stdout and stderr, both empty", older({ streams: ["(empty)", "(empty)"] }), 0, ""],
    ["an Exit Code the command printed is its output", older({ output: "Exit Code: 7", code: "0" }), 0, "Exit Code: 7"],
    [
      "a command over two lines",
      older({ output: "ok", code: "4" }).replace("Command: npm test", "Command: npm test &&\n  npm run lint"),
      4,
      "ok",
    ],
    [
      "Command and Directory but a field missing: no shell shape",
      older({ output: "ok" }).replace("\nSignal: (none)", ""),
      undefined,
      undefined,
    ],
    ["no Directory line: no shell shape", older({ output: "ok" }).replace("Directory: (root)\n", ""), undefined, undefined],
  ])("%s", (_name, text, code, body) => {
    expect(geminiShellExitCode(text)).toBe(code);
    expect(readGeminiShellResult(text)?.body).toBe(body);
  });
});
