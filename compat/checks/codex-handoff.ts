/**
 * Handing off into Codex: the new Codex session we write (from a pi session, and from Codex's
 * own rollout) is resumed by the real Codex with one prompt, and the document reaches the model
 * verbatim; Codex also finds it as the newest session (`codex exec resume --last`) and lists it
 * in its picker (`codex resume`), neither of which it does for a file it never saw unless the
 * file has the right shape. Wrong shapes fail silently in Codex (it resumes, the model never
 * sees the text), so every check reads what reached the model.
 *
 * The session is written by `agent handoff --to codex` once the CLI has the flag (the format
 * table routes it to our writer); until then by the writer itself, in-process.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import { ACKNOWLEDGEMENT, TRAILER, wrapHandoffDocument } from "../../core/handoff/wrap.ts";
import { codex } from "../../core/session/formats/codex/index.ts";
import { parseSession } from "../../core/session/formats/pi/parse.ts";
import type { Session } from "../../core/session/types.ts";
import type { Agent } from "../agents.ts";
import { configureCodex, FAKE_KEY, SERVED_MODELS } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { jsonlFilesUnder } from "../transcripts/context.ts";
import { readTuiScreen } from "./codex-tui.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";
import { carriesVerbatim } from "./session-file.ts";

const PROMPT = "COMPAT-NEXT: what is next?";
const DOCUMENT = "## Goal\nCOMPAT-DOCUMENT: carry on with the parser.\n\n## Next Steps\n1. add positions";

/** Sources to hand off, as the agent that wrote them; the cwd is moved into the sandbox. */
const SOURCES = [
  { label: "a pi session", file: "fixtures/sessions/v3-branches.jsonl", format: "pi" },
  { label: "Codex's own rollout", file: "fixtures/real/codex/rollout.jsonl", format: "codex" },
] as const;

interface Written {
  path: string;
  id: string;
  /** The text of the user message that opens it: what must reach the model. */
  document: string;
  via: string;
}

/** The source with its working directory moved to `cwd` (Codex refuses a session whose folder is gone). */
function withCwd(text: string, cwd: string): string {
  const lines = text.split("\n");
  const first: unknown = JSON.parse(lines[0] ?? "{}");
  if (isObject(first) && first.type === "session_meta" && isObject(first.payload)) lines[0] = JSON.stringify({ ...first, payload: { ...first.payload, cwd } });
  else if (isObject(first) && first.type === "session") lines[0] = JSON.stringify({ ...first, cwd });
  return lines.join("\n");
}

function readSource(path: string, format: string): Session {
  const bytes = readFileSync(path);
  return format === "codex" ? codex.read(bytes, path) : parseSession(bytes, path);
}

/** The opening user message of a Codex session file: `{payload: {type: "message", role: "user", content: [{text}]}}`. */
function openingText(path: string): string {
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const value: unknown = line ? JSON.parse(line) : undefined;
    if (!isObject(value) || value.type !== "response_item" || !isObject(value.payload) || value.payload.role !== "user") continue;
    const part = Array.isArray(value.payload.content) ? value.payload.content[0] : undefined;
    return isObject(part) && typeof part.text === "string" ? part.text : "";
  }
  return "";
}

/** Writes the handed-off session into Codex's folders, through the CLI when it can, else with the writer. */
async function writeNewSession(sandbox: Sandbox, codexHome: string, source: string, format: string, dns: DnsLog): Promise<Written> {
  const env = sandbox.env({ CODEX_HOME: codexHome });
  const run = await runAgent([process.execPath, join(REPO, "cli/index.ts"), "handoff", source, "--to", "codex", "--engine", "offline", "--quiet"], { cwd: sandbox.project, env, timeoutMs: 60_000 }, dns);
  if (run.exitCode === 0) {
    const [path, ...more] = jsonlFilesUnder(join(codexHome, "sessions"));
    must(path !== undefined && more.length === 0, `agent handoff --to codex wrote ${more.length + (path ? 1 : 0)} rollouts under CODEX_HOME/sessions`);
    const id = /-([0-9a-f-]{36})\.jsonl$/.exec(path)?.[1];
    must(id !== undefined, `the new rollout's name carries no id: ${path}`);
    return { path, id, document: openingText(path), via: "agent handoff --to codex" };
  }
  must(/unknown option --to/.test(run.stderr), `agent handoff --to codex failed: ${describeRun(run)}`);
  const session = readSource(source, format);
  const now = new Date();
  const file = codex.renderNewSession({
    wrappedDocument: wrapHandoffDocument(DOCUMENT),
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId: crypto.randomUUID(),
    newEntryId: () => "00000000",
    timestamp: now,
    utcOffsetMinutes: -now.getTimezoneOffset(),
    cwd: session.header.cwd,
    parentSession: source,
    model: { pi: undefined, omp: undefined },
    source: { format: session.format, agentVersion: session.header.agentVersion, modelProvider: session.header.modelProvider },
  });
  const day = file.fileName.slice("rollout-".length, "rollout-".length + 10).split("-").join("/");
  const dir = join(codexHome, "sessions", day);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file.fileName);
  writeFileSync(path, file.content);
  return { path, id: file.sessionId, document: wrapHandoffDocument(DOCUMENT), via: "our writer in-process (agent handoff has no --to yet)" };
}

/** A fresh sandbox with Codex pointed at a fake, and the source's cwd moved into it. */
function prepare(name: string, file: string): { sandbox: Sandbox; codexHome: string; source: string; fake: FakeModelServer } {
  const sandbox = createSandbox(name);
  const fake = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on." }), Object.values(SERVED_MODELS).flat());
  const codexHome = join(sandbox.home, ".codex");
  // The TUI asks whether to trust a folder it has not seen; this one is trusted ahead.
  configureCodex(codexHome, fake.origin, [`[projects."${sandbox.project}"]`, 'trust_level = "trusted"']);
  const source = join(sandbox.project, "source.jsonl");
  writeFileSync(source, withCwd(readFileSync(join(REPO, file), "utf8"), sandbox.project));
  return { sandbox, codexHome, source, fake };
}

/** `codex exec resume <id|--last> "<prompt>"`: the thread it continued and the input of its first model request. */
async function execResume(agent: Agent, dir: string, sandbox: Sandbox, codexHome: string, fake: FakeModelServer, target: string[], dns: DnsLog): Promise<{ thread: string | undefined; input: unknown[] }> {
  const env = sandbox.env({ CODEX_HOME: codexHome, COMPAT_FAKE_KEY: FAKE_KEY });
  const before = fake.requests.length;
  const run = await runAgent([join(dir, agent.bin), "exec", "--skip-git-repo-check", "--json", "resume", ...target, PROMPT], { cwd: sandbox.project, env, timeoutMs: 120_000 }, dns);
  must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
  must(run.exitCode === 0, describeRun(run));
  const request = fake.requests.slice(before).find((r) => r.wire === "responses");
  must(request !== undefined && isObject(request.body) && Array.isArray(request.body.input), `sent no Responses request; ${describeRun(run)}`);
  return { thread: /"thread_id":"([^"]+)"/.exec(run.stdout)?.[1], input: request.body.input };
}

/** Every line of the file after Codex wrote to it: JSON with a timestamp and a type, one session_meta, ours still first. */
function checkRollout(path: string, ours: string): string {
  const text = readFileSync(path, "utf8");
  must(text.startsWith(ours), "our lines are no longer the start of the file");
  const lines = text.trimEnd().split("\n");
  let metas = 0;
  for (const [i, line] of lines.entries()) {
    const value: unknown = JSON.parse(line);
    must(isObject(value) && typeof value.timestamp === "string" && typeof value.type === "string", `line ${i + 1} lacks a timestamp or a type`);
    if (value.type === "session_meta") metas++;
  }
  must(metas === 1, `${metas} session_meta lines`);
  return `${lines.length} lines`;
}

export async function checkCodexHandoff(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  for (const { label, file, format } of SOURCES) {
    const { sandbox, codexHome, source, fake } = prepare(`codex-handoff-${format}`, file);
    try {
      let written: Written | undefined;
      await checks.run(agent.name, `hands ${label} off into a new Codex session`, async () => {
        written = await writeNewSession(sandbox, codexHome, source, format, dns);
        return `${written.via}; ${written.path.slice(codexHome.length + 1)}`;
      });
      if (!written) continue;
      const ours = readFileSync(written.path, "utf8");
      const { id, document } = written;
      await checks.run(agent.name, `resumes it by id (codex exec resume <id>): the document reaches the model verbatim`, async () => {
        const { thread, input } = await execResume(agent, dir, sandbox, codexHome, fake, [id], dns);
        must(thread === id, `continued thread ${thread}, not ${id}`);
        must(document !== "" && carriesVerbatim(input, document), "the handoff document did not reach the model verbatim");
        must(carriesVerbatim(input, PROMPT), "the prompt is not in its request");
        return checkRollout(written?.path ?? "", ours);
      });
    } finally {
      await fake.stop();
    }
  }
  await checkFoundAsNewest(agent, dir, checks, dns);
}

/** In a Codex home holding only the new session (never opened): `exec resume --last`, the picker, `resume --last`. */
async function checkFoundAsNewest(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const newest = async (name: string) => {
    const prepared = prepare(name, SOURCES[0].file);
    const written = await writeNewSession(prepared.sandbox, prepared.codexHome, prepared.source, "pi", dns);
    return { ...prepared, written };
  };
  const last = await newest("codex-last");
  try {
    await checks.run(agent.name, "finds the new session as the newest (codex exec resume --last), document and all", async () => {
      const { thread, input } = await execResume(agent, dir, last.sandbox, last.codexHome, last.fake, ["--last"], dns);
      must(thread === last.written.id, `continued thread ${thread}, not the new session ${last.written.id}`);
      must(carriesVerbatim(input, last.written.document), "the handoff document did not reach the model verbatim");
      return undefined;
    });
  } finally {
    await last.fake.stop();
  }
  for (const [words, shows] of [
    [["resume"], "lists it in its picker (codex resume)"],
    [["resume", "--last"], "opens it with codex resume --last, the document as the first message"],
  ] as const) {
    const tui = await newest("codex-tui");
    try {
      await checks.run(agent.name, shows, async () => {
        // The picker previews the message's start; an opened session shows as much of the message
        // as the screen holds, its end when it is long: either part of our wrapper shows it is ours.
        const marks = ["<handoff-context>", TRAILER];
        const screen = await readTuiScreen(join(dir, agent.bin), [...words, "--no-daemon"], tui.sandbox, tui.codexHome, marks);
        if (screen === undefined) return "not checked: tmux is not installed (the picker needs a terminal)";
        must(marks.some((mark) => screen.includes(mark)), `the screen does not show the session:\n${screen}`);
        return undefined;
      });
    } finally {
      await tui.fake.stop();
    }
  }
}
