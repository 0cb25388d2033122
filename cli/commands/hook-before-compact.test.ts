import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

/**
 * `agent hook claude-code --before-compact` (Claude Code's PreCompact on `auto`) and the end of a
 * turn that names what it wrote: at most one handoff session per compaction, however often Claude
 * Code calls the hook without compacting (core/agent-run/integration/before-compact.ts).
 */

const root = mkdtempSync(join(tmpdir(), "agent-hook-before-compact-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "6c1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
const OTHER = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const CWD = join(root, "project");
mkdirSync(CWD);
const bytes = (text: string) => new TextEncoder().encode(text);

let homes = 0;
function homeWith(extra: Record<string, string> = {}) {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home);
  const plant = (id: string) =>
    plantSession({ home, env: {}, tmpdir: tmpdir(), runFolder: CWD }, { agent: "claude-code", id, cwd: CWD, mtime: 1_764_000_000 });
  const path = plant(ID);
  const env = cleanEnv(home, { PATH: "/nonexistent", AGENT_HOOK_ENGINE: "offline", ...extra });
  return { home, path, other: plant(OTHER), env };
}

function input(path: string, id: string, event: "PreCompact" | "Stop", trigger = "auto"): Uint8Array {
  const extra = event === "PreCompact" ? { trigger, custom_instructions: "" } : { stop_hook_active: false };
  return bytes(JSON.stringify({ session_id: id, transcript_path: path, cwd: CWD, hook_event_name: event, ...extra }));
}

let uuids = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++uuids).padStart(12, "0")}`;

function lastUuid(path: string): string | null {
  const lines = readFileSync(path, "utf8").trim().split("\n").reverse();
  for (const line of lines) {
    const id = (JSON.parse(line) as { uuid?: unknown }).uuid;
    if (typeof id === "string") return id;
  }
  return null;
}

/** What Claude Code appends for one more turn: the prompt and an answer whose context is `tokens`. */
function turn(path: string, tokens: number): void {
  const [prompt, answer] = [uuid(), uuid()];
  const base = { isSidechain: false, sessionId: ID, cwd: CWD, timestamp: "2026-11-30T15:00:00.000Z", userType: "external" };
  const lines = [
    { ...base, type: "user", uuid: prompt, parentUuid: lastUuid(path), message: { role: "user", content: `COMPAT-TURN at ${tokens}` } },
    {
      ...base,
      type: "assistant",
      uuid: answer,
      parentUuid: prompt,
      message: {
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: "carrying on" }],
        usage: { input_tokens: 4, cache_read_input_tokens: tokens - 4, output_tokens: 50 },
      },
    },
  ];
  appendFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
}

/** What Claude Code appends when it compacts: the boundary and the summary after it. */
function compact(path: string): void {
  const boundary = uuid();
  const base = { isSidechain: false, sessionId: ID, cwd: CWD, timestamp: "2026-11-30T15:00:01.000Z", userType: "external" };
  const lines = [
    {
      ...base,
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      uuid: boundary,
      parentUuid: null,
      logicalParentUuid: lastUuid(path),
      compactMetadata: { trigger: "auto", preTokens: 5000 },
    },
    {
      ...base,
      type: "user",
      uuid: uuid(),
      parentUuid: boundary,
      isCompactSummary: true,
      message: { role: "user", content: "COMPAT-SUMMARY: the summary." },
    },
  ];
  appendFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
}

function handoffs(path: string): string[] {
  return readdirSync(dirname(path))
    .filter((name) => name.endsWith(".jsonl") && !name.startsWith(ID) && !name.startsWith(OTHER))
    .sort();
}

const markFile = (home: string, id = ID) => join(home, ".local/state/agent/offers", `claude-code-${id}.before-compact`);
const named = (id: string, file: string) =>
  `Before compacting, agent wrote a handoff session ${id} (${file}): type /resume ${id} to continue there instead of from the summary.`;

/**
 * One step of a scenario and what it must show. `pre`: a PreCompact (nothing printed, exit 0)
 * after which `handoffs` sessions exist; `stop`: an end of a turn, and the line it shows: the
 * handoff it names (by its place among those written), or a line starting with a text, or nothing.
 */
type Step =
  | { pre: number; session?: "other"; engine?: "failing" }
  | { stop: { names: number[] } | { startsWith: string } | "nothing" }
  | { turn: number }
  | "compact"
  | "damage"
  | "delete-handoffs"
  | "replace-source";

const FAILING = { AGENT_HOOK_ENGINE: "llm", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", AGENT_MODEL: "m" };

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
  for (const [name, steps] of Object.entries(SCENARIOS))
    test(name, async () => {
      const { home, path, other, env } = homeWith();
      const planted = readFileSync(path, "utf8");
      const source = { [ID]: path, [OTHER]: other };
      const sourceText = () => readFileSync(path, "utf8");
      // The handoff sessions in the order they were written.
      const written: string[] = [];
      for (const [at, step] of steps.entries()) {
        const where = `step ${at + 1} (${JSON.stringify(step)})`;
        if (step === "compact") compact(path);
        else if (step === "damage") writeFileSync(markFile(home), "{not json");
        else if (step === "replace-source") writeFileSync(path, planted);
        else if (step === "delete-handoffs") for (const file of handoffs(path)) rmSync(join(dirname(path), file));
        else if ("turn" in step) turn(path, step.turn);
        else if ("pre" in step) {
          const id = step.session === "other" ? OTHER : ID;
          const before = sourceText();
          const run = await runAgent(
            ["hook", "claude-code", "--before-compact"],
            step.engine === "failing" ? { ...env, ...FAILING } : env,
            REPO,
            input(source[id] ?? "", id, "PreCompact"),
          );
          // A PreCompact's stdout goes into the compaction prompt: nothing, ever; and the source is left as it was.
          expect({ where, run }).toEqual({ where, run: { code: 0, stdout: "", stderr: "" } });
          expect(sourceText()).toBe(before);
          expect({ where, handoffs: handoffs(path).length }).toEqual({ where, handoffs: step.pre });
          written.push(...handoffs(path).filter((file) => !written.includes(file)));
        } else {
          const run = await runAgent(["hook", "claude-code", "--stop"], env, REPO, input(path, ID, "Stop"));
          expect(run.code).toBe(0);
          const line = run.stdout === "" ? undefined : (JSON.parse(run.stdout) as { systemMessage: string }).systemMessage;
          if (step.stop === "nothing") expect({ where, line }).toEqual({ where, line: undefined });
          else if ("startsWith" in step.stop) expect(line ?? "").toStartWith(step.stop.startsWith);
          else {
            const lines = step.stop.names.map((place) => {
              const file = written[place - 1] ?? "(not written)";
              return named(file.replace(/\.jsonl$/, ""), join(dirname(path), file));
            });
            expect({ where, line }).toEqual({ where, line: lines.join("\n") });
          }
        }
      }
    });

  test("the handoff written before a compaction holds the document of the source", async () => {
    const { path, env } = homeWith();
    await runAgent(["hook", "claude-code", "--before-compact"], env, REPO, input(path, ID, "PreCompact"));
    const [made] = handoffs(path);
    expect(readFileSync(join(dirname(path), made ?? ""), "utf8")).toContain("<handoff-context>");
  });

  test("manual (/compact): nothing is written, nothing is remembered", async () => {
    const { home, path, env } = homeWith();
    const run = await runAgent(["hook", "claude-code", "--before-compact"], env, REPO, input(path, ID, "PreCompact", "manual"));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(handoffs(path)).toEqual([]);
    expect(() => readFileSync(markFile(home))).toThrow();
  });

  test("a bad config file: nothing printed, exit 0 (a block would stop the compaction)", async () => {
    const { home, path, env } = homeWith();
    mkdirSync(join(home, ".config/agent"), { recursive: true });
    writeFileSync(join(home, ".config/agent/config.toml"), 'hook-engine = "auto"\n');
    const run = await runAgent(["hook", "claude-code", "--before-compact"], env, REPO, input(path, ID, "PreCompact"));
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});
