import { describe, expect, test } from "bun:test";
import { analyzeBranch, parseSession } from "../../index.ts";
import { normalizePath } from "../../session/paths.ts";
import { extractNotes } from "./extract.ts";
import { assistant, call, result, session, type Record } from "./session.testing.ts";

/**
 * How a tool call ended, judged once (core/session/tool-calls.ts) for Session Facts and the
 * offline engine alike: for each variant, both must name the same commands with the same codes,
 * and neither may count a file a failed or refused call named.
 */
const CWD = "/work/app";
const unified = (lines: string, output = "") =>
  `Chunk ID: 1a\nWall time: 1.0000 seconds\n${lines}Original token count: 3\nOutput:\n${output}`;
const turn = (id: string, name: string, args: Record, output: string, isError = false): Record[] => [
  assistant([call(id, name, args)], "toolUse"),
  result(id, name, output, isError),
];
const patch = (dir: string) =>
  `*** Begin Patch\n*** Add File: ${dir}/new.ts\n+x\n*** Update File: ${dir}/old.ts\n*** Move to: ${dir}/moved.ts\n@@\n-a\n+b\n*** Delete File: ${dir}/gone.ts\n*** End Patch`;

interface Expected {
  commands: [string, number | null, boolean][];
  modified?: string[];
  deleted?: string[];
  read?: string[];
  /** The runs the offline engine judged, when they differ: a call never answered is in Session Facts only (no result to judge). */
  offlineRuns?: [string, number | null, boolean][];
}

function outcomes(entries: Record[]) {
  const { facts, context } = analyzeBranch(parseSession(session(entries, CWD)));
  const notes = extractNotes(context);
  return { facts, notes };
}

describe("one judgement of each tool call, shared by Session Facts and the offline engine", () => {
  test.each<{ name: string; entries: Record[]; expected: Expected }>([
    {
      name: "Codex: a command still running, then the poll that states its code",
      entries: [
        ...turn("c1", "exec_command", { cmd: "npm run test:slow" }, unified("Process running with session ID 42\n", "running")),
        ...turn("c2", "write_stdin", { session_id: 42, chars: "" }, unified("Process exited with code 1\n", "3 tests FAILED")),
      ],
      expected: { commands: [["npm run test:slow", 1, true]] },
    },
    {
      name: "Codex: polls that say it is still running, then one that ends it",
      entries: [
        ...turn("c1", "exec_command", { cmd: "cargo build" }, unified("Process running with session ID 7\n")),
        ...turn("c2", "write_stdin", { session_id: 7 }, unified("Process running with session ID 7\n", "Compiling")),
        ...turn("c3", "write_stdin", { session_id: "7" }, unified("Process exited with code 0\n", "Finished")),
      ],
      expected: { commands: [["cargo build", 0, false]] },
    },
    {
      name: "Codex: a command the agent stopped with Ctrl-C was cancelled, not failed",
      entries: [
        ...turn("c1", "exec_command", { cmd: "npm run dev" }, unified("Process running with session ID 9\n", "ready on :3000")),
        ...turn("c2", "write_stdin", { session_id: 9, chars: "\u0003" }, unified("Process exited with code 130\n", "^C")),
      ],
      expected: { commands: [["npm run dev", null, false]] },
    },
    {
      name: "Codex: a command still running that nothing polled: no code, not 0",
      entries: turn("c1", "exec_command", { cmd: "npm run dev" }, unified("Process running with session ID 3\n", "ready on :3000")),
      expected: { commands: [["npm run dev", null, false]] },
    },
    {
      name: "Codex: a poll of another session leaves the command running",
      entries: [
        ...turn("c1", "exec_command", { cmd: "npm test" }, unified("Process running with session ID 5\n")),
        ...turn("c2", "write_stdin", { session_id: 6 }, unified("Process exited with code 1\n")),
      ],
      expected: { commands: [["npm test", null, false]] },
    },
    {
      name: "Codex: a poll that says nothing more leaves it running",
      entries: [
        ...turn("c1", "exec_command", { cmd: "npm test" }, unified("Process running with session ID 5\n")),
        ...turn("c2", "write_stdin", { session_id: 5 }, "write_stdin failed: UnknownProcessId"),
      ],
      expected: { commands: [["npm test", null, false]] },
    },
    {
      name: "Codex: a shortened output keeps its code",
      entries: turn(
        "c1",
        "exec_command",
        { cmd: "npm test" },
        `Total output lines: 250\n\n${unified("Process exited with code 1\n", "12 tests FAILED")}`,
      ),
      expected: { commands: [["npm test", 1, true]] },
    },
    {
      name: "Codex: a command the user declined never ran",
      entries: turn("c1", "exec_command", { cmd: "rm -rf build" }, "exec command rejected by user"),
      expected: { commands: [] },
    },
    {
      name: "Claude Code: a command a permission rule refused never ran",
      entries: turn("c1", "Bash", { command: "rm -rf /" }, "Permission to use Bash with command rm -rf / has been denied.", true),
      expected: { commands: [] },
    },
    {
      name: "Claude Code: the user's 'no' to a command",
      entries: turn(
        "c1",
        "Bash",
        { command: "git push --force" },
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
        true,
      ),
      expected: { commands: [] },
    },
    {
      name: "Claude Code: a success that prints 'Exit code 5' exited 0",
      entries: turn("c1", "Bash", { command: "echo 'Exit code 5'" }, "Exit code 5"),
      expected: { commands: [["echo 'Exit code 5'", 0, false]] },
    },
    {
      name: "a timed-out run ran: no code",
      entries: turn("c1", "Bash", { command: "sleep 999" }, "Command timed out after 2m 0.0s", true),
      expected: { commands: [["sleep 999", null, false]] },
    },
    {
      name: "an edit whose text was not found changed nothing",
      entries: turn(
        "c1",
        "Edit",
        { file_path: `${CWD}/src/x.ts`, old_string: "a", new_string: "b" },
        "<tool_use_error>String to replace not found in file.</tool_use_error>",
        true,
      ),
      expected: { commands: [], modified: [] },
    },
    {
      name: "a write a permission refused changed nothing",
      entries: turn("c1", "Write", { file_path: "/etc/passwd", content: "x" }, "Permission to use Write has been denied.", true),
      expected: { commands: [], modified: [] },
    },
    {
      name: "a read of a missing file read nothing",
      entries: turn("c1", "Read", { file_path: `${CWD}/nope.ts` }, "<tool_use_error>File does not exist.</tool_use_error>", true),
      expected: { commands: [], read: [] },
    },
    {
      name: "pi: an edit that failed changed nothing",
      entries: turn("c1", "edit", { path: "src/a.ts", oldText: "x", newText: "y" }, "Could not find the exact text in src/a.ts.", true),
      expected: { commands: [], modified: [] },
    },
    {
      name: "Codex: a patch that did not apply changed nothing",
      entries: turn(
        "c1",
        "apply_patch",
        { input: patch("bad") },
        "apply_patch verification failed: Failed to find expected lines in bad/old.ts",
      ),
      expected: { commands: [], modified: [], deleted: [] },
    },
    {
      name: "Codex: a patch applied from shell argv: its files, the moved file's old name deleted",
      entries: turn("c1", "shell", { command: ["apply_patch", patch("src")] }, '{"output":"Success.","metadata":{"exit_code":0}}'),
      expected: { commands: [], modified: ["src/new.ts", "src/moved.ts"], deleted: ["src/old.ts", "src/gone.ts"] },
    },
    {
      name: "Codex: a patch applied from an exec_command heredoc, in its workdir",
      entries: turn(
        "c1",
        "exec_command",
        { cmd: `apply_patch <<'EOF'\n${patch("lib")}\nEOF\n`, workdir: "pkg" },
        unified("Process exited with code 0\n", "Success."),
      ),
      expected: { commands: [], modified: ["pkg/lib/new.ts", "pkg/lib/moved.ts"], deleted: ["pkg/lib/old.ts", "pkg/lib/gone.ts"] },
    },
    {
      name: "Codex: a heredoc patch after cd, through bash -lc",
      entries: turn(
        "c1",
        "shell",
        { command: ["bash", "-lc", `cd web && apply_patch <<"PATCH"\n${patch("ui")}\nPATCH`] },
        "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess.",
      ),
      expected: { commands: [], modified: ["web/ui/new.ts", "web/ui/moved.ts"], deleted: ["web/ui/old.ts", "web/ui/gone.ts"] },
    },
    {
      name: "Codex: a heredoc patch that exited 1 changed nothing",
      entries: turn(
        "c1",
        "exec_command",
        { cmd: `apply_patch <<'EOF'\n${patch("lib")}\nEOF` },
        unified("Process exited with code 1\n", "error: invalid hunk"),
      ),
      expected: { commands: [], modified: [], deleted: [] },
    },
    {
      name: "Codex: rm in a workdir deletes the file there",
      entries: [
        ...turn("c1", "apply_patch", { input: "*** Begin Patch\n*** Add File: pkg/notes.txt\n+x\n*** End Patch" }, "Success."),
        ...turn("c2", "exec_command", { cmd: "rm notes.txt", workdir: `${CWD}/pkg` }, unified("Process exited with code 0\n")),
      ],
      expected: { commands: [["rm notes.txt", 0, false]], modified: [], deleted: ["pkg/notes.txt"] },
    },
    {
      name: "Codex: a local shell call's working_directory is its workdir",
      entries: [
        ...turn("c1", "write", { path: "tmp/x.log", content: "x" }, "ok"),
        ...turn(
          "c2",
          "local_shell_call",
          { type: "exec", command: ["rm", "x.log"], working_directory: `${CWD}/tmp` },
          '{"output":"","metadata":{"exit_code":0}}',
        ),
      ],
      expected: { commands: [["rm x.log", 0, false]], modified: [], deleted: ["tmp/x.log"] },
    },
    {
      name: "a call never answered: no code, its edit counted as asked",
      entries: [assistant([call("c1", "write", { path: "a.ts", content: "x" }), call("c2", "bash", { command: "npm test" })], "toolUse")],
      expected: { commands: [["npm test", null, false]], modified: ["a.ts"], offlineRuns: [] },
    },
  ])("$name", ({ entries, expected }) => {
    const { facts, notes } = outcomes(entries);
    const commands = facts.commands.map((run): [string, number | null, boolean] => [run.command, run.exitCode, run.failed]);
    expect(commands).toEqual(expected.commands);
    // The offline engine judged the same runs the same way.
    expect(notes.runs.map((run): [string, number | null, boolean] => [run.command, run.exitCode, run.failed])).toEqual(
      expected.offlineRuns ?? expected.commands,
    );
    if (expected.modified) expect(facts.filesModified).toEqual(expected.modified);
    if (expected.deleted) expect(facts.filesDeleted).toEqual(expected.deleted);
    if (expected.read) expect(facts.filesRead).toEqual(expected.read);
    // Every file the offline engine saw changed is one Session Facts lists as changed.
    const changed = new Set([...facts.filesModified, ...facts.filesDeleted]);
    for (const edit of notes.edits) expect(changed.has(normalizePath(edit.text, CWD))).toBe(true);
  });

  test("a refused or failed call is still shown where the work stopped, with the agent's words", () => {
    const { notes } = outcomes(
      turn("c1", "Bash", { command: "rm -rf /" }, "Permission to use Bash with command rm -rf / has been denied.", true),
    );
    expect(notes.exchanges).toEqual([]);
    const steps = extractNotes(
      analyzeBranch(
        parseSession(
          session(
            [
              { type: "message", message: { role: "user", content: "Clean up.", timestamp: 1 } },
              ...turn("c1", "Bash", { command: "rm -rf /" }, "Permission to use Bash with command rm -rf / has been denied.", true),
            ],
            CWD,
          ),
        ),
      ).context,
    ).exchanges[0]?.steps;
    expect(steps?.map((step) => [step.label, step.run, step.error])).toEqual([
      ["rm -rf /", undefined, "Permission to use Bash with command rm -rf / has been denied."],
    ]);
  });
});
