import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { REPO } from "../../fixtures/run-agent.ts";
import { handoffs, homeWith, ID, input, runSteps, testRoot, type Step } from "./hook-before-compact.testing.ts";

/**
 * `agent hook claude-code --before-compact` against what a hostile or unlucky user's machine holds:
 * calls at once, a lock left behind, state files that are not ours, a state folder that cannot be
 * written, a source replaced behind the hook's back, a handoff deleted before it is named, and
 * calls that name no session of Claude Code's. Each step checks what the user sees (nothing printed
 * by a PreCompact, exit 0, the number of handoff sessions, the end of a turn's line).
 */

const root = testRoot("hook-before-compact-hostile");
const UNREADABLE = "agent handoff: the state file ";

const SCENARIOS: Record<string, Step[]> = {
  "two PreCompacts at once: one handoff, named once": [{ pre: 1, calls: 2 }, "compact", { stop: { names: [1] } }, { stop: "nothing" }],
  "three at once after a compaction: one more, not three": [
    { pre: 1 },
    "compact",
    { stop: { names: [1] } },
    { turn: 6000 },
    { pre: 2, calls: 3 },
  ],
  "a live hook holds the lock: a PreCompact writes nothing, an end of a turn names nothing until it is gone": [
    { pre: 1 },
    "compact",
    { lock: "live" },
    { pre: 1 },
    { stop: "nothing" },
    { lock: "none" },
    { stop: { names: [1] } },
  ],
  "a folder where the lock goes: no handoff, said once at the end of a turn, and all as before once it is gone": [
    { lock: "dir" },
    { pre: 0 },
    { pre: 0 },
    { stop: { startsWith: "agent handoff: " } },
    { stop: "nothing" },
    { lock: "none" },
    { pre: 1 },
    "compact",
    { stop: { names: [1] } },
  ],
  "a lock left by a hook that died: taken over": [{ lock: "dead" }, { pre: 1 }, "compact", { lock: "dead" }, { stop: { names: [1] } }],
  "a state folder that cannot be written: no handoff at all, however many calls (none could be remembered)": [
    "state-unwritable",
    { pre: 0 },
    { pre: 0 },
    { stop: "nothing" },
  ],
  "the mark is a symbolic link: not followed, said, written anew": [
    { mark: "symlink" },
    { pre: 1 },
    { stop: { startsWith: `${UNREADABLE}` } },
    { pre: 1 },
  ],
  "the mark is an empty folder: removed, said, written anew": [
    { mark: "empty-dir" },
    { pre: 1 },
    { pre: 1 },
    { stop: { startsWith: UNREADABLE } },
  ],
  "the mark is a folder with files in it: left, said, and no handoff while it stays": [
    { mark: "full-dir" },
    { pre: 0 },
    { pre: 0 },
    { stop: { startsWith: UNREADABLE } },
  ],
  "the mark is a file of 1 MB: not read, said, written anew": [
    { mark: "huge" },
    { pre: 1 },
    { pre: 1 },
    { stop: { startsWith: UNREADABLE } },
  ],
  "the mark is a named pipe: never waited on, said, written anew": [
    { mark: "fifo" },
    { pre: 1 },
    { pre: 1 },
    { stop: { startsWith: UNREADABLE } },
  ],
  "the source replaced by another file of the same size: written anew": [
    { turn: 6000 },
    { pre: 1 },
    "replace-source-same-size",
    { pre: 2 },
  ],
  "the source truncated, then grown past its old size: written anew": [{ turn: 6000 }, { pre: 1 }, "truncate-regrow", { pre: 2 }],
  "the source rotated (renamed away, a new file in its place): written anew": [{ turn: 6000 }, { pre: 1 }, "rotate-source", { pre: 2 }],
  "the source only grown: kept": [{ turn: 6000 }, { pre: 1 }, { turn: 1000 }, { turn: 1000 }, { pre: 1 }],
  "the handoff deleted by the user before the end of a turn: not named, and not later either": [
    { pre: 1 },
    "compact",
    "delete-handoffs",
    { stop: "nothing" },
    { stop: "nothing" },
  ],
  "a transcript outside Claude Code's home: nothing written, nothing said": [{ pre: 0, transcript: "outside" }, { stop: "nothing" }],
  "a session id that is a path: nothing written": [{ pre: 0, transcript: "../x" }],
  "a session id with a NUL: nothing written": [{ pre: 0, transcript: "nul" }],
  "a session id of 4,000 characters: nothing written": [{ pre: 0, transcript: "long" }],
  "lines left that were edited: the newest three, no control character reaches the screen, shown once": [
    { left: "one\ntwo\nthree\n\u001b[2Jfour\u0007\n" },
    { stop: { exactly: "two\nthree\nfour" } },
    { stop: "nothing" },
  ],
  "an end of a turn with no state folder at all: nothing": [{ stop: "nothing" }, { stop: "nothing" }],
  "another session's handoff is never named at this session's end of a turn": [
    { pre: 1, session: "other" },
    "compact",
    { stop: "nothing" },
    { pre: 2 },
    "compact",
    { stop: { names: [2] } },
  ],
  "named exactly once across many turns": [
    { pre: 1 },
    "compact",
    { stop: { names: [1] } },
    { turn: 1000 },
    { stop: "nothing" },
    { turn: 1000 },
    { stop: "nothing" },
    { turn: 1000 },
    { stop: "nothing" },
  ],
};

describe("agent hook claude-code --before-compact, attacked", () => {
  for (const [name, steps] of Object.entries(SCENARIOS)) test(name, () => runSteps(root, steps));

  test("a symbolic link at the mark's name: its target is never written", async () => {
    await runSteps(root, [{ mark: "symlink" }, { pre: 1 }, "compact", { stop: { startsWith: UNREADABLE } }]);
    expect(readFileSync(join(root, "target"), "utf8")).toBe("a file of the user's\n");
  });
});

describe("agent hook claude-code --before-compact, as separate processes (the lock is between processes)", () => {
  test("four PreCompact processes at once: one handoff session, each exits 0 and prints nothing", async () => {
    const { path, env } = homeWith(root);
    const procs = Array.from({ length: 4 }, () =>
      Bun.spawn([...CLI_ARGV, "hook", "claude-code", "--before-compact"], {
        env,
        cwd: REPO,
        stdin: input(path, ID, "PreCompact"),
        stdout: "pipe",
        stderr: "pipe",
      }),
    );
    const runs = await Promise.all(
      procs.map(async (proc) => ({
        code: await proc.exited,
        stdout: await new Response(proc.stdout).text(),
        stderr: await new Response(proc.stderr).text(),
      })),
    );
    expect(runs).toEqual(Array.from({ length: 4 }, () => ({ code: 0, stdout: "", stderr: "" })));
    expect(handoffs(path)).toHaveLength(1);
  }, 30_000);
});
