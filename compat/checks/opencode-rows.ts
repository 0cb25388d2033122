/**
 * opencode keeps its sessions as rows of its SQLite database, so the file-placing families do
 * not run it; this check proves `agent handoff --to opencode` (the rows of
 * core/session/formats/opencode/write.ts, through cli's one port for such sessions,
 * cli/sessions/session-rows.ts) with the real opencode: in a git project opencode has already
 * opened twice (so its database, its project row and `.git/opencode` exist), pi's real
 * transcript is handed off to opencode (`--json`: the database, the id, `opencode -s <id>`), then opencode continues
 * it by id (`opencode run -s <id>`) and as the newest of the folder (`opencode run -c`), and
 * sends the fake model the document first; every row that was there before is unchanged.
 * opencode tries to fetch a plugin package from the npm registry at start: its registry is a
 * closed port on loopback here (checks/opencode-setup.ts), the fetch fails at once and opencode
 * carries on; any name it looks up all the same fails the check.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { opencodeStore } from "../../core/session/formats/opencode/store.ts";
import { HANDOFF_ACKNOWLEDGEMENT, HANDOFF_OPEN } from "../../core/session/formats/handoff-text.ts";
import { projectPlace, readRowSession } from "../../cli/sessions/session-rows.ts";
import { transcriptAs } from "../../fixtures/agent-homes.ts";
import type { Agent } from "../agents.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent } from "../sandbox.ts";
import {
  configureOpencode,
  OPENCODE_DEFAULT_MODEL,
  opencodeDatabaseIn,
  opencodeEnv,
  readOpencodeDatabase,
  runOpencode,
} from "./opencode-setup.ts";
import { must, type Checks } from "./report.ts";

const REPO = join(import.meta.dir, "../..");

/** The user and assistant texts of the last conversation request, after the system prompt. */
function lastConversation(fake: FakeModelServer): string[] {
  const requests = fake.modelRequests("chat").filter((r) => JSON.stringify(r.body).includes('"tools"'));
  const body = requests.at(-1)?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  return (body?.messages ?? []).slice(1).map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
}

function allRows(path: string): Record<string, unknown[]> {
  return readOpencodeDatabase(path, (db) => {
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    return Object.fromEntries(tables.map(({ name }) => [name, db.query(`SELECT * FROM "${name}" ORDER BY rowid`).all()]));
  });
}

export async function checkOpencodeRows(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const fake = startFakeModelServer(
    (request) => {
      const system = JSON.stringify(request.body).slice(0, 2000);
      if (system.includes("title generator")) return { text: "COMPAT title" };
      return { text: "COMPAT-ANSWER: continuing." };
    },
    [OPENCODE_DEFAULT_MODEL],
  );
  const sandbox = createSandbox("opencode-rows");
  configureOpencode(sandbox, fake);
  const env = opencodeEnv(sandbox);
  const opencode = (args: string[]) => runOpencode(agent, dir, sandbox, dns, args);
  const database = opencodeDatabaseIn(sandbox);
  const outside = new Set<string>();
  try {
    const git = (args: string[]) =>
      Bun.spawnSync(["git", "-c", "user.email=c@c", "-c", "user.name=c", ...args], { cwd: sandbox.project, env });
    git(["init", "-q"]);
    git(["commit", "-q", "--allow-empty", "-m", "compat"]);
    let sessionId = "";
    let document = "";
    let before: Record<string, unknown[]> = {};
    const ready = await checks.run(
      agent.name,
      "rows: a git project opencode opened twice before, then agent handoff --to opencode writes our session as rows (--json: the database, the id)",
      async () => {
        for (const prompt of ["COMPAT-HISTORY: one", "COMPAT-HISTORY: two"]) {
          const run = await opencode(["run", prompt]);
          for (const name of run.outside) outside.add(name);
          must(run.exitCode === 0, describeRun(run));
        }
        before = allRows(database);
        must(projectPlace(sandbox.project, opencodeStore).cached !== undefined, "opencode cached no project id in .git/opencode");
        // pi's real transcript, as if recorded in this project, handed to opencode by our CLI.
        const source = join(sandbox.tmp, "source.jsonl");
        writeFileSync(source, transcriptAs("pi", "01a22c83-0000-7000-8000-00000000c0de", sandbox.project));
        const handoff = await runAgent(
          [process.execPath, join(REPO, "cli/index.ts"), "handoff", source, "--to", "opencode", "--engine", "offline", "--json"],
          { cwd: sandbox.project, env, timeoutMs: 60_000 },
          dns,
        );
        must(handoff.exitCode === 0, `agent handoff --to opencode failed: ${describeRun(handoff)}`);
        const json = JSON.parse(handoff.stdout) as { sessionFile: string; sessionId: string; document: string; resume: { argv: string[] } };
        must(json.sessionFile === database, `--json's sessionFile is ${json.sessionFile}, not the database`);
        must(opencodeStore.isSessionId(json.sessionId), `--json's sessionId ${json.sessionId} is not opencode's`);
        must(json.resume.argv.join(" ") === `opencode -s ${json.sessionId}`, `--json's resume is ${json.resume.argv.join(" ")}`);
        document = json.document;
        sessionId = json.sessionId;
        const after = allRows(database);
        for (const [table, rows] of Object.entries(before))
          must(JSON.stringify(after[table]?.slice(0, rows.length)) === JSON.stringify(rows), `a row of ${table} that was there changed`);
        return `${sessionId}; ${before.session?.length ?? 0} sessions of opencode's own left as they were`;
      },
    );
    if (!ready) return;
    for (const [how, args] of [
      ["by id (opencode run -s <id>)", ["run", "-s", sessionId, "COMPAT-NEXT: what is next?"]],
      ["as the newest of the folder (opencode run -c)", ["run", "-c", "COMPAT-NEXT: and then?"]],
    ] as const) {
      await checks.run(agent.name, `rows: opencode continues our session ${how}, the document first`, async () => {
        const run = await opencode([...args]);
        for (const name of run.outside) outside.add(name);
        must(run.exitCode === 0, describeRun(run));
        const sent = lastConversation(fake);
        must(
          sent[0]?.startsWith(`user: ${HANDOFF_OPEN}\n`) === true && sent[0].includes(document),
          `the first message sent was ${JSON.stringify(sent[0]?.slice(0, 200))}`,
        );
        must(sent[1] === `assistant: ${HANDOFF_ACKNOWLEDGEMENT}`, `the second message sent was ${JSON.stringify(sent[1])}`);
        must(sent.at(-1)?.includes("COMPAT-NEXT") === true, `the last message sent was ${JSON.stringify(sent.at(-1))}`);
        return `${sent.length} messages sent`;
      });
    }
    await checks.run(agent.name, "rows: our reader reads the session opencode continued as opencode sent it", async () => {
      const session = readRowSession(database, opencodeStore, sessionId);
      const users = session.entries.filter((e) => e.type === "message" && (e.data.message as { role?: string }).role === "user").length;
      must(session.entries[0]?.type === "custom_message", "the first entry is not the previous handoff");
      must(users === 2, `${users} user messages after the document, not 2`);
      must(outside.size === 0, `opencode tried to reach ${[...outside].join(", ")}`);
      return "opencode looked up no name outside loopback (its plugin fetch went to a closed loopback port)";
    });
  } finally {
    await fake.stop();
  }
}
