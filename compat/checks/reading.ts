/**
 * Reading agrees: every session fixture (and the two real sessions, when present) is loaded by
 * pi's and omp's own session managers, and their leaf, branch, context size and the role of
 * every context message must equal what `agent inspect --json` reports — up to the named
 * differences in differences.ts.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { arrayField, isObject, numberField, stringField, type JsonObject } from "../../core/json.ts";
import type { Agent } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, runAgent } from "../sandbox.ts";
import { alignTheirs, DIFFERENCES, firstMismatch, type DifferenceName, type ProbeMessage } from "./differences.ts";
import { must, type Checks } from "./report.ts";

export const REPO = join(import.meta.dir, "../..");
const REAL_SESSIONS = join(REPO, "../shared/sessions");

/** Every session file the suite reads: the fixtures, the agents' real transcripts, the real sessions. */
export function sessionFiles(): string[] {
  const jsonl = (dir: string) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith(".jsonl") && statSync(join(dir, name)).isFile())
          .sort()
          .map((name) => join(dir, name))
      : [];
  return [
    join(REPO, "fixtures/example.jsonl"),
    join(REPO, "fixtures/handoff-markers.jsonl"),
    ...jsonl(join(REPO, "fixtures/sessions")),
    ...jsonl(join(REPO, "fixtures/sessions/bad")),
    ...jsonl(join(REPO, "fixtures/real/pi")),
    ...jsonl(join(REPO, "fixtures/real/omp")),
    ...jsonl(REAL_SESSIONS),
  ];
}

interface OurReading {
  exitCode: number;
  format?: string;
  version?: number | null;
  sessionId?: string;
  leafId?: string | null;
  branchEntries?: number;
  title?: string | null;
  contextRoles?: string[];
}

interface TheirReading {
  /** Set when the agent would not open the file at all, with its reason. */
  refused?: string;
  sessionId: string | null;
  leafId: string | null;
  branch: string[];
  model: string | null;
  messages: ProbeMessage[];
}

/** The last line of a program's output as a JSON object. */
export function lastJsonLine(stdout: string): JsonObject {
  const value: unknown = JSON.parse(stdout.trim().split("\n").pop() ?? "");
  if (!isObject(value)) throw new Error(`expected a JSON object, got: ${stdout.slice(0, 200)}`);
  return value;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

async function readOurs(file: string, env: Record<string, string>, dns: DnsLog): Promise<OurReading> {
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "inspect", "--json", "--quiet", file],
    { cwd: REPO, env, timeoutMs: 60_000 },
    dns,
  );
  if (run.exitCode !== 0) return { exitCode: run.exitCode ?? -1 };
  const report = lastJsonLine(run.stdout);
  return {
    exitCode: 0,
    format: stringField(report, "format"),
    version: numberField(report, "version") ?? null,
    sessionId: stringField(report, "sessionId"),
    leafId: stringField(report, "leafId") ?? null,
    branchEntries: numberField(report, "branchEntries"),
    title: stringField(report, "title") ?? null,
    contextRoles: strings(report.contextRoles),
  };
}

function probeMessage(value: unknown): ProbeMessage {
  const m = isObject(value) ? value : {};
  return {
    label: stringField(m, "label") ?? "(no label)",
    toolCallIds: Array.isArray(m.toolCallIds) ? strings(m.toolCallIds) : undefined,
    hasText: m.hasText === true,
    toolCallId: stringField(m, "toolCallId"),
    synthetic: m.synthetic === true,
    text: stringField(m, "text"),
  };
}

function parseTheirs(stdout: string): TheirReading {
  const probe = lastJsonLine(stdout);
  return {
    refused: stringField(probe, "refused"),
    sessionId: stringField(probe, "sessionId") ?? null,
    leafId: stringField(probe, "leafId") ?? null,
    branch: strings(probe.branch),
    model: stringField(probe, "model") ?? null,
    messages: (arrayField(probe, "messages") ?? []).map(probeMessage),
  };
}

function probeCommand(agent: Agent, dir: string, file: string): string[] {
  const probes = join(import.meta.dir, "../probes");
  return agent.name === "pi"
    ? ["node", join(probes, "pi-read.mjs"), dir, file]
    : [process.execPath, join(probes, "omp-read.mjs"), dir, file];
}

/** Compares one file; returns the named differences that applied, or throws what disagreed. */
function compare(agent: Agent, file: string, ours: OurReading, theirs: TheirReading | "timeout"): DifferenceName[] {
  if (theirs === "timeout") {
    must(file.endsWith("/cycle.jsonl") && agent.name === "pi", `${agent.name} did not finish reading it`);
    return ["cycle"];
  }
  if (ours.exitCode !== 0) {
    if (theirs.refused !== undefined) return [];
    must(theirs.branch.length === 0, `we refuse it (exit ${ours.exitCode}) but ${agent.name} reads ${theirs.branch.length} branch entries`);
    return ["notASession"];
  }
  must(theirs.refused === undefined, `${agent.name} does not open it: ${theirs.refused}`);
  if (ours.format === "omp" && ours.title !== null && agent.name === "pi") {
    must(theirs.branch.length === 0, `pi read ${theirs.branch.length} entries of an omp file with a title line`);
    return ["titleSlot"];
  }
  must(theirs.sessionId === ours.sessionId, `session id: ours ${ours.sessionId}, theirs ${theirs.sessionId}`);
  // Version 1 files have no ids: each reader makes up its own, so only the shape can agree.
  if (ours.version !== null) must(theirs.leafId === ours.leafId, `leaf: ours ${ours.leafId}, theirs ${theirs.leafId}`);
  must(theirs.branch.length === ours.branchEntries, `branch: ours ${ours.branchEntries} entries, theirs ${theirs.branch.length}`);
  const { labels, applied } = alignTheirs(theirs.messages);
  const roles = ours.contextRoles ?? [];
  const mismatch = firstMismatch(roles, labels);
  must(mismatch === undefined, `context (${roles.length} ours, ${labels.length} theirs after the named differences): ${mismatch}`);
  return applied;
}

export async function checkReading(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  if (!existsSync(REAL_SESSIONS)) checks.record(agent.name, "reads the real sessions: skipped, ../shared/sessions is absent", true);
  for (const file of sessionFiles()) {
    const name = relative(REPO, file);
    await checks.run(agent.name, `reads ${name} as we do`, async () => {
      const sandbox = createSandbox(`${agent.name}-read`);
      const ours = await readOurs(file, sandbox.env(), dns);
      const run = await runAgent(probeCommand(agent, dir, file), { cwd: sandbox.project, env: sandbox.env(), timeoutMs: 30_000 }, dns);
      must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
      if (!run.timedOut) must(run.exitCode === 0, `the probe failed: ${run.stderr.trim().split("\n").slice(-5).join("\n")}`);
      const theirs: TheirReading | "timeout" = run.timedOut ? "timeout" : parseTheirs(run.stdout);
      const applied = compare(agent, file, ours, theirs);
      return applied.length === 0 ? undefined : applied.map((d) => `differs as intended: ${DIFFERENCES[d]}`).join("\n");
    });
  }
}
