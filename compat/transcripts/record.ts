/**
 * Real transcripts: each agent is driven through the scripted task (transcripts/script.ts)
 * against the fake, in a fixed scratch folder, and what it wrote is checked; with
 * `--regenerate`, the session files are written (long prose replaced, see sanitize.ts) to
 * fixtures/real/<agent>/, the test data for the readers of each format.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FileAgentInstall, FileAgentName } from "../agents.ts";
import { REPO } from "../checks/reading.ts";
import { must, type Checks } from "../checks/report.ts";
import { resetIds } from "../fake/reply.ts";
import { startFakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox } from "../sandbox.ts";
import { SERVED_MODELS } from "../agent-setup.ts";
import { writeProject, type RecordContext, type TranscriptDriver } from "./context.ts";
import { ompDriver, piDriver } from "./pi-omp.ts";
import { sanitizeTranscript } from "./sanitize.ts";
import { ourTexts, SUMMARY_TEXT, THANKS, transcriptScript, turnReplies } from "./script.ts";
import { claudeDriver, codexDriver } from "./vendors.ts";
import { geminiDriver } from "./gemini.ts";

/** The agents whose transcript this family records. */
const DRIVERS: Record<FileAgentName, TranscriptDriver> = {
  pi: piDriver,
  omp: ompDriver,
  "claude-code": claudeDriver,
  codex: codexDriver,
  gemini: geminiDriver,
};

/** What every transcript must show, by the text it contains. */
const EXPECTED = [
  ["the first shell command", "ls src && wc -c src/greet.txt"],
  ["the file as read before the fix", "Hello, wrold!"],
  ["the failing command", "test -f notes/todo.txt"],
  ["the second turn", "Show me src/greet.txt once more."],
  ["the compaction summary", SUMMARY_TEXT],
  ["the turn after the compaction", THANKS],
] as const;

export async function recordTranscripts(
  agent: FileAgentInstall,
  dir: string,
  checks: Checks,
  dns: DnsLog,
  options: { regenerate: boolean },
): Promise<void> {
  const driver = DRIVERS[agent.name];
  const sandbox = createSandbox(`${agent.name}-transcript`);
  writeProject(sandbox.project);
  resetIds();
  let inputTokens = 1000;
  const replies = turnReplies(driver.style(sandbox.project));
  const fake = startFakeModelServer(
    transcriptScript(replies, () => inputTokens),
    Object.values(SERVED_MODELS).flat(),
  );
  const context: RecordContext = { agent, dir, sandbox, fake, dns, setInputTokens: (tokens) => (inputTokens = tokens) };
  let files = new Map<string, string>();
  try {
    const ok = await checks.run(agent.name, "runs the scripted task: two turns, a compaction, a turn after it", async () => {
      files = await driver.record(context);
      must(readFileSync(join(sandbox.project, "src/greet.txt"), "utf8") === "Hello, world!\n", "the edit did not fix src/greet.txt");
      return `${fake.modelRequests().length} model requests; wrote ${[...files.keys()].join(", ")}`;
    });
    if (!ok) return;
  } finally {
    await fake.stop();
  }
  const texts = new Map(
    [...files].map(([name, path]) => [
      name,
      sanitizeTranscript(readFileSync(path, "utf8"), agent.name, [...ourTexts(replies), ...(driver.keep?.(sandbox.project) ?? [])]),
    ]),
  );
  const all = [...texts.values()].join("\n");
  await checks.run(agent.name, "its transcript holds every step of the task", () => {
    const missing = EXPECTED.filter(([, text]) => !all.includes(JSON.stringify(text).slice(1, -1)));
    must(missing.length === 0, `missing: ${missing.map(([what]) => what).join(", ")}`);
    return `${all.split("\n").filter(Boolean).length} lines`;
  });
  if (!options.regenerate) return;
  const out = join(REPO, "fixtures/real", agent.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [name, text] of texts) writeFileSync(join(out, name), text);
  checks.record(agent.name, `regenerated fixtures/real/${agent.name}/ (${[...texts.keys()].join(", ")})`, true);
}
