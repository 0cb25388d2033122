/**
 * The handoff matrix: every pinned agent's session handed into every pinned agent, and the real
 * target continues what we wrote. Each row (checks/matrix-sources.ts) is the real session its
 * own agent recorded, put where that agent keeps it (a file in its folder, opencode's rows in its
 * database), its working directory moved into the sandbox; `agent handoff <its path | its id |
 * --agent <it>> --to <target> --engine offline --json` writes the new session where the target
 * looks (beside the source for the source's own agent); the target (its column, a row of
 * checks/targets.ts) continues it with one prompt, and the document must reach the model
 * verbatim, with the model the target should continue with, and the session must stay valid.
 * The model engine (our Chat Completions fake writes the document) runs once per source, into the
 * next agent of the table, so every target also meets a document the model wrote. Nothing here
 * names an agent: a new one is a row in each of those two tables.
 */
import { availableParallelism } from "node:os";
import { basename, dirname, join } from "node:path";
import { wrapHandoffDocument } from "../../core/handoff/wrap.ts";
import { isObject, stringField } from "../../core/json.ts";
import { type Agent, type AgentName, AGENTS } from "../agents.ts";
import { FAKE_KEY } from "../agent-setup.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { agentFolder, type PlacedSource, SOURCES } from "./matrix-sources.ts";
import { REPO } from "./reading.ts";
import { allOf, must, type Checks } from "./report.ts";
import { startHandoffFake, WRITER_MODEL, WRITTEN_DOCUMENT } from "./resume.ts";
import { carriesVerbatim } from "./session-file.ts";
import { TARGETS, type WrittenSession } from "./targets.ts";

const PROMPT = "COMPAT-NEXT: what is next?";

/** Every pinned agent, in compat's table's order: the rows and the columns of the matrix. */
const FORMATS: readonly AgentName[] = AGENTS.map((agent) => agent.name);

/** The model engine hands each source into the next agent of the table: every source and every target once. */
function modelEngineTarget(source: AgentName): AgentName {
  return FORMATS[(FORMATS.indexOf(source) + 1) % FORMATS.length] ?? "pi";
}

/** The model the target must continue with: the source's own where the target keeps it, else the target's default. */
function expectedModel(source: AgentName, target: AgentName): string {
  return TARGETS[target].keepsSourceModel(SOURCES[source]) ? SOURCES[source].model : TARGETS[target].defaultModel;
}

type Engine = "offline" | "llm";

interface HandedOff {
  session: WrittenSession;
  /** The document as the new session must hand it to the model: `--json`'s `document`, wrapped. */
  wrapped: string;
}

/** `agent handoff <way> --to <target> --json` in the sandbox (its HOME, so the session goes where the target looks). */
async function handOff(
  source: PlacedSource,
  way: readonly string[],
  target: AgentName,
  engine: Engine,
  sandbox: Sandbox,
  fake: FakeModelServer,
  dns: DnsLog,
): Promise<HandedOff> {
  const args = ["handoff", ...way, "--to", target, "--engine", engine, "--json", "--quiet"];
  if (engine === "llm") args.push("--base-url", `${fake.origin}/v1`, "--model", WRITER_MODEL);
  const env = sandbox.env(engine === "llm" ? { OPENAI_API_KEY: FAKE_KEY } : {});
  const before = new Date();
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), ...args],
    { cwd: sandbox.project, env, timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent handoff failed: ${describeRun(run)}`);
  const json: unknown = JSON.parse(run.stdout);
  must(isObject(json), `--json printed no object: ${run.stdout.slice(0, 200)}`);
  const path = stringField(json, "sessionFile");
  const id = stringField(json, "sessionId");
  const document = stringField(json, "document");
  must(
    path !== undefined && id !== undefined && document !== undefined,
    `--json lacks sessionFile, sessionId or document: ${run.stdout.slice(0, 200)}`,
  );
  must(json.sessionFormat === target, `the new session is for ${String(json.sessionFormat)}, not ${target}`);
  // Handed to its own agent it goes beside the source (into the same database); else where the target keeps the project's sessions.
  const folders = new Set(
    json.sourceFormat === target
      ? [dirname(source.path)]
      : [agentFolder(target, sandbox, before), agentFolder(target, sandbox, new Date())],
  );
  must(folders.has(dirname(path)), `written to ${dirname(path)}, not ${[...folders].join(" or ")}`);
  if (engine === "llm") must(document.includes(WRITTEN_DOCUMENT.split("\n")[1] ?? ""), "the document is not the one the model wrote");
  return { session: { path, id, content: TARGETS[target].snapshot({ path, id }) }, wrapped: wrapHandoffDocument(document) };
}

/** Checks passed and run, per source and target, for the grid printed at the end. */
type Tally = Map<string, { ok: number; all: number }>;

/** One cell: which source into which target, with which engine, the source named which way. */
interface Cell {
  source: AgentName;
  target: Agent;
  engine: Engine;
  /** Which of the source's ways of naming it this cell uses (taken in turn along the row). */
  turn: number;
}

/** One pair: hand off, then the target continues the new session with one prompt. */
async function checkPair(cell: Cell, dir: string, checks: Checks, tally: Tally, dns: DnsLog): Promise<void> {
  const { source, target, engine } = cell;
  const count = (ok: boolean) => {
    const key = `${source}>${target.name}`;
    const seen = tally.get(key) ?? { ok: 0, all: 0 };
    tally.set(key, { ok: seen.ok + (ok ? 1 : 0), all: seen.all + 1 });
    return ok;
  };
  const sandbox = createSandbox(`matrix-${source}-${target.name}-${engine}`);
  const fake = startHandoffFake();
  const run = { agent: target, dir, sandbox, fake, dns };
  const row = SOURCES[source];
  try {
    await TARGETS[target.name].prepare(run);
    const placed = row.place(sandbox);
    const way = placed.ways[cell.turn % placed.ways.length] ?? [];
    const named = way.length === 0 || way[0] === placed.path ? basename(row.fixture) : way.join(" ");
    const from = `from ${source} (${named}, ${engine} engine)`;
    let handed: HandedOff | undefined;
    const ok = await checks.run(target.name, `hands off ${from} into a new ${target.name} session where ${target.name} looks`, async () => {
      handed = await handOff(placed, way, target.name, engine, sandbox, fake, dns);
      const kept = placed.checkKept(source === target.name);
      return [handed.session.path.slice(sandbox.home.length + 1), kept].filter(Boolean).join("; ");
    });
    if (!count(ok) || !handed) return;
    const written = handed;
    const model = expectedModel(source, target.name);
    count(
      await checks.run(
        target.name,
        `continues it ${from} with one prompt: the document verbatim, model ${model}, a valid session`,
        async () => {
          const turn = await TARGETS[target.name].resume(run, written.session, PROMPT);
          let valid: string | undefined;
          let invalid: unknown;
          try {
            valid = await TARGETS[target.name].checkFile(written.session, run);
          } catch (error) {
            invalid = error;
          }
          return allOf([
            () => must(carriesVerbatim(turn.messages, written.wrapped), "the handoff document did not reach the model verbatim"),
            () => must(turn.model === model, `continued with model ${turn.model}, not ${model}`),
            () => {
              if (invalid !== undefined) throw invalid;
              return valid;
            },
          ]);
        },
      ),
    );
  } finally {
    await fake.stop();
  }
}

/** `source ↓ target →` with `ok/all` in each cell. */
function grid(tally: Tally, targets: readonly AgentName[]): string[] {
  const width = Math.max(...FORMATS.map((f) => f.length)) + 2;
  const cell = (text: string) => text.padEnd(width);
  const rows = [`handoff matrix, checks passed per pair (rows: source, columns: target)`, cell("") + targets.map(cell).join("")];
  for (const source of FORMATS) {
    rows.push(
      cell(source) +
        targets
          .map((target) => {
            const seen = tally.get(`${source}>${target}`);
            return cell(seen ? `${seen.ok}/${seen.all}` : "-");
          })
          .join(""),
    );
  }
  return rows;
}

/**
 * How many cells run at once: each has a sandbox (its own HOME) and a fake of its own, so none
 * shares anything with another but the machine and the DNS stub (no agent of the matrix looks a
 * name up: checks/opencode-setup.ts). `COMPAT_MATRIX_JOBS` sets it; by default one per core, at most 4.
 */
function jobs(): number {
  const set = Number(process.env.COMPAT_MATRIX_JOBS);
  return Number.isInteger(set) && set > 0 ? set : Math.min(4, Math.max(1, availableParallelism()));
}

/** Runs `work` on every item, at most `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Every source into every installed target (offline engine), and the model engine once per source. */
export async function checkMatrix(
  agents: readonly Agent[],
  dirs: ReadonlyMap<string, string>,
  checks: Checks,
  dns: DnsLog,
  say: (line: string) => void,
): Promise<void> {
  const tally: Tally = new Map();
  const cells: Cell[] = [];
  for (const source of FORMATS) {
    for (const [turn, target] of agents.entries()) cells.push({ source, target, engine: "offline", turn });
    const next = agents.find((agent) => agent.name === modelEngineTarget(source));
    if (next) cells.push({ source, target: next, engine: "llm", turn: agents.length });
  }
  const started = performance.now();
  const limit = jobs();
  await inPool(cells, limit, (cell) => checkPair(cell, dirs.get(cell.target.name) ?? "", checks, tally, dns));
  for (const line of grid(
    tally,
    FORMATS.filter((f) => agents.some((a) => a.name === f)),
  ))
    say(line);
  say(`handoff matrix: ${cells.length} cells, ${limit} at a time, ${((performance.now() - started) / 1000).toFixed(1)}s`);
}
