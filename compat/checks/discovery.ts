/**
 * No paths to type, judged by the real agents, in homes with history (history.ts): each agent
 * first runs twice in the sandbox project itself, as a user's earlier work, so its home holds its
 * older sessions, indexes and notes. Then each agent's real transcript is put where that agent
 * keeps the project's sessions (as the matrix puts its sources), and `agent handoff --json` runs
 * in the project with NO path: it must pick that file, say so on stderr, and print the command
 * that continues the new session. Then
 * - the agent's own "continue the most recent session of this folder" (`pi -c`, `omp -c`,
 *   `claude -c`, `codex exec resume --last`) continues the NEW session, not the source that
 *   recording touched nor the earlier work: the document reaches the model. omp in the terminal
 *   where it ran before follows its note for that terminal instead and reopens that session, as
 *   the README says (the printed command is the way there);
 * - the printed command (`resume.argv` in `--json`), run as it is in a terminal in `resume.cwd`
 *   with the agent on the PATH under that command's name, opens it too: a prompt typed there
 *   reaches the model after the document.
 * Each agent is set up and resumed as the matrix's targets are (targets.ts). Around the
 * continuing, `agent handoff` with no path again: before it, the new session holds nothing but
 * our document and the source is still the one to hand off; after it, the agent's own turn in the
 * new session makes it work, and it is the one handed off.
 */
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { wrapHandoffDocument } from "../../core/handoff/wrap.ts";
import { isObject, stringField } from "../../core/json.ts";
import type { FileAgentInstall } from "../agents.ts";
import type { FakeModelServer } from "../fake/server.ts";
import { outsideNames, type DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent } from "../sandbox.ts";
import { HISTORY_PROMPTS, HISTORY_TERMINAL, makeHistory, ompNotedSession } from "./history.ts";
import { placeSource } from "./matrix-sources.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";
import { startHandoffFake } from "./resume.ts";
import { carriesVerbatim, contentText, conversationRequests } from "./session-file.ts";
import { TARGETS, type TargetRun } from "./targets.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";

const NEXT = "COMPAT-NEXT: carry on from the handoff";
const TYPED = "COMPAT-TYPED: carry on from the handoff";

interface HandedOff {
  /** The document as the new session hands it to the model. */
  wrapped: string;
  /** The new session's file. */
  sessionFile: string;
  resume: { argv: string[]; cwd: string };
}

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((word) => typeof word === "string");

/** `agent handoff --json` in the project with no path, the sandbox as HOME: it must pick `placed`. */
async function handOffHere({ sandbox, dns }: TargetRun, placed: string): Promise<HandedOff> {
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "handoff", "--engine", "offline", "--json"],
    { cwd: sandbox.project, env: sandbox.env(), timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent handoff failed: ${describeRun(run)}`);
  const json: unknown = JSON.parse(run.stdout);
  must(isObject(json), `--json printed no object: ${run.stdout.slice(0, 200)}`);
  must(json.sourceFile === placed, `handed off ${String(json.sourceFile)}, not ${placed}`);
  must(run.stderr.includes(placed), `stderr does not name the file it handed off: ${run.stderr}`);
  const document = stringField(json, "document");
  const sessionFile = stringField(json, "sessionFile");
  const resume = json.resume;
  must(document !== undefined && sessionFile !== undefined, "--json has no document or no sessionFile");
  must(
    isObject(resume) && isStrings(resume.argv) && typeof resume.cwd === "string",
    `resume is not {argv, cwd}: ${JSON.stringify(resume)}`,
  );
  return { wrapped: wrapHandoffDocument(document), sessionFile, resume: { argv: resume.argv, cwd: resume.cwd } };
}

/** `agent handoff --dry-run` in the project with no path (writes nothing): the file it names as handed off, and the offline document. */
async function wouldHandOff({ sandbox, dns }: TargetRun): Promise<{ file: string; document: string }> {
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "handoff", "--engine", "offline", "--dry-run"],
    { cwd: sandbox.project, env: sandbox.env(), timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent handoff --dry-run failed: ${describeRun(run)}`);
  const file = /^Handing off the newest .*?, updated [^:]*: (.*?)(?: \(the .*)?$/m.exec(run.stderr)?.[1];
  must(file !== undefined, `stderr does not say which file it would hand off: ${run.stderr}`);
  return { file, document: run.stdout };
}

/** The messages of the first conversation request since `from` that carries `prompt` as a message (not inside a request for a title). */
function requestWith(fake: FakeModelServer, from: number, prompt: string): unknown[] | undefined {
  return conversationRequests(fake.requests.slice(from), "").find((request) => carriesVerbatim(request.messages, prompt))?.messages;
}

/** Each message's role and the start of its text, for a failure message. */
function describeMessages(messages: readonly unknown[]): string {
  return messages
    .map((message) =>
      isObject(message) ? `${String(message.role ?? message.type)}: ${JSON.stringify(contentText(message.content)).slice(0, 160)}` : "?",
    )
    .join("; ");
}

/** A folder holding the agent under the name the printed command calls it (`pi`, `claude`, …), for PATH. */
function binFolder({ agent, dir, sandbox }: TargetRun, name: string): string {
  const bin = join(sandbox.tmp, "bin");
  mkdirSync(bin, { recursive: true });
  symlinkSync(join(dir, agent.bin), join(bin, name));
  return bin;
}

/**
 * Runs the printed command in a terminal, types `TYPED` once its screen has settled, and returns
 * the request that carried it; undefined when tmux is not installed.
 */
async function typeIntoPrinted(
  run: TargetRun,
  resume: HandedOff["resume"],
): Promise<{ messages: unknown[] | undefined; screen: string } | undefined> {
  const env = TARGETS[run.agent.name].env(run);
  env.PATH = `${binFolder(run, resume.argv[0] ?? "")}:${env.PATH ?? ""}`;
  const terminal = openTerminal({ argv: resume.argv, cwd: resume.cwd, env, sandbox: run.sandbox, rows: 60 });
  if (terminal === undefined) return undefined;
  const from = run.fake.requests.length;
  try {
    // Settled: the same non-blank screen twice in a row, half a second apart.
    let last = "";
    await waitFor(() => {
      const screen = terminal.screen();
      const settled = screen.trim() !== "" && screen === last;
      last = screen;
      return settled;
    }, 40_000);
    await terminal.typeLine(TYPED);
    // A screen still loading the session keeps the typed line as a draft and ignores Enter:
    // pressed again every few seconds (Enter on an empty prompt does nothing).
    for (let tries = 0; tries < 12; tries++) {
      const sent = await waitFor(() => requestWith(run.fake, from, TYPED) !== undefined, 5_000);
      if (sent) break;
      terminal.pressEnter();
    }
    // An agent that exited leaves its last screen (terminal.ts keeps the pane): its error, if any.
    return { messages: requestWith(run.fake, from, TYPED), screen: compactScreen(terminal.screen()) };
  } finally {
    terminal.close();
  }
}

export async function checkDiscovery(agent: FileAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const sandbox = createSandbox(`discovery-${agent.name}`);
  const fake = startHandoffFake();
  const run: TargetRun = { agent, dir, sandbox, fake, dns };
  const target = TARGETS[agent.name];
  try {
    await target.prepare(run);
    target.prepareScreen(run);
    const used = await checks.run(agent.name, "a home with history: the agent itself ran twice in the project before", () =>
      makeHistory(run),
    );
    if (!used) return;
    const placed = placeSource(agent.name, sandbox);
    let made: HandedOff | undefined;
    await checks.run(agent.name, "agent handoff with no path, in the project, hands off its newest session and says which", async () => {
      made = await handOffHere(run, placed);
      return `continue with: ${made.resume.argv.map((word) => (word.includes("/") ? "<file>" : word)).join(" ")}`;
    });
    if (!made) return;
    const { wrapped, resume, sessionFile } = made;
    await checks.run(agent.name, "run again, it hands off the source again: the new session holds nothing but our document", async () => {
      const again = await wouldHandOff(run);
      must(again.file === placed, `it would hand off ${again.file}, not the source ${placed}`);
      return undefined;
    });
    await checks.run(
      agent.name,
      'then its own "continue the most recent session" continues the new session: the document reaches the model',
      async () => {
        const turn = await target.resume(run, undefined, NEXT);
        must(carriesVerbatim(turn.messages, wrapped), "the handoff document is not in its request: it continued another session");
        return undefined;
      },
    );
    if (agent.name === "omp")
      await checks.run(
        agent.name,
        "in the terminal where it ran before, omp -c follows its note there and reopens that session",
        async () => {
          const noted = ompNotedSession(run);
          const turn = await target.resume(run, undefined, NEXT, HISTORY_TERMINAL);
          must(
            !carriesVerbatim(turn.messages, wrapped),
            "it continued the new session: omp no longer follows its note first (the README says it does)",
          );
          must(
            carriesVerbatim(turn.messages, HISTORY_PROMPTS[1]),
            `it continued neither the new session nor the one its note names (${noted})`,
          );
          return "as the README says; the printed omp --resume <file> opens the new one there";
        },
      );
    await checks.run(
      agent.name,
      "once continued, agent handoff with no path hands off the new session: the agent's turn in it is work",
      async () => {
        const after = await wouldHandOff(run);
        must(after.file !== placed, `it would hand off the source ${placed} again, passing over the session the agent continued`);
        must(after.document.includes(`> ${NEXT}`), `its last user request is not ${NEXT}: ${after.file} (written ${sessionFile})`);
        return after.file === sessionFile ? undefined : `the agent continued in a file of its own: ${after.file}`;
      },
    );
    await checks.run(
      agent.name,
      "the printed resume command, run as it is in a terminal in its cwd, continues the new session",
      async () => {
        const before = dns.queries.length;
        const typed = await typeIntoPrinted(run, resume);
        if (typed === undefined) return "not checked: tmux is not installed";
        const outside = outsideNames(dns.queries.slice(before)).filter((name) => !target.screenLookups.includes(name));
        must(outside.length === 0, `tried to reach ${outside.join(", ")}`);
        must(typed.messages !== undefined, `the typed prompt never reached the model; the screen:\n${typed.screen}`);
        must(
          carriesVerbatim(typed.messages, wrapped),
          `the handoff document is not in its request, which has: ${describeMessages(typed.messages)}`,
        );
        return undefined;
      },
    );
  } finally {
    await fake.stop();
  }
}
