/**
 * Gemini CLI 0.61.0 in a sandbox: the fake as its Gemini API (`GOOGLE_GEMINI_BASE_URL`, a key in
 * `GEMINI_API_KEY`, `security.auth.selectedType: "gemini-api-key"`), a Gemini 2.5 model named in
 * its settings (with none, its router asks a Gemini 3 model first and retries for about 90 s),
 * the project trusted (`trustedFolders.json`), usage statistics and update checks off.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch } from "../../core/session/analyze.ts";
import { readGeminiSession } from "../../core/session/formats/gemini/read.ts";
import type { Agent } from "../agents.ts";
import { FAKE_KEY } from "../agent-setup.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { must } from "./report.ts";
import { carriesVerbatim, conversationRequests } from "./session-file.ts";
import type { SentTurn } from "./targets.ts";

/** The model its settings name: one the fake serves, none of the sources' own. */
export const GEMINI_MODEL = "gemini-2.5-flash";

export function prepareGemini(sandbox: Sandbox): void {
  const dir = join(sandbox.home, ".gemini");
  mkdirSync(dir, { recursive: true });
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    model: { name: GEMINI_MODEL },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  };
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings, null, 2));
  writeFileSync(join(dir, "trustedFolders.json"), JSON.stringify({ [sandbox.project]: "TRUST_FOLDER" }));
}

export function geminiEnv(sandbox: Sandbox, fake: FakeModelServer): Record<string, string> {
  return sandbox.env({ GEMINI_API_KEY: FAKE_KEY, GOOGLE_GEMINI_BASE_URL: fake.origin, NO_COLOR: "1", TERM: "dumb" });
}

/** `gemini [-r <id>|latest] -p <prompt>` in the project; the request that carried the prompt, as the Gemini API got it. */
export async function runGemini(
  agent: Agent,
  dir: string,
  sandbox: Sandbox,
  fake: FakeModelServer,
  dns: DnsLog,
  prompt: string,
  resume: string | undefined,
): Promise<SentTurn> {
  const before = fake.requests.length;
  const argv = [join(dir, agent.bin), ...(resume ? ["-r", resume] : []), "-p", prompt];
  const run = await runAgent(argv, { cwd: sandbox.project, env: geminiEnv(sandbox, fake), timeoutMs: 150_000 }, dns);
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  const turn = conversationRequests(fake.requests.slice(before), "").find((request) => carriesVerbatim(request.messages, prompt));
  if (turn) return turn;
  must(false, `sent no request carrying the prompt; ${describeRun(run)}`);
  throw new Error("unreachable");
}

/** After its turn: our bytes still start the file, and it reads as one Gemini session with the turn added. */
export function checkGeminiFile(path: string, ours: string): string {
  const text = readFileSync(path, "utf8");
  must(text.startsWith(ours), "our lines are no longer the start of the file");
  const session = readGeminiSession(text, path);
  must(session.problems.length === 0, `unreadable lines: ${JSON.stringify(session.problems)}`);
  return `${session.entries.length} entries`;
}

/**
 * After Gemini compressed a session: our reader gives the model the summary as a compaction,
 * then the words of what Gemini itself sent after its answer to the summary, in order; and
 * Session Facts still see the commands run before the compression.
 */
export function checkGeminiCompaction(text: string, path: string, summary: string, sentAfter: readonly string[]): string {
  const session = readGeminiSession(text, path);
  must(session.problems.length === 0, `unreadable lines: ${JSON.stringify(session.problems)}`);
  const { context, facts } = analyzeBranch(session);
  const [first, ...rest] = context;
  must(first?.role === "user" && first.kind === "compactionSummary", `the context does not open with a compaction summary: ${first?.role}`);
  must(JSON.stringify(first?.content).includes(JSON.stringify(summary).slice(1, -1)), "the compaction summary is not Gemini's");
  const words = rest.flatMap((m) => (m.role === "toolResult" ? [] : m.content.flatMap((b) => (b.type === "text" ? [b.text] : []))));
  must(
    sentAfter.every((text, i) => words[i] === text),
    `after the summary we read ${JSON.stringify(words)}; Gemini sent ${JSON.stringify(sentAfter)}`,
  );
  must(facts.commands.length > 0, "Session Facts lost the commands run before the compression");
  return `${session.entries.filter((e) => e.type === "compaction").length} compaction, ${facts.commands.length} commands`;
}
