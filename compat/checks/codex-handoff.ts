/**
 * Codex finds a new session we wrote without being told its id, in two homes: one holding only
 * that session (never opened: Codex's first scan of its folder picks the file up), and one where
 * Codex has already run twice in the project (its thread index `state_5.sqlite` exists with its
 * first scan done, so Codex lists threads from it alone and the new rollout lists only through
 * the row `agent handoff` adds). In each, `codex exec resume --last` continues the new session
 * with the document reaching the model verbatim, its picker (`codex resume`, in tmux) lists it,
 * newest first, and `codex resume --last` opens it. Codex does neither for a file it never saw
 * unless the file has the right shape (its `user_message` event). Resuming by id, from every
 * source format, is the handoff matrix's (matrix.ts); the row itself, against the one Codex's own
 * scan makes, is codex-index.ts's.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import { TRAILER } from "../../core/handoff/wrap.ts";
import { HANDOFF_OPEN } from "../../core/session/formats/handoff-text.ts";
import type { Agent } from "../agents.ts";
import { SERVED_MODELS } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { jsonlFilesUnder } from "../transcripts/context.ts";
import { execResume, execStart, prepareCodex } from "./codex.ts";
import { readTuiScreen, startInScreen } from "./codex-tui.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";
import { HISTORY_PROMPTS } from "./history.ts";
import { carriesVerbatim } from "./session-file.ts";

const PROMPT = "COMPAT-NEXT: what is next?";
/** The earlier interactive thread of a used home: the picker must list it after the new session. */
const INTERACTIVE_HISTORY = "COMPAT-HISTORY: an earlier interactive task";
/** The session handed off (a pi session; its cwd is moved into the sandbox). */
const SOURCE = "fixtures/sessions/v3-branches.jsonl";

interface Written {
  path: string;
  id: string;
  /** The text of the user message that opens it: what must reach the model. */
  document: string;
}

/** The pi session with its working directory moved to `cwd` (Codex refuses a session whose folder is gone). */
function withCwd(text: string, cwd: string): string {
  const lines = text.split("\n");
  const first: unknown = JSON.parse(lines[0] ?? "{}");
  if (isObject(first)) lines[0] = JSON.stringify({ ...first, cwd });
  return lines.join("\n");
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

/** Writes the handed-off session into Codex's folders with `agent handoff --to codex`. */
async function writeNewSession(sandbox: Sandbox, codexHome: string, source: string, dns: DnsLog): Promise<Written> {
  const env = sandbox.env({ CODEX_HOME: codexHome });
  const before = new Set(jsonlFilesUnder(join(codexHome, "sessions")));
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "handoff", source, "--to", "codex", "--engine", "offline", "--quiet"],
    { cwd: sandbox.project, env, timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent handoff --to codex failed: ${describeRun(run)}`);
  // --quiet leaves only warnings: a row left out of Codex's index would say so here.
  must(run.stderr.trim() === "", `agent handoff --to codex warned: ${run.stderr.trim()}`);
  const [path, ...more] = jsonlFilesUnder(join(codexHome, "sessions")).filter((file) => !before.has(file));
  must(
    path !== undefined && more.length === 0,
    `agent handoff --to codex wrote ${more.length + (path ? 1 : 0)} rollouts under CODEX_HOME/sessions`,
  );
  const id = /-([0-9a-f-]{36})\.jsonl$/.exec(path)?.[1];
  must(id !== undefined, `the new rollout's name carries no id: ${path}`);
  return { path, id, document: openingText(path) };
}

/** A fresh sandbox with Codex pointed at a fake, and the source's cwd moved into it. */
function prepare(
  name: string,
  file: string,
  elsewhere: boolean,
): { sandbox: Sandbox; codexHome: string; source: string; fake: FakeModelServer } {
  const sandbox = createSandbox(name);
  const fake = startFakeModelServer(() => ({ text: "COMPAT-REPLY: carrying on." }), Object.values(SERVED_MODELS).flat());
  const codexHome = prepareCodex(sandbox, fake, elsewhere ? [`sqlite_home = "${join(sandbox.home, "codex-db")}"`] : []);
  const source = join(sandbox.project, "source.jsonl");
  writeFileSync(source, withCwd(readFileSync(join(REPO, file), "utf8"), sandbox.project));
  return { sandbox, codexHome, source, fake };
}

/**
 * The homes: one holding nothing yet, one where Codex ran twice in the project (its thread index
 * scanned), and one such whose index lies in the folder `sqlite_home` names (the screens once).
 */
const HOMES = [
  { used: false, elsewhere: false, screens: true, where: "in a fresh home" },
  { used: true, elsewhere: false, screens: true, where: "in a used home (its thread index scanned)" },
  { used: true, elsewhere: true, screens: false, where: "in a used home whose thread index is in sqlite_home" },
] as const;

/** In each home: `exec resume --last`, the picker (newest first), `resume --last`. */
export async function checkCodexHandoff(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  for (const { used, elsewhere, screens, where } of HOMES) {
    const newest = async (name: string) => {
      const prepared = prepare(`${name}${used ? "-used" : ""}`, SOURCE, elsewhere);
      if (used) {
        for (const prompt of HISTORY_PROMPTS) await execStart(agent, dir, prepared.sandbox, prepared.codexHome, prompt, dns);
        // The picker lists interactive threads only: one of those too, older than the new session.
        await startInScreen(join(dir, agent.bin), INTERACTIVE_HISTORY, prepared.sandbox, prepared.codexHome, prepared.fake);
      }
      const written = await writeNewSession(prepared.sandbox, prepared.codexHome, prepared.source, dns);
      return { ...prepared, written };
    };
    const last = await newest("codex-last");
    try {
      await checks.run(
        agent.name,
        `${where}: finds the new session as the newest (codex exec resume --last), document and all`,
        async () => {
          if (elsewhere) {
            const inHome = existsSync(join(last.codexHome, "state_5.sqlite"));
            must(
              existsSync(join(last.sandbox.home, "codex-db", "state_5.sqlite")) && !inHome,
              "Codex did not keep its index in sqlite_home",
            );
          }
          const { thread, input } = await execResume(agent, dir, last.sandbox, last.codexHome, last.fake, ["--last"], PROMPT, dns);
          must(thread === last.written.id, `continued thread ${thread}, not the new session ${last.written.id}`);
          must(carriesVerbatim(input, last.written.document), "the handoff document did not reach the model verbatim");
          return undefined;
        },
      );
    } finally {
      await last.fake.stop();
    }
    if (!screens) continue;
    for (const [words, shows] of [
      [
        ["resume"],
        used ? "lists it in its picker (codex resume) first, above the earlier thread" : "lists it in its picker (codex resume)",
      ],
      [["resume", "--last"], "opens it with codex resume --last, the document as the first message"],
    ] as const) {
      const tui = await newest("codex-tui");
      try {
        await checks.run(agent.name, `${where}: ${shows}`, async () => {
          // The picker previews the message's start; an opened session shows as much of the message
          // as the screen holds, its end when it is long: either part of our wrapper shows it is ours.
          const marks = [HANDOFF_OPEN, TRAILER];
          const screen = await readTuiScreen(join(dir, agent.bin), [...words, "--no-daemon"], tui.sandbox, tui.codexHome, marks);
          if (screen === undefined) return "not checked: tmux is not installed (the picker needs a terminal)";
          must(
            marks.some((mark) => screen.includes(mark)),
            `the screen does not show the session:\n${screen}`,
          );
          if (!used || words.length > 1) return undefined;
          // Newest first: the earlier interactive thread is listed, after it.
          const earlier = screen.indexOf(INTERACTIVE_HISTORY);
          must(earlier > screen.indexOf(HANDOFF_OPEN), `the new session is not listed first, above the earlier one:\n${screen}`);
          return undefined;
        });
      } finally {
        await tui.fake.stop();
      }
    }
  }
}
