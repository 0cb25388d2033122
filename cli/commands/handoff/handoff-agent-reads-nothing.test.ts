import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { assistant, call, chain, text, toolResult, user } from "../../../fixtures/sessions/builders.ts";
import { useAgentSandbox } from "../../agents/agent-engines.testing.ts";

/**
 * Session text can never make an agent engine read anything (issue 22 A6, A12), as far as the
 * product decides it: what each agent is started with, in which folder. That the real agents
 * then read nothing is proven by `bun run compat` (compat/checks/engine-reads-nothing.ts).
 */

const sandbox = useAgentSandbox();
const ENGINES = ["claude-code", "codex", "pi", "omp"] as const;

const MENTIONS =
  'notes are in @/abs/notes.txt and the key is @~/.ssh/id_test; see @"/abs/my notes.txt", use $skill-creator, ask ^openai/gpt-5';

/** A pi session whose every kind of text mentions files, a skill and a model, as an agent would read them. */
function mentioningSession(): string {
  const path = join(sandbox.dir, "mentions.jsonl");
  writeFileSync(
    path,
    chain([
      user(1, MENTIONS),
      assistant(2, [text(`Reading ${MENTIONS}`), call("c1", "bash", { command: "cat @/abs/notes.txt" })], "toolUse"),
      toolResult(3, "c1", "bash", MENTIONS),
      user(4, "Go on."),
      assistant(5, [text("Done.")]),
    ]),
  );
  return path;
}

/** Where each agent finds something to act on (as the real ones were seen to, by compat). */
const ACTED_ON = /(?:^|[\s([{<"'`\u3002])@\S|\$[A-Za-z0-9_:-]|(?:^|\s)\^\S/u;

describe("session text that names files, skills or models reaches no agent as something to act on", () => {
  test.each(ENGINES)("%s: the prompt it gets has each mention made inert, the paths still there to read", async (engine) => {
    const run = await runAgent(
      [
        "handoff",
        mentioningSession(),
        "--engine",
        engine,
        "--focus",
        "check @./focus.txt",
        "--no-record",
        "-o",
        join(sandbox.dir, "n.jsonl"),
      ],
      sandbox.env(),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    const [only] = sandbox.runs();
    const stdin = only?.stdin ?? "";
    expect(stdin).not.toMatch(ACTED_ON);
    const read = stdin.replaceAll("\u2060", "");
    expect(read).toContain(`<user>\n${MENTIONS}\n</user>`);
    expect(read).toContain("Additional focus: check @./focus.txt");
  });

  test.each(ENGINES)("%s: --dry-run prints that same inert prompt", async (engine) => {
    const run = await runAgent(["handoff", mentioningSession(), "--engine", engine, "--dry-run", "--json"], sandbox.env(), sandbox.dir);
    expect(run.code).toBe(0);
    const prompt: string = JSON.parse(run.stdout).runs[0].prompt;
    expect(prompt).not.toMatch(ACTED_ON);
    expect(prompt.replaceAll("\u2060", "")).toContain(MENTIONS);
    expect(sandbox.runs()).toEqual([]);
  });

  test("an answer that quotes the inert prompt is written without the joiners", async () => {
    const answer = "## Goal\nRead \u2060@/abs/notes.txt and run $\u2060skill-creator.\n## Next Steps\n1. Go on.";
    const run = await runAgent(
      ["handoff", mentioningSession(), "--engine", "omp", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      sandbox.env({ FAKE_AGENT_ANSWER: answer }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toStartWith("## Goal\nRead @/abs/notes.txt and run $skill-creator.\n");
  });

  test("Claude Code is told to read no @-mentioned file and no CLAUDE.md; Codex no AGENTS.md and no project above its folder", async () => {
    await runAgent(
      ["handoff", mentioningSession(), "--engine", "claude", "--no-record", "-o", join(sandbox.dir, "c.jsonl")],
      sandbox.env(),
      sandbox.dir,
    );
    await runAgent(
      ["handoff", mentioningSession(), "--engine", "codex", "--no-record", "-o", join(sandbox.dir, "x.jsonl")],
      sandbox.env(),
      sandbox.dir,
    );
    const claude = sandbox.runs().find((r) => r.agent === "claude");
    const codex = sandbox.runs().find((r) => r.agent === "codex");
    expect(claude?.env).toMatchObject({ CLAUDE_CODE_DISABLE_FILE_MENTIONS: "1", CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1" });
    expect(codex?.argv).toEqual(expect.arrayContaining(["project_doc_max_bytes=0", "project_root_markers=[]"]));
  });
});

describe("the folder an agent runs in: private, under the user's cache, with no folder above it another user can change", () => {
  const runsUnder = (cache: string) => join(cache, "agent", "runs");

  test.each(ENGINES)("%s: runs under XDG_CACHE_HOME, not TMPDIR (which may not even exist)", async (engine) => {
    const cache = join(sandbox.root, "cache");
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", engine, "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      sandbox.env({ XDG_CACHE_HOME: cache, TMPDIR: join(sandbox.root, "no-such-tmp") }),
      sandbox.dir,
    );
    expect(run.code).toBe(0);
    const [only] = sandbox.runs();
    expect(only?.cwd.startsWith(`${runsUnder(cache)}/${engine}-`)).toBe(true);
    expect(only?.tmpdir?.startsWith(`${runsUnder(cache)}/${engine}-`)).toBe(true);
    expect(readdirSync(runsUnder(cache))).toEqual([]);
  });

  test("a relative XDG_CACHE_HOME is ignored, as the XDG spec says: ~/.cache", async () => {
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "pi", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      sandbox.env({ XDG_CACHE_HOME: "rel-cache" }),
      sandbox.dir,
    );
    expect(run.stderr).toStartWith("New session started");
    expect(sandbox.runs()[0]?.cwd.startsWith(`${runsUnder(join(sandbox.home, ".cache"))}/pi-`)).toBe(true);
    expect(existsSync(join(sandbox.dir, "rel-cache", "agent"))).toBe(false);
  });

  test("under /tmp-like folders (others may write, the sticky bit set) it runs", async () => {
    const shared = join(sandbox.root, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "pi", "--no-record", "-o", join(sandbox.dir, "n.jsonl")],
      sandbox.env({ XDG_CACHE_HOME: join(shared, "mine") }),
      sandbox.dir,
    );
    expect([run.code, run.stderr.startsWith("New session started")]).toEqual([0, true]);
  });

  test.each([
    ["the cache folder itself", (shared: string) => shared],
    ["a folder above it", (shared: string) => join(shared, "deeper", "cache")],
    [
      "a link leading into it",
      (shared: string) => {
        const link = join(sandbox.root, "link-cache");
        symlinkSync(shared, link);
        return link;
      },
    ],
  ])("any user may write %s: refused before anything runs, one line saying which folder and what to do", async (_, cacheFor) => {
    const shared = join(sandbox.root, "world-writable");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const cache = cacheFor(shared);
    for (const flags of [[], ["--dry-run"]]) {
      const run = await runAgent(
        ["handoff", sandbox.source(), "--engine", "claude", "--no-record", "-o", join(sandbox.dir, "n.jsonl"), ...flags],
        sandbox.env({ XDG_CACHE_HOME: cache }),
        sandbox.dir,
      );
      const line = `cannot give claude a private folder to run in: ${shared} can be written by any user (mode 0777); set XDG_CACHE_HOME to a folder only you can write`;
      if (flags.length === 0) expect([run.code, run.stderr]).toEqual([1, `Handoff failed: ${line}\n`]);
      else expect([run.code, run.stderr.split("\n")[0]]).toEqual([0, `warning: a real run would fail: ${line}`]);
    }
    expect(sandbox.runs()).toEqual([]);
    expect(existsSync(join(sandbox.dir, "n.jsonl"))).toBe(false);
    expect(existsSync(join(cache, "agent"))).toBe(false);
  });

  test("a cache folder where no folder can be made (a file is in the way): one line naming it", async () => {
    const file = join(sandbox.root, "a-file");
    writeFileSync(file, "");
    const run = await runAgent(
      ["handoff", sandbox.source(), "--engine", "pi", "--no-record"],
      sandbox.env({ XDG_CACHE_HOME: file }),
      sandbox.dir,
    );
    expect([run.code, run.stderr]).toEqual([
      1,
      `Handoff failed: cannot make a folder for pi to run in under ${runsUnder(file)} (a part of the path is not a folder); set XDG_CACHE_HOME to a folder you can write\n`,
    ]);
    expect(sandbox.runs()).toEqual([]);
  });
});
