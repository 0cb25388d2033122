/**
 * opencode as the target of a handoff (its row of checks/targets.ts): its sessions are rows of
 * its SQLite database, so "the file" of a new session is the database, and what must stay as we
 * wrote it is the session's message and part rows. Its home is made by opencode itself before
 * anything is handed to it (`opencode session list` creates and migrates the database, with no
 * model asked), so the rows go into a database opencode made, and the project row is the one
 * `agent handoff` adds as opencode would for a folder it has not seen.
 */
import { isObject } from "../../core/json.ts";
import { HANDOFF_ACKNOWLEDGEMENT } from "../../core/session/formats/handoff-text.ts";
import { describeRun } from "../sandbox.ts";
import { configureOpencode, OPENCODE_DEFAULT_MODEL, opencodeEnv, readOpencodeDatabase, runOpencode } from "./opencode-setup.ts";
import { must } from "./report.ts";
import { carriesVerbatim } from "./session-file.ts";
import type { ResumeTarget, SentTurn, TargetRun, WrittenSession } from "./targets.ts";

/** The model opencode continues a session with when the session names none: none of the sources' own. */
const TARGET_DEFAULT_MODEL = "opencode-default";

/** The message and part rows of one session, in id order, as JSON: what opencode must leave as we wrote it. */
function sessionRows(database: string, sessionId: string): string {
  return readOpencodeDatabase(database, (db) => {
    const messages = db.query("SELECT * FROM message WHERE session_id = ? ORDER BY id").all(sessionId);
    const parts = db.query("SELECT * FROM part WHERE session_id = ? ORDER BY id").all(sessionId);
    return JSON.stringify({ messages, parts });
  });
}

interface Rows {
  messages: { id: string }[];
  parts: { id: string }[];
}

function parseRows(text: string): Rows {
  const value: unknown = JSON.parse(text);
  const ids = (list: unknown) => (Array.isArray(list) ? list.filter(isObject).map((row) => ({ ...row, id: String(row.id) })) : []);
  return isObject(value) ? { messages: ids(value.messages), parts: ids(value.parts) } : { messages: [], parts: [] };
}

/**
 * The chat request of opencode's turn (the one offering its tools, not the title it asks for)
 * that carries `prompt`. `opencode run` joins the words of its message with spaces, each that
 * holds a space put in double quotes (its own quotes escaped), before it sends them (1.18.33):
 * one prompt with spaces reaches the model quoted.
 */
function turnOf(run: TargetRun, before: number, prompt: string): SentTurn | undefined {
  const sent = prompt.includes(" ") ? `"${prompt.replaceAll('"', '\\"')}"` : prompt;
  for (const request of run.fake.requests.slice(before)) {
    const body = request.body;
    if (request.wire !== "chat" || !isObject(body) || !("tools" in body) || !Array.isArray(body.messages)) continue;
    if (carriesVerbatim(body.messages, sent)) return { model: typeof body.model === "string" ? body.model : "", messages: body.messages };
  }
  return undefined;
}

/** `opencode export <id>`: opencode reads the session back from its database; its messages, in order. */
async function exported(run: TargetRun, sessionId: string): Promise<{ role: string; texts: string[] }[]> {
  const result = await runOpencode(run.agent, run.dir, run.sandbox, run.dns, ["export", sessionId]);
  must(result.outside.length === 0, `opencode export tried to reach ${result.outside.join(", ")}`);
  must(result.exitCode === 0, `opencode export ${sessionId}: ${describeRun(result)}`);
  const json: unknown = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
  must(isObject(json) && Array.isArray(json.messages), `opencode export printed no messages: ${result.stdout.slice(0, 200)}`);
  return json.messages.filter(isObject).map((message) => ({
    role: isObject(message.info) && typeof message.info.role === "string" ? message.info.role : "",
    texts: (Array.isArray(message.parts) ? message.parts : [])
      .filter(isObject)
      .flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : [])),
  }));
}

export const opencodeTarget: ResumeTarget = {
  prepare: async (run) => {
    configureOpencode(run.sandbox, run.fake, [TARGET_DEFAULT_MODEL, OPENCODE_DEFAULT_MODEL]);
    const made = await runOpencode(run.agent, run.dir, run.sandbox, run.dns, ["session", "list"]);
    must(made.exitCode === 0, `opencode session list (to make its database): ${describeRun(made)}`);
  },
  defaultModel: TARGET_DEFAULT_MODEL,
  env: ({ sandbox }) => opencodeEnv(sandbox),
  // Only an opencode session names its model as opencode does (provider and model).
  keepsSourceModel: (source) => source.name === "opencode",
  prepareScreen: () => {},
  screenLookups: [],
  async resume(run, session, prompt) {
    const before = run.fake.requests.length;
    const result = await runOpencode(run.agent, run.dir, run.sandbox, run.dns, ["run", ...(session ? ["-s", session.id] : ["-c"]), prompt]);
    must(result.outside.length === 0, `tried to reach ${result.outside.join(", ")}`);
    must(result.exitCode === 0, describeRun(result));
    const turn = turnOf(run, before, prompt);
    must(turn !== undefined, `sent no request carrying the prompt; ${describeRun(result)}`);
    return turn;
  },
  async start(run, prompt) {
    const result = await runOpencode(run.agent, run.dir, run.sandbox, run.dns, ["run", prompt]);
    must(result.outside.length === 0, `tried to reach ${result.outside.join(", ")}`);
    must(result.exitCode === 0, describeRun(result));
  },
  snapshot: (session) => sessionRows(session.path, session.id),
  async checkFile(session: WrittenSession, run: TargetRun) {
    const integrity = readOpencodeDatabase(
      session.path,
      (db) => db.query<{ integrity_check: unknown }, []>("PRAGMA integrity_check").get()?.integrity_check,
    );
    must(integrity === "ok", `the database's integrity check says ${String(integrity)}`);
    const ours = parseRows(session.content);
    const now = parseRows(sessionRows(session.path, session.id));
    for (const kind of ["messages", "parts"] as const) {
      const rows = new Map(now[kind].map((row) => [row.id, JSON.stringify(row)]));
      for (const row of ours[kind]) must(rows.get(row.id) === JSON.stringify(row), `opencode changed or dropped our ${kind} row ${row.id}`);
    }
    const messages = await exported(run, session.id);
    must(
      messages[0]?.role === "user" && messages[0].texts.length === 1,
      `opencode export's first message is ${JSON.stringify(messages[0])}`,
    );
    must(messages[1]?.texts.join("") === HANDOFF_ACKNOWLEDGEMENT, `opencode export's second message is ${JSON.stringify(messages[1])}`);
    must(messages.length >= 4, `opencode export lists ${messages.length} messages, not our two and its turn`);
    return `${ours.messages.length} messages and ${ours.parts.length} parts of ours unchanged; opencode export reads ${messages.length} messages`;
  },
};
