import { afterAll, expect } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

/**
 * What the tests of `agent hook claude-code --before-compact` share: a planted Claude Code home,
 * what Claude Code appends (a turn, a compaction), and scenarios of steps run in-process, each
 * checking what the user sees (core/agent-run/integration/before-compact.ts holds the rule).
 */

/** The folder of one test file's homes, removed when the file ends. */
export function testRoot(name: string): string {
  const root = mkdtempSync(join(tmpdir(), `agent-${name}-`));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

export const ID = "6c1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
export const OTHER = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
/** The sessions' working folder: one that exists, shared by every file's homes. */
const CWD = tmpdir();
const bytes = (text: string) => new TextEncoder().encode(text);

let homes = 0;
/** A fresh home under `root` with the session and another one planted. */
export function homeWith(root: string, extra: Record<string, string> = {}) {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home);
  const plant = (id: string) =>
    plantSession({ home, env: {}, tmpdir: tmpdir(), runFolder: CWD }, { agent: "claude-code", id, cwd: CWD, mtime: 1_764_000_000 });
  const path = plant(ID);
  const env = cleanEnv(home, { PATH: "/nonexistent", AGENT_HOOK_ENGINE: "offline", ...extra });
  return { home, path, other: plant(OTHER), env };
}

export function input(path: string, id: string, event: "PreCompact" | "Stop", trigger = "auto"): Uint8Array {
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

export function handoffs(path: string): string[] {
  return readdirSync(dirname(path))
    .filter((name) => name.endsWith(".jsonl") && !name.startsWith(ID) && !name.startsWith(OTHER))
    .sort();
}

export const markFile = (home: string, id = ID) => join(home, ".local/state/agent/offers", `claude-code-${id}.before-compact`);
const named = (id: string, file: string) =>
  `Before compacting, agent wrote a handoff session ${id} (${file}): type /resume ${id} to continue there instead of from the summary.`;

/**
 * One step of a scenario and what it must show. `pre`: a PreCompact (nothing printed, exit 0)
 * after which `handoffs` sessions exist; `stop`: an end of a turn, and the line it shows: the
 * handoff it names (by its place among those written), or a line starting with a text, or nothing.
 */
/** A PreCompact (or `calls` at once), of the other session, with an engine that fails, or with a transcript it must refuse. */
interface PreStep {
  pre: number;
  session?: "other";
  engine?: "failing";
  calls?: number;
  transcript?: "outside" | "../x" | "nul" | "long";
}

export type Step =
  | PreStep
  | { stop: { names: number[] } | { startsWith: string } | { exactly: string } | "nothing" }
  | { turn: number }
  | "compact"
  | "damage"
  | "delete-handoffs"
  | "replace-source"
  | "replace-source-same-size"
  | "truncate-regrow"
  | "rotate-source"
  | { lock: "live" | "dead" | "none" | "dir" }
  | { mark: "symlink" | "empty-dir" | "full-dir" | "huge" | "fifo" }
  | "state-unwritable"
  | { left: string };

/** A pid no process has (one that ended): a lock holding it is stale. */
const DEAD_PID = Bun.spawnSync(["true"]).pid;

/** The same bytes with the first digit of the first line changed: another file of the same size. */
function sameSizeOther(text: string): string {
  const at = text.search(/[0-9]/);
  return `${text.slice(0, at)}${text[at] === "1" ? "2" : "1"}${text.slice(at + 1)}`;
}

/** Runs one scenario in a fresh home; `where` in each failure names the step. */
export async function runSteps(root: string, steps: readonly Step[]): Promise<void> {
  const { home, path, other, env } = homeWith(root);
  const planted = readFileSync(path, "utf8");
  const sourceText = () => readFileSync(path, "utf8");
  const lockFile = () => `${markFile(home)}.lock`;
  const offers = dirname(markFile(home));
  // The handoff sessions in the order they were written.
  const written: string[] = [];
  for (const [at, step] of steps.entries()) {
    const where = `step ${at + 1} (${JSON.stringify(step)})`;
    if (step === "compact") compact(path);
    else if (step === "damage") writeFileSync(markFile(home), "{not json");
    else if (step === "replace-source") writeFileSync(path, planted);
    else if (step === "replace-source-same-size") writeFileSync(path, sameSizeOther(sourceText()));
    else if (step === "truncate-regrow") {
      const size = sourceText().length;
      writeFileSync(path, planted);
      while (sourceText().length <= size) turn(path, 1000);
    } else if (step === "rotate-source") {
      renameSync(path, `${path}.1`);
      writeFileSync(path, sameSizeOther(planted));
      turn(path, 1000);
      turn(path, 1000);
    } else if (step === "state-unwritable") {
      rmSync(offers, { recursive: true, force: true });
      mkdirSync(dirname(offers), { recursive: true });
      writeFileSync(offers, "not a folder\n");
    } else if (typeof step === "object" && "left" in step) {
      mkdirSync(offers, { recursive: true });
      writeFileSync(join(offers, `claude-code-${ID}.compacted`), step.left);
    } else if (step === "delete-handoffs") for (const file of handoffs(path)) rmSync(join(dirname(path), file));
    else if ("turn" in step) turn(path, step.turn);
    else if ("lock" in step) {
      mkdirSync(offers, { recursive: true });
      rmSync(lockFile(), { recursive: true, force: true });
      if (step.lock === "dir") mkdirSync(lockFile());
      else if (step.lock !== "none") writeFileSync(lockFile(), `${step.lock === "live" ? process.pid : DEAD_PID}\n`);
    } else if ("mark" in step) {
      mkdirSync(offers, { recursive: true });
      rmSync(markFile(home), { recursive: true, force: true });
      if (step.mark === "symlink") {
        writeFileSync(join(root, "target"), "a file of the user's\n");
        symlinkSync(join(root, "target"), markFile(home));
      } else if (step.mark === "huge") writeFileSync(markFile(home), " ".repeat(1024 * 1024));
      else if (step.mark === "fifo") expect(Bun.spawnSync(["mkfifo", markFile(home)]).exitCode).toBe(0);
      else {
        mkdirSync(markFile(home));
        if (step.mark === "full-dir") writeFileSync(join(markFile(home), "a file"), "");
      }
    } else if ("pre" in step) await preCompact(step, { root, env, path, other, where, sourceText });
    else {
      const run = await runAgent(["hook", "claude-code", "--stop"], env, REPO, input(path, ID, "Stop"));
      expect(run.code).toBe(0);
      const line = run.stdout === "" ? undefined : (JSON.parse(run.stdout) as { systemMessage: string }).systemMessage;
      if (step.stop === "nothing") expect({ where, line }).toEqual({ where, line: undefined });
      else if ("exactly" in step.stop) expect({ where, line }).toEqual({ where, line: step.stop.exactly });
      else if ("startsWith" in step.stop)
        expect({ where, line: line?.slice(0, step.stop.startsWith.length) }).toEqual({ where, line: step.stop.startsWith });
      else {
        const lines = step.stop.names.map((place) => {
          const file = written[place - 1] ?? "(not written)";
          return named(file.replace(/\.jsonl$/, ""), join(dirname(path), file));
        });
        expect({ where, line }).toEqual({ where, line: lines.join("\n") });
      }
    }
    if (typeof step === "object" && "pre" in step) written.push(...handoffs(path).filter((file) => !written.includes(file)));
  }
}

/** One PreCompact (or `calls` of them at once): nothing printed, exit 0, the source untouched, `pre` handoffs in all. */
async function preCompact(
  step: PreStep,
  {
    root,
    env,
    path,
    other,
    where,
    sourceText,
  }: { root: string; env: Record<string, string>; path: string; other: string; where: string; sourceText: () => string },
): Promise<void> {
  const id = step.session === "other" ? OTHER : ID;
  let transcript = id === OTHER ? other : path;
  let sessionId = id;
  if (step.transcript === "outside") {
    transcript = join(root, `${ID}.jsonl`);
    writeFileSync(transcript, sourceText());
  } else if (step.transcript === "../x") sessionId = "../x";
  else if (step.transcript === "nul") sessionId = `${ID}\0`;
  else if (step.transcript === "long") sessionId = `${ID}-${"a".repeat(4000)}`;
  const before = sourceText();
  const runs = await Promise.all(
    Array.from({ length: step.calls ?? 1 }, () =>
      runAgent(
        ["hook", "claude-code", "--before-compact"],
        step.engine === "failing" ? { ...env, ...FAILING } : env,
        REPO,
        input(transcript, sessionId, "PreCompact"),
      ),
    ),
  );
  // A PreCompact's stdout goes into the compaction prompt: nothing, ever; and the source is left as it was.
  for (const run of runs) expect({ where, run }).toEqual({ where, run: { code: 0, stdout: "", stderr: "" } });
  expect(sourceText()).toBe(before);
  expect({ where, handoffs: handoffs(path).length }).toEqual({ where, handoffs: step.pre });
}

const FAILING = { AGENT_HOOK_ENGINE: "llm", OPENAI_BASE_URL: "http://127.0.0.1:9/v1", AGENT_MODEL: "m" };
