/**
 * The handoff matrix: every source format handed into every target agent, and the real target
 * continues what we wrote. Each source, the real transcript its own agent recorded, is put where
 * that agent keeps it, its working directory moved into the sandbox; `agent handoff <source>
 * --to <target> --engine offline --json` writes the new session where the target looks (beside
 * the source for the source's own agent); the target continues it with one prompt, and the
 * document must reach the model verbatim and the file must stay valid. The model engine (our
 * Chat Completions fake writes the document) runs once per source, into the next agent of the
 * table, so every target also meets a document the model wrote.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { wrapHandoffDocument } from "../../core/handoff/wrap.ts";
import { isObject, stringField } from "../../core/json.ts";
import { formatNamed } from "../../core/session/formats/table.ts";
import type { SessionPlace } from "../../core/session/formats/types.ts";
import { AGENTS, type FileAgentInstall, type FileAgentName, withFiles } from "../agents.ts";
import { FAKE_KEY } from "../agent-setup.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, SCRATCH_ROOT, type Sandbox } from "../sandbox.ts";
import { REPO } from "./reading.ts";
import { allOf, must, type Checks } from "./report.ts";
import { startHandoffFake, WRITER_MODEL, WRITTEN_DOCUMENT } from "./resume.ts";
import { carriesVerbatim } from "./session-file.ts";
import { TARGETS, type WrittenSession } from "./targets.ts";

const PROMPT = "COMPAT-NEXT: what is next?";

/** Every pinned agent, in compat's table's order: the rows and the columns of the matrix. */
const FORMATS: readonly FileAgentName[] = withFiles(AGENTS).map((agent) => agent.name);

/** Each source: the agent's real transcript (fixtures/real/), recorded in `SCRATCH_ROOT/<agent>-transcript/project`. */
const SOURCES: Record<FileAgentName, string> = {
  pi: "fixtures/real/pi/session.jsonl",
  omp: "fixtures/real/omp/session.jsonl",
  "claude-code": "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
  codex: "fixtures/real/codex/rollout.jsonl",
  gemini: "fixtures/real/gemini/session-2026-12-03T05-51-ac74b73f.jsonl",
};

/**
 * The name each source's file has where its agent keeps it: Codex's own name for the rollout (it
 * keeps only `rollout-*.jsonl` files as sessions, and so does discovery); the others' names as
 * committed.
 */
function placedName(source: FileAgentName): string {
  return source === "codex" ? "rollout-2026-11-30T12-52-57-01a22c83-ffcf-7703-8435-2c3998d6a9a2.jsonl" : basename(SOURCES[source]);
}

/** The model each source resumes with in its own agent, as the model request names it. */
const SOURCE_MODELS: Record<FileAgentName, string> = {
  pi: "gpt-5",
  omp: "gpt-5",
  "claude-code": "claude-sonnet-4-5",
  codex: "gpt-5",
  gemini: "gemini-2.5-flash",
};

/**
 * The model the target must continue with: pi and omp resume with the source's model, except
 * a Gemini source's (it names no provider) and a Codex source's here, whose `model_provider`
 * (`fake`) is a key of that Codex configuration and no provider of theirs; Claude Code with the source's only from a Claude Code session; Codex
 * always with its configured model. Otherwise the target's default.
 */
function expectedModel(source: FileAgentName, target: FileAgentName): string {
  const own = SOURCE_MODELS[source];
  // A Gemini session names its model with no provider: pi and omp have none to resume it with.
  if (target === "pi" || target === "omp") return source === "codex" || source === "gemini" ? TARGETS[target].defaultModel : own;
  if (target === "claude-code" && source === "claude-code") return own;
  return TARGETS[target].defaultModel;
}

type Engine = "offline" | "llm";

/** The model engine hands each source into the next agent of the table: four pairs, every source and every target once. */
function modelEngineTarget(source: FileAgentName): FileAgentName {
  return FORMATS[(FORMATS.indexOf(source) + 1) % FORMATS.length] ?? "pi";
}

/** Where `format`'s agent keeps the sessions of the sandbox's project, as our own location table says. */
export function agentFolder(format: FileAgentName, sandbox: Sandbox, now: Date): string {
  const place: SessionPlace = {
    home: sandbox.home,
    env: {},
    tmpdir: sandbox.tmp,
    runFolder: sandbox.project,
    cwd: sandbox.project,
    timestamp: now,
    utcOffsetMinutes: -now.getTimezoneOffset(),
  };
  return join(...formatNamed(format).location.sessionFolder(place));
}

/** The source transcript, its working directory moved into the sandbox, where its own agent keeps it; its path. */
export function placeSource(source: FileAgentName, sandbox: Sandbox): string {
  const file = SOURCES[source];
  const text = readFileSync(join(REPO, file), "utf8").replaceAll(`${SCRATCH_ROOT}/${source}-transcript/project`, sandbox.project);
  const folder = agentFolder(source, sandbox, new Date());
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, placedName(source));
  writeFileSync(path, text);
  return path;
}

interface HandedOff {
  session: WrittenSession;
  /** The document as the new session must hand it to the model: `--json`'s `document`, wrapped. */
  wrapped: string;
}

/** `agent handoff <source> --to <target> --json` in the sandbox (its HOME, so the file goes where the target looks). */
async function handOff(
  source: string,
  target: FileAgentName,
  engine: Engine,
  sandbox: Sandbox,
  fake: FakeModelServer,
  dns: DnsLog,
): Promise<HandedOff> {
  const args = ["handoff", source, "--to", target, "--engine", engine, "--json", "--quiet"];
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
  // Handed to its own agent it goes beside the source; else where the target keeps the project's sessions.
  const folders = new Set(
    json.sourceFormat === target ? [dirname(source)] : [agentFolder(target, sandbox, before), agentFolder(target, sandbox, new Date())],
  );
  must(folders.has(dirname(path)), `written to ${dirname(path)}, not ${[...folders].join(" or ")}`);
  if (engine === "llm") must(document.includes(WRITTEN_DOCUMENT.split("\n")[1] ?? ""), "the document is not the one the model wrote");
  return { session: { path, id, content: readFileSync(path, "utf8") }, wrapped: wrapHandoffDocument(document) };
}

/** Checks passed and run, per source and target, for the grid printed at the end. */
type Tally = Map<string, { ok: number; all: number }>;

/** One pair: hand off, then the target continues the new session with one prompt. */
async function checkPair(
  source: FileAgentName,
  target: FileAgentInstall,
  dir: string,
  engine: Engine,
  checks: Checks,
  tally: Tally,
  dns: DnsLog,
): Promise<void> {
  const count = (ok: boolean) => {
    const key = `${source}>${target.name}`;
    const seen = tally.get(key) ?? { ok: 0, all: 0 };
    tally.set(key, { ok: seen.ok + (ok ? 1 : 0), all: seen.all + 1 });
    return ok;
  };
  const sandbox = createSandbox(`matrix-${source}-${target.name}-${engine}`);
  const fake = startHandoffFake();
  const run = { agent: target, dir, sandbox, fake, dns };
  const from = `from ${source} (${basename(SOURCES[source])}, ${engine} engine)`;
  try {
    TARGETS[target.name].prepare(run);
    let handed: HandedOff | undefined;
    const placed = placeSource(source, sandbox);
    const ok = await checks.run(target.name, `hands off ${from} into a new ${target.name} session where ${target.name} looks`, async () => {
      handed = await handOff(placed, target.name, engine, sandbox, fake, dns);
      return handed.session.path.slice(sandbox.home.length + 1);
    });
    if (!count(ok) || !handed) return;
    const written = handed;
    const model = expectedModel(source, target.name);
    count(
      await checks.run(
        target.name,
        `continues it ${from} with one prompt: the document verbatim, model ${model}, a valid file`,
        async () => {
          const turn = await TARGETS[target.name].resume(run, written.session, PROMPT);
          return allOf([
            () => must(carriesVerbatim(turn.messages, written.wrapped), "the handoff document did not reach the model verbatim"),
            () => must(turn.model === model, `continued with model ${turn.model}, not ${model}`),
            () => TARGETS[target.name].checkFile(written.session),
          ]);
        },
      ),
    );
  } finally {
    await fake.stop();
  }
}

/** `source ↓ target →` with `ok/all` in each cell. */
function grid(tally: Tally, targets: readonly FileAgentName[]): string[] {
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

/** Every source into every installed target (offline engine), and the model engine once per source. */
export async function checkMatrix(
  agents: readonly FileAgentInstall[],
  dirs: ReadonlyMap<string, string>,
  checks: Checks,
  dns: DnsLog,
  say: (line: string) => void,
): Promise<void> {
  const tally: Tally = new Map();
  for (const source of FORMATS) {
    for (const target of agents) await checkPair(source, target, dirs.get(target.name) ?? "", "offline", checks, tally, dns);
    const next = agents.find((agent) => agent.name === modelEngineTarget(source));
    if (next) await checkPair(source, next, dirs.get(next.name) ?? "", "llm", checks, tally, dns);
  }
  for (const line of grid(
    tally,
    FORMATS.filter((f) => agents.some((a) => a.name === f)),
  ))
    say(line);
}
