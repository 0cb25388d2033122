import { describe, expect, test } from "bun:test";
import { assistant, bash, call, toolResult } from "../../fixtures/sessions/builders.ts";
import { factsOf, toolTurn } from "../../fixtures/sessions/facts-of.ts";

describe("files read and modified", () => {
  test.each([
    { name: "read", args: { path: "a.ts" }, read: ["a.ts"], modified: [] },
    { name: "Read", args: { file_path: "a.ts" }, read: ["a.ts"], modified: [] },
    { name: "read_file", args: { filePath: "a.ts" }, read: ["a.ts"], modified: [] },
    { name: "write", args: { path: "b.ts", content: "x" }, read: [], modified: ["b.ts"] },
    { name: "edit", args: { path: "b.ts", oldText: "x", newText: "y" }, read: [], modified: ["b.ts"] },
    { name: "multi_edit", args: { file_path: "b.ts", edits: [] }, read: [], modified: ["b.ts"] },
    { name: "grep", args: { path: "src", pattern: "x" }, read: [], modified: [] },
    { name: "read", args: { offset: 3 }, read: [], modified: [] },
    { name: "read", args: "not an object", read: [], modified: [] },
  ])("$name with $args", ({ name, args, read, modified }) => {
    const facts = factsOf([
      assistant(1, [{ type: "toolCall", id: "c1", name, arguments: args }], "toolUse"),
      toolResult(2, "c1", name, "ok"),
    ]);
    expect({ read: facts.filesRead, modified: facts.filesModified }).toEqual({ read: [...read], modified: [...modified] });
  });

  test("each file is listed once, in the order first seen", () => {
    const facts = factsOf([...toolTurn("read", { path: "b" }), ...toolTurn("read", { path: "a" }), ...toolTurn("read", { path: "b" })]);
    expect(facts.filesRead).toEqual(["b", "a"]);
  });

  test("a compaction's details keep the files of the part it summarised", () => {
    const facts = factsOf([
      {
        type: "compaction",
        summary: "S",
        firstKeptEntryId: "x",
        tokensBefore: 1,
        details: { readFiles: ["r.md", 7], modifiedFiles: ["m.ts"] },
      },
    ]);
    expect({ read: facts.filesRead, modified: facts.filesModified }).toEqual({ read: ["r.md"], modified: ["m.ts"] });
  });

  test.each([
    {
      name: "a folder removed with rm -rf after a file in it was written",
      turns: [
        ...toolTurn("write", { path: "db/migrations/001_init.sql", content: "x" }),
        ...toolTurn("bash", { command: "rm -rf db/migrations" }, "(no output)"),
      ],
      modified: [],
      deleted: ["db/migrations/001_init.sql"],
    },
    {
      name: "an rm that failed deleted nothing",
      turns: [
        ...toolTurn("write", { path: "a.ts", content: "x" }),
        ...toolTurn("bash", { command: "rm a.ts" }, "rm: a.ts: Permission denied\n\nCommand exited with code 1", true),
      ],
      modified: ["a.ts"],
      deleted: [],
    },
    {
      name: "the user's own ! rm",
      turns: [...toolTurn("write", { path: "a.ts", content: "x" }), bash(9, "rm a.ts", "", 0)],
      modified: [],
      deleted: ["a.ts"],
    },
    {
      name: "git rm of a file never touched",
      turns: toolTurn("bash", { command: "git rm src/legacy.ts" }, "rm 'src/legacy.ts'"),
      modified: [],
      deleted: ["src/legacy.ts"],
    },
    {
      name: "a Codex patch that deletes a file",
      turns: toolTurn("apply_patch", { input: "*** Begin Patch\n*** Delete File: src/old.ts\n*** Update File: src/new.ts\n*** End Patch" }),
      modified: ["src/new.ts"],
      deleted: ["src/old.ts"],
    },
    {
      name: "a file written again after rm",
      turns: [
        ...toolTurn("write", { path: "a.ts", content: "x" }),
        ...toolTurn("bash", { command: "rm a.ts" }),
        ...toolTurn("write", { path: "a.ts", content: "y" }),
      ],
      modified: ["a.ts"],
      deleted: [],
    },
    {
      name: "sed -i through the shell tool (how Codex fixes a file)",
      turns: toolTurn(
        "exec_command",
        { cmd: "sed -i 's/wrold/world/' src/greet.txt" },
        // Codex 0.169's header, as a real rollout has it.
        "Chunk ID: 187f6a\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 0\nOutput:\n",
      ),
      modified: ["src/greet.txt"],
      deleted: [],
    },
    {
      name: "a sed -i that failed changed nothing",
      turns: toolTurn("bash", { command: "sed -i 's/a/b/' nope.txt" }, "sed: can't read nope.txt\n\nCommand exited with code 2", true),
      modified: [],
      deleted: [],
    },
    {
      name: "a redirection, tee and mv",
      turns: [
        ...toolTurn("bash", { command: "echo x > out.txt && printf y | tee -a log.txt" }),
        ...toolTurn("bash", { command: "mv out.txt done.txt" }),
      ],
      modified: ["log.txt", "done.txt"],
      deleted: ["out.txt"],
    },
    {
      name: "the user's own ! perl -pi",
      turns: [bash(9, "perl -pi -e 's/a/b/' conf.ini", "", 0)],
      modified: ["conf.ini"],
      deleted: [],
    },
    // The same line run again is read again at its place: each run's files count where it ran.
    {
      name: "one line run three times, an rm between the first two",
      turns: [
        ...toolTurn("bash", { command: "echo x > out.txt" }),
        ...toolTurn("bash", { command: "rm out.txt" }),
        ...toolTurn("bash", { command: "echo x > out.txt" }),
        ...toolTurn("bash", { command: "echo x > out.txt" }),
      ],
      modified: ["out.txt"],
      deleted: [],
    },
    {
      name: "one line run twice, the second run failed, then an rm",
      turns: [
        ...toolTurn("bash", { command: "mv a.txt b.txt" }),
        ...toolTurn("bash", { command: "mv a.txt b.txt" }, "mv: a.txt: No such file\n\nCommand exited with code 1", true),
        ...toolTurn("bash", { command: "rm b.txt" }),
      ],
      modified: [],
      deleted: ["a.txt", "b.txt"],
    },
    {
      name: "one line run by the agent and by the user",
      turns: [...toolTurn("bash", { command: "rm a.txt && echo y > a.txt" }), bash(9, "rm a.txt && echo y > a.txt", "", 0)],
      modified: ["a.txt"],
      deleted: [],
    },
  ])("files changed and deleted, tools and shell commands alike: $name", ({ turns, modified, deleted }) => {
    const facts = factsOf(turns);
    expect({ modified: facts.filesModified, deleted: facts.filesDeleted }).toEqual({ modified: [...modified], deleted: [...deleted] });
  });

  test("an edit in an aborted turn never ran, so it modified nothing", () => {
    const facts = factsOf([
      assistant(
        1,
        [call("c1", "edit", { path: "x.ts", oldText: "a", newText: "b" }), call("c2", "bash", { command: "rm -rf dist" })],
        "aborted",
      ),
      toolResult(2, "c1", "edit", "Operation aborted", true),
    ]);
    expect(facts.filesModified).toEqual([]);
    expect(facts.commands).toEqual([]);
  });
});
