import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO, runAgent } from "../../fixtures/run-agent.ts";
import { handoffs, homeWith, ID, input, markFile, runSteps, testRoot, type Step } from "./hook-before-compact.testing.ts";

/**
 * `agent hook claude-code --before-compact` (Claude Code's PreCompact on `auto`) and the end of a
 * turn that names what it wrote: at most one handoff session per compaction, however often Claude
 * Code calls the hook without compacting (core/agent-run/integration/before-compact.ts).
 */

const root = testRoot("hook-before-compact");

const SCENARIOS: Record<string, Step[]> = {
  "the first PreCompact writes; the end of a turn names it once the source compacted, and only once": [
    { pre: 1 },
    { stop: "nothing" },
    "compact",
    { stop: { names: [1] } },
    { stop: "nothing" },
  ],
  "a PreCompact again with no compaction since writes nothing, and nothing is named twice": [
    { pre: 1 },
    { turn: 6000 },
    { pre: 1 },
    { pre: 1 },
    "compact",
    { stop: { names: [1] } },
    { stop: "nothing" },
  ],
  "after a compaction a new PreCompact writes again, and that one is named": [
    { pre: 1 },
    "compact",
    { stop: { names: [1] } },
    { turn: 6000 },
    { pre: 2 },
    { pre: 2 },
    "compact",
    { stop: { names: [2] } },
    { stop: "nothing" },
  ],
  "a compaction no end of a turn saw (written after its Stop): the next PreCompact writes, and both are named once": [
    { pre: 1 },
    "compact",
    { turn: 6000 },
    { pre: 2 },
    { stop: { names: [1] } },
    "compact",
    { stop: { names: [2] } },
    { stop: "nothing" },
  ],
  "the same, with the second compaction in before the end of a turn: both named in one notice": [
    { pre: 1 },
    "compact",
    { pre: 2 },
    "compact",
    { stop: { names: [1, 2] } },
    { stop: "nothing" },
  ],
  "a failed handoff leaves nothing that blocks the next try": [
    { pre: 0, engine: "failing" },
    { stop: { startsWith: "Before compacting, agent could not write a handoff session: " } },
    { pre: 1 },
    "compact",
    { stop: { names: [1] } },
  ],
  "two sessions do not share the guard": [{ pre: 1 }, { pre: 2, session: "other" }, { pre: 2 }, { pre: 2, session: "other" }],
  "the context grew by a tenth of the window with no compaction: written afresh; by less: kept": [
    { turn: 10_000 },
    { pre: 1 },
    { turn: 29_000 },
    { pre: 1 },
    { turn: 30_000 },
    { pre: 2 },
    "compact",
    { stop: { names: [2] } },
  ],
  "the handoff session was deleted: the next PreCompact writes it again": [{ pre: 1 }, "delete-handoffs", { pre: 1 }],
  "the source was replaced by a smaller file: the next PreCompact writes again": [{ turn: 6000 }, { pre: 1 }, "replace-source", { pre: 2 }],
  "a damaged state file: one line at the end of a turn, and the next PreCompact starts anew": [
    { pre: 1 },
    "damage",
    { stop: { startsWith: "agent handoff: the state file " } },
    { pre: 2 },
    "compact",
    { stop: { names: [2] } },
  ],
  "a damaged state file seen first by a PreCompact: it writes anew and the end of a turn says so": [
    { pre: 1 },
    "damage",
    { pre: 2 },
    { stop: { startsWith: "agent handoff: the state file " } },
  ],
};

describe("agent hook claude-code --before-compact: one handoff per compaction", () => {
  for (const [name, steps] of Object.entries(SCENARIOS)) test(name, () => runSteps(root, steps));

  test("the handoff written before a compaction holds the document of the source", async () => {
    const { path, env } = homeWith(root);
    await runAgent(["hook", "claude-code", "--before-compact"], env, REPO, input(path, ID, "PreCompact"));
    const [made] = handoffs(path);
    expect(readFileSync(join(dirname(path), made ?? ""), "utf8")).toContain("<handoff-context>");
  });

  test("manual (/compact): nothing is written, nothing is remembered", async () => {
    const { home, path, env } = homeWith(root);
    const run = await runAgent(["hook", "claude-code", "--before-compact"], env, REPO, input(path, ID, "PreCompact", "manual"));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(handoffs(path)).toEqual([]);
    expect(() => readFileSync(markFile(home))).toThrow();
  });

  test("a bad config file: nothing printed, exit 0 (a block would stop the compaction)", async () => {
    const { home, path, env } = homeWith(root);
    mkdirSync(join(home, ".config/agent"), { recursive: true });
    writeFileSync(join(home, ".config/agent/config.toml"), 'hook-engine = "auto"\n');
    const run = await runAgent(["hook", "claude-code", "--before-compact"], env, REPO, input(path, ID, "PreCompact"));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});
