/**
 * Claude Code's `--before-compact` with the real agent (issue 25, item 6): automatic compaction
 * forced by `CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=1` (the fake
 * reports 5,000 tokens a turn, past 1% of the window). Claude Code 2.1.328 then runs the PreCompact
 * hook at the start of every turn, before it decides whether there is anything to summarise: with
 * one earlier exchange it bails ("no assistant messages in summarize set"), from the second on it
 * sends the compaction request (answered here with a `<summary>`) and writes a `compact_boundary`.
 * So the check sees both halves of the guard: PreCompact calls with no compaction between write
 * ONE handoff session, the turn that compacts names it at its end, resuming it sends the document
 * to the model, and the PreCompact after that compaction writes a new one.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isClaudeCodeCompaction } from "../../core/session/formats/claude-code/context-usage.ts";
import type { Agent } from "../agents.ts";
import { isSummaryRequest } from "../fake/anthropic.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox } from "../sandbox.ts";
import { CLAUDE_REPLY, claudeEnv, projectFolder, runClaude } from "./claude-code.ts";
import { claudeTurn, integrate } from "./in-agent-runs.ts";
import { must, type Checks } from "./report.ts";

const SUMMARY = "<analysis>COMPAT-ANALYSIS</analysis>\n<summary>COMPAT-SUMMARY: the first task, compacted.</summary>";
const NAMED = /Before compacting, agent wrote a handoff session ([0-9a-f-]{36}) \(/g;
/** The most forced turns before the check gives up waiting for Claude Code to compact. */
const MOST_TURNS = 4;

/** How many times Claude Code ran our PreCompact hook, from its debug log (`PreCompact:auto [<command>] completed`). */
function preCompactRuns(log: string): number {
  if (!existsSync(log)) return 0;
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.includes("PreCompact:auto [") && line.includes("# agent integrate]")).length;
}

export async function checkClaudeCodeBeforeCompact(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox("in-agent-before-compact-claude-code");
  const fake: FakeModelServer = startFakeModelServer((request) => ({
    text: isSummaryRequest(request.body) ? SUMMARY : CLAUDE_REPLY,
    inputTokens: 5000,
  }));
  try {
    await checks.run(
      agent.name,
      "--before-compact: PreCompact calls with no compaction between write one handoff session, named once after the compaction, resuming it sends the document",
      async () => {
        await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-COMPACT: the first task, handed off before compacting");
        const folder = projectFolder(sandbox);
        const [name] = readdirSync(folder).filter((f) => f.endsWith(".jsonl"));
        must(name !== undefined, "Claude Code wrote no session");
        const id = name.replace(/\.jsonl$/, "");
        const source = join(folder, name);
        const env = claudeEnv(sandbox, fake);
        await integrate(sandbox, env, ["claude-code", "--before-compact"], dns);
        const forced = {
          ...env,
          AGENT_HOOK_ENGINE: "offline",
          CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000",
          CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "1",
        };
        const boundaries = () => readFileSync(source, "utf8").split("\n").filter(isClaudeCodeCompaction).length;
        const handoffs = () => readdirSync(folder).filter((f) => f.endsWith(".jsonl") && f !== name);
        const log = join(sandbox.tmp, "claude-debug.log");
        const turn = async (prompt: string) => {
          const run = await claudeTurn(agent, dir, sandbox, forced, id, prompt, dns, ["--debug-file", log]);
          return { output: `${run.stdout}\n${run.stderr}`, named: [...`${run.stdout}`.matchAll(NAMED)].map((m) => m[1] ?? "") };
        };

        // Forced turns until Claude Code compacts: every PreCompact before it must leave ONE handoff session.
        const before = boundaries();
        const seen: { named: string[]; handoffs: number; boundaries: number; hooks: number }[] = [];
        let last = "";
        while (seen.length < MOST_TURNS && boundaries() === before) {
          const { output, named } = await turn(`COMPAT-COMPACT: turn ${seen.length + 2}`);
          last = output;
          seen.push({ named, handoffs: handoffs().length, boundaries: boundaries() - before, hooks: preCompactRuns(log) });
        }
        const trail = seen.map(
          (s, i) =>
            `turn ${i + 2}: ${s.hooks} PreCompact run(s) so far, ${s.handoffs} handoff(s), ${s.boundaries} compaction(s), named ${s.named.length}`,
        );
        must(
          seen.at(-1)?.hooks !== 0,
          `Claude Code never ran the PreCompact hook (${trail.join("; ")}); last output: ${last.slice(-1500)}`,
        );
        must(
          seen.every((s) => s.handoffs === 1),
          `expected exactly one handoff session through the PreCompact calls: ${trail.join("; ")}`,
        );
        const [made] = handoffs();
        const newId = made?.replace(/\.jsonl$/, "") ?? "";
        const text = readFileSync(join(folder, made ?? ""), "utf8");
        must(text.includes("<handoff-context>"), "the session written before compacting holds no handoff document");
        must(text.includes("COMPAT-COMPACT: the first task"), "the document is not about the session being compacted");
        const compacted = boundaries() > before;
        if (!compacted)
          return `not compacted after ${MOST_TURNS} forced turns (Claude Code bailed each time): the guard held, ${trail.join("; ")}`;
        must(
          fake.modelRequests("anthropic").some((r) => isSummaryRequest(r.body)),
          "a compact_boundary was written, but no compaction request reached the fake",
        );
        must(
          readFileSync(source, "utf8").includes("COMPAT-SUMMARY: the first task, compacted."),
          "the compaction did not keep the fake's summary",
        );
        // Named at the end of the turn that compacted, or of the next when Claude Code wrote the boundary after that
        // turn's Stop ran (against the fake, 100 ms after it compacts); before the compaction: nothing, there was no summary.
        const namedTurns = seen.map((s) => s.named);
        must(
          namedTurns.slice(0, -1).every((n) => n.length === 0),
          `named before any compaction: ${trail.join("; ")}`,
        );

        const resumed = await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-COMPACT: continued from the handoff", ["--resume", newId]);
        must(JSON.stringify(resumed.messages).includes("<handoff-context>"), "resuming the handoff session did not send the document");

        // After the compaction, the next PreCompact writes a new handoff (the old one stood for the compaction that happened).
        const after = await turn("COMPAT-COMPACT: a turn after the compaction");
        must(
          handoffs().length === 2,
          `the PreCompact after a compaction did not write a second handoff (${handoffs().length}); ${after.output.slice(-800)}`,
        );
        const atCompaction = namedTurns.at(-1) ?? [];
        const namings = [...atCompaction, ...after.named].filter((n) => n === newId).length;
        must(namings === 1, `${newId} was named ${namings} times at the end of the compacting turn and the next: ${trail.join("; ")}`);
        const when = atCompaction.includes(newId)
          ? "at the end of the compacting turn"
          : "at the end of the turn after it (the boundary was not on disk at the compacting turn's Stop)";
        return `${trail.join("; ")}; ${newId} named once, ${when}, resumed with the document; after the compaction: ${preCompactRuns(log)} PreCompact runs in all, 2 handoffs`;
      },
    );
  } finally {
    await fake.stop();
  }
}
