import { describe, expect, test } from "bun:test";
import { assistant, call, offline, result, shell, text, user, type Record } from "./session.testing.ts";

/**
 * A step of the work (a push, a publish, a commit) is done only on evidence: its command exited
 * 0, or its output proves the step happened. A command with no exit code (the user interrupted
 * it, it still ran in the background, no result was recorded) proves nothing: the document says
 * the step is not known to have happened and asks the next session to check, wherever it would
 * otherwise have called it done.
 */

/** A tool result whose reader stated that there is no exit code (Claude Code: interrupted, or sent to the background). */
function noCode(id: string, command: string, output = ""): Record[] {
  return [
    assistant([call(id, "bash", { command })], "toolUse"),
    {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: id,
        toolName: "bash",
        content: [{ type: "text", text: output }],
        isError: false,
        exitCode: null,
        timestamp: 1,
      },
    },
  ];
}

/** Codex's unified exec: a command still running when its call returned, under session `n`. */
function stillRunning(id: string, command: string, session: number): Record[] {
  const header = `Chunk ID: 1a\nWall time: 10.0000 seconds\nProcess running with session ID ${session}\nOriginal token count: 3\nOutput:\n`;
  return [assistant([call(id, "exec_command", { cmd: command })], "toolUse"), result(id, "exec_command", header)];
}

function polled(id: string, session: number, code: number, output: string): Record[] {
  const header = `Chunk ID: 2b\nWall time: 1.0000 seconds\nProcess exited with code ${code}\nOriginal token count: 3\nOutput:\n${output}`;
  return [assistant([call(id, "write_stdin", { session_id: session, chars: "" })], "toolUse"), result(id, "write_stdin", header)];
}

const ended = (words: string): Record => assistant([text(words)]);

interface Case {
  name: string;
  entries: Record[];
  /** The step the document must say is not known to have happened, or undefined when none is. */
  unknown: string | undefined;
  /** What the document must call done ("push main"), if anything. */
  done: string | undefined;
}

const CASES: Case[] = [
  {
    name: "a push interrupted before any output",
    entries: [user("Push it to main."), ...noCode("c1", "git push --force origin main"), ended("I stopped there.")],
    unknown: "the push step (`git push --force origin main`)",
    done: undefined,
  },
  {
    name: "a publish sent to the background, no notification yet",
    entries: [user("Publish the package."), ...noCode("c1", "npm publish"), ended("Publishing in the background.")],
    unknown: "the publish step (`npm publish`)",
    done: undefined,
  },
  {
    name: "a Codex publish still running when the session ended",
    entries: [user("Publish the package."), ...stillRunning("c1", "npm publish", 7), ended("It is publishing.")],
    unknown: "the publish step (`npm publish`)",
    done: undefined,
  },
  {
    name: "an interrupted push whose output proves it went through",
    entries: [user("Push it to main."), ...noCode("c1", "git push origin main", "   8d1e0b7..4f2a9c1  main -> main"), ended("Pushed.")],
    unknown: undefined,
    done: "push main",
  },
  {
    name: "an interrupted commit whose output proves it was made",
    entries: [user("Commit the fix."), ...noCode("c1", 'git commit -am "fix"', "[main 4f2a9c1] fix"), ended("Committed.")],
    unknown: undefined,
    done: 'commit 4f2a9c1 "fix" on main',
  },
  {
    name: "a Codex publish whose poll says it exited 0",
    entries: [
      user("Publish the package."),
      ...stillRunning("c1", "npm publish", 7),
      ...polled("c2", 7, 0, "+ tinyfetch@2.3.0"),
      ended("Published."),
    ],
    unknown: undefined,
    done: "publish tinyfetch@2.3.0",
  },
  {
    name: "an interrupted push, then the same push again with exit 0",
    entries: [
      user("Push it to main."),
      ...noCode("c1", "git push origin main"),
      ...shell("c2", "git push origin main", "   8d1e0b7..4f2a9c1  main -> main"),
      ended("Pushed."),
    ],
    unknown: undefined,
    done: "push main",
  },
  {
    name: "an interrupted push of main, then a push of a tag: main is still not known to be pushed",
    entries: [
      user("Push main and the tag."),
      ...noCode("c1", "git push origin main"),
      ...shell("c2", "git push origin v1.2.0", " * [new tag]         v1.2.0 -> v1.2.0"),
      ended("Pushed the tag."),
    ],
    unknown: "the push step (`git push origin main`)",
    done: "push v1.2.0",
  },
  {
    name: "an interrupted publish, then a dry run: the publish is still not known to have happened",
    entries: [
      user("Publish the package."),
      ...noCode("c1", "npm publish"),
      ...shell("c2", "npm publish --dry-run", "+ tinyfetch@2.3.0"),
      ended("The dry run passed."),
    ],
    unknown: "the publish step (`npm publish`)",
    done: undefined,
  },
  {
    name: "an interrupted push, then a push that failed: the failure is what stands",
    entries: [
      user("Push it to main."),
      ...noCode("c1", "git push origin main"),
      ...shell("c2", "git push origin main", "error: failed to push some refs", 1),
      ended("The push was rejected."),
    ],
    unknown: undefined,
    done: undefined,
  },
];

describe("a step with no exit code is not done unless its output proves it", () => {
  test.each(CASES)("$name", ({ entries, unknown, done }) => {
    const document = offline(entries);
    const where = document.split("\n").find((line) => line.startsWith("- Where it stands:")) ?? "";
    if (unknown === undefined) {
      expect(document).not.toContain("has no result recorded");
      expect(document).not.toContain("Check whether the");
    } else {
      expect(where).toContain(`${unknown} has no result recorded (interrupted, or still running), so it is not known to have happened`);
      if (done === undefined) expect(where).not.toContain(" done");
      expect(document).toContain(`- Not known to be done: ${unknown} has no result recorded`);
      expect(document).toContain("but a step has no result recorded (see Pending)");
      expect(document).not.toContain("The recorded work is finished");
      expect(document).not.toContain("everything asked was reported done");
      expect(document).toMatch(/\n1\. Check whether the (push|publish) step happened before going on \(no result was recorded\): `/);
      if (done === undefined) expect(document).not.toContain("From the command results");
    }
    if (done === undefined) expect(where).not.toContain(" done");
    else {
      expect(where).toContain(`${done} done`);
      expect(document).toContain(`- From the command results, in order: ${done}`);
    }
  });
});
