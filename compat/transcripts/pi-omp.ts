/**
 * pi and omp: two print-mode turns on one session, then a compaction through RPC mode
 * (`{"type":"compact"}`), then one more turn, so the transcript has a compaction with kept
 * entries and a turn after it.
 */
import { join } from "node:path";
import { agentEnv, configureAgent } from "../agent-setup.ts";
import { must } from "../checks/report.ts";
import { jsonlFilesUnder, runRpc, runTurn, type RecordContext, type TranscriptDriver } from "./context.ts";
import { COMPACT_INSTRUCTIONS, FIRST_PROMPT, PROJECT_FILES, SECOND_PROMPT, THANKS, type ToolStyle } from "./script.ts";

const FLAGS = {
  pi: ["--offline", "--no-extensions", "--no-skills", "--no-context-files"],
  omp: ["--no-extensions", "--no-skills", "--no-rules", "--no-lsp", "--no-title"],
};

function flagsFor(context: RecordContext): string[] {
  return context.agent.name === "pi" ? FLAGS.pi : FLAGS.omp;
}

async function recordPiLike(context: RecordContext): Promise<Map<string, string>> {
  const { agent, dir, sandbox, fake } = context;
  // Keep only the last few hundred tokens on compaction, so this small session has something to
  // compact; omp summarises with the model ("soft"), not with a provider's server compaction.
  configureAgent(agent, sandbox, fake.origin, dir, { compaction: { keepRecentTokens: 300, methodOrder: ["soft"] } });
  const bin = join(dir, agent.bin);
  const env = agentEnv(sandbox);
  await runTurn(context, [bin, "--print", ...flagsFor(context), "--model", "openai/gpt-5", FIRST_PROMPT], env);
  const sessionsDir = join(sandbox.home, agent.name === "pi" ? ".pi/agent/sessions" : ".omp/agent/sessions");
  const [session, ...others] = jsonlFilesUnder(sessionsDir);
  must(
    session !== undefined && others.length === 0,
    `expected one session file under ${sessionsDir}, found ${[session, ...others].filter(Boolean).join(", ") || "none"}`,
  );
  await runTurn(context, [bin, "--print", ...flagsFor(context), "--session", session, SECOND_PROMPT], env);
  const answer = await runRpc(
    context,
    [bin, "--mode", "rpc", ...flagsFor(context), "--session", session],
    env,
    { id: "compat-1", type: "compact", customInstructions: COMPACT_INSTRUCTIONS },
    (line) => line.includes('"command":"compact"'),
  );
  const response = answer.split("\n").find((line) => line.includes('"command":"compact"')) ?? "";
  must(response.includes('"success":true'), `the compaction failed: ${response.slice(0, 300)}`);
  await runTurn(context, [bin, "--print", ...flagsFor(context), "--session", session, THANKS], env);
  return new Map([[`session.jsonl`, session]]);
}

export const piDriver: TranscriptDriver = {
  style: () => ({
    bash: (command) => ({ name: "bash", arguments: { command } }),
    read: (path) => ({ name: "read", arguments: { path } }),
    edit: (path, oldText, newText) => ({ name: "edit", arguments: { path, edits: [{ oldText, newText }] } }),
  }),
  record: recordPiLike,
};

/** omp's `edit` takes a patch language of its own; the fix is made with `write` instead. */
export const ompDriver: TranscriptDriver = {
  style: (): ToolStyle => ({
    bash: (command) => ({ name: "bash", arguments: { i: "inspect", command } }),
    read: (path) => ({ name: "read", arguments: { i: "read the file", path } }),
    edit: (path, oldText, newText) => ({
      name: "write",
      arguments: { i: "fix the typo", path, content: (PROJECT_FILES[path] ?? "").replace(oldText, newText) },
    }),
  }),
  record: recordPiLike,
};
