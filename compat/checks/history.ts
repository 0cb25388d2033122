/**
 * Homes with history. A fresh home hides what an agent's own records do to its "continue the
 * latest": Codex lists threads from its database once it has scanned its folder, omp follows a
 * per-terminal note first. So before a check hands off, the real agent has run in the sandbox's
 * project itself, twice, headless, against the fake, as a user's earlier work; what that left is
 * checked to be there: older sessions in the same folder (pi, omp, Claude Code), Codex's thread
 * index with its first scan done and a row per thread, omp's note for the terminal it ran in.
 */
import { Database } from "bun:sqlite";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { claudeConfigDir } from "./claude-code.ts";
import { codexHomeOf } from "./codex.ts";
import { agentFolder } from "./matrix-sources.ts";
import { must } from "./report.ts";
import { TARGETS, type TargetRun } from "./targets.ts";

/** The prompts of the earlier work, oldest first: each opens a session of the agent's own. */
export const HISTORY_PROMPTS = ["COMPAT-HISTORY: the first earlier task", "COMPAT-HISTORY: the second earlier task"] as const;

/**
 * The terminal the earlier work ran in, as omp tells terminals apart without a TTY (a tmux
 * pane): omp notes there the session it last opened, and `omp -c` in that terminal reopens it.
 */
export const HISTORY_TERMINAL = { TMUX_PANE: "%compat-history" };

const jsonlFiles = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".jsonl")) : []);

/** Codex's thread index in the sandbox: its first scan's state and the threads it has of the project. */
function codexIndex(run: TargetRun): { scan: string | undefined; threads: number } {
  const path = join(codexHomeOf(run.sandbox), "state_5.sqlite");
  must(existsSync(path), `Codex made no thread index (${path})`);
  const db = new Database(path, { readonly: true });
  try {
    const scan = db.query<{ status: string }, []>("SELECT status FROM backfill_state WHERE id = 1").get()?.status;
    const threads = db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM threads WHERE cwd = ?").get(run.sandbox.project)?.n ?? 0;
    return { scan, threads };
  } finally {
    db.close();
  }
}

/** The session file omp's note for the history terminal names (its second line), if it left one. */
export function ompNotedSession(run: TargetRun): string | undefined {
  const note = join(run.sandbox.home, ".omp/agent/terminal-sessions", `tmux-${HISTORY_TERMINAL.TMUX_PANE}`);
  return existsSync(note) ? readFileSync(note, "utf8").split("\n")[1] : undefined;
}

/** What the earlier work left in the home, in words; fails when it is not what a used home holds. */
function describeHistory(run: TargetRun): string {
  const name = run.agent.name;
  if (name === "codex") {
    const { scan, threads } = codexIndex(run);
    must(
      scan === "complete" && threads >= HISTORY_PROMPTS.length,
      `Codex's thread index: first scan ${scan ?? "not begun"}, ${threads} threads`,
    );
    return `state_5.sqlite: first scan complete, ${threads} threads of the project`;
  }
  const sessions = jsonlFiles(agentFolder(name, run.sandbox, new Date()));
  must(sessions.length >= HISTORY_PROMPTS.length, `${sessions.length} sessions of its own in the project's folder`);
  const said = [`${sessions.length} sessions of its own in the project's folder`];
  if (name === "claude-code")
    said.push(existsSync(join(claudeConfigDir(run.sandbox), "history.jsonl")) ? "its prompt history" : "no prompt history");
  if (name === "omp") {
    const noted = ompNotedSession(run);
    must(noted !== undefined, "omp left no note for the terminal it ran in");
    said.push("its note for the terminal it ran in");
  }
  return said.join(", ");
}

/** Runs the earlier work (omp's in a terminal of its own), then says what it left. */
export async function makeHistory(run: TargetRun): Promise<string> {
  const env = run.agent.name === "omp" ? HISTORY_TERMINAL : {};
  for (const prompt of HISTORY_PROMPTS) await TARGETS[run.agent.name].start(run, prompt, env);
  return describeHistory(run);
}
