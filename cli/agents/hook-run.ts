import { read, realpathSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { promisify } from "node:util";
import {
  MAX_HOOK_INPUT_BYTES,
  findFormat,
  type AgentIntegration,
  type HandoffJson,
  type HookAnswer,
  type HookReply,
  type HookRequest,
  leafBeforePrompt,
  parseHandoffArgs,
} from "../../core/index.ts";
import { loadSession } from "../sessions/load-session.ts";
import { errorCode } from "../io/fs-errors.ts";
import { HOOK_GUARD, handOffInTime, type HookOptions } from "./hook-handoff.ts";
import { shellQuote } from "../output/paste-line.ts";
import { asField } from "../output/terminal.ts";
import { agentHome } from "../sessions/agent-home.ts";
import { listedByAgent, opensFilesAnywhere, sessionsRootOf } from "../sessions/new-session-place.ts";
import type { Run } from "../run.ts";

/**
 * `agent hook <agent>`: the one entry point the agents call. It reads the agent's call, hands
 * off THAT session (the one the call names, never the newest of the folder) by running
 * `agent handoff` in this process, and answers as the agent expects; every failure is an answer
 * too, of one line. Nothing here throws to the user's agent.
 */

/** How long a hook waits for its stdin to end: the agents write it whole at once. */
const STDIN_WAIT_MS = 10_000;

const readAsync = promisify(read);

/** The hook's stdin, whole, or undefined when there is none (a terminal, closed, nothing); too much or too slow is a problem. */
export async function readHookStdin(run: Run): Promise<string | undefined | { problem: string }> {
  const { fd, isTTY } = run.io.stdin;
  if (fd < 0 || isTTY) return undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  const deadline = Date.now() + STDIN_WAIT_MS;
  const buffer = Buffer.alloc(64 * 1024);
  for (;;) {
    if (Date.now() > deadline) return { problem: "agent hook: the hook input did not end within 10 seconds" };
    let bytes: number;
    try {
      bytes = (await readAsync(fd, buffer, 0, buffer.length, null)).bytesRead;
    } catch (error) {
      if (errorCode(error) === "EAGAIN") {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      return undefined;
    }
    if (bytes === 0) break;
    total += bytes;
    if (total > MAX_HOOK_INPUT_BYTES) return { problem: "agent hook: the hook input is over 1 MB, more than any agent sends" };
    chunks.push(Buffer.from(buffer.subarray(0, bytes)));
  }
  return total === 0 ? undefined : Buffer.concat(chunks).toString("utf8");
}

/** Text that may go into the agent's one line: controls shown as escapes, never a line break of its own. */
function field(text: string): string {
  return asField(text);
}

/** The file a handoff request names, checked: a session file of that agent, where it keeps them, with that id. */
export function checkSession(
  run: Run,
  integration: AgentIntegration,
  request: { sessionPath: string; sessionId: string },
): string | { problem: string } {
  const { sessionPath, sessionId } = request;
  if (/[/\\\0-\x1f]|\.\./.test(sessionId) || sessionId.length > 200)
    return { problem: `agent hook: the session id ${JSON.stringify(sessionId.slice(0, 80))} is not an id` };
  if (!isAbsolute(sessionPath)) return { problem: `agent hook: the transcript path ${field(sessionPath)} is not absolute` };
  let real: string;
  try {
    real = realpathSync(sessionPath);
    if (!statSync(real).isFile()) return { problem: `agent hook: ${field(sessionPath)} is not a file` };
  } catch {
    return { problem: `agent hook: the session file ${field(sessionPath)} does not exist (yet): say something in the session first` };
  }
  const format = findFormat(integration.name);
  const home = agentHome(run);
  // Claude Code and Codex keep sessions only in their own folder, named by id: the file must be one of those, with that id.
  if (format && !opensFilesAnywhere(format) && !listedByAgent(format, real, sessionId, home))
    return {
      problem: `agent hook: the transcript ${field(sessionPath)} is not session ${sessionId} in ${integration.label}'s sessions folder ${field(sessionsRootOf(format, home))}`,
    };
  return real;
}

/** The last line a failed handoff said, without its `error:` tag: the one line the agent shows. */
function lastProblem(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.replace(/^\s*(?:\[\w+\]\s*)?(?:error|ERROR|✖)\s*:?\s*/, "").trim())
    .filter((line) => line !== "");
  return lines.at(-1) ?? "the handoff failed without a word";
}

/** Answers one call of the hook; undefined: not ours to answer (print nothing, exit 0). */
export async function answerHook(run: Run, options: HookOptions): Promise<HookAnswer | undefined> {
  const { integration, argv } = options;
  const fail = (text: string) => integration.answer({ kind: "failed", text: `agent handoff: ${text.replace(/^agent hook: /, "")}` });
  // Inside a hook's own handoff (the engine's agent calling its hooks): never again.
  if (run.env[HOOK_GUARD]) return undefined;
  const stdin = await readHookStdin(run);
  if (typeof stdin === "object") return fail(stdin.problem);
  const request = integration.readHook({ stdin, argv, home: agentHome(run) });
  if (request.kind === "ignore") return undefined;
  if (request.kind === "problem") return fail(request.message);
  const path = checkSession(run, integration, request);
  if (typeof path === "object") return fail(path.problem);
  const args = parseHandoffArgs(request.args);
  if ("problem" in args) return fail(args.problem);
  const leaf = request.prompt === undefined ? undefined : await leafBefore(run, path, request.prompt);
  return integration.answer(await handOffSession(run, options, request, { path, leaf, ...args }));
}

/** Which session a hook's handoff writes from, checked (`checkSession`), and what the call asked for. */
export interface SessionToHandOff {
  path: string;
  /** The entry the handoff ends at (before the hook's own prompt), when not the leaf. */
  leaf?: string | undefined;
  to: string | undefined;
  focus: string;
}

/** Hands off one session inside the hook's time (`/handoff`, and before a compaction): where the new session is, or one line why not. */
export async function handOffSession(
  run: Run,
  options: HookOptions,
  request: HookRequest & { kind: "handoff" },
  { path, leaf, to, focus }: SessionToHandOff,
): Promise<HookReply> {
  const failed = (text: string): HookReply => ({ kind: "failed", text: `agent handoff: ${text.replace(/^agent hook: /, "")}` });
  const handoffArgv = (chosen: string) => [
    "handoff",
    path,
    "--json",
    "--no-record",
    "--engine",
    chosen,
    ...(leaf === undefined ? [] : ["--leaf", leaf]),
    ...(to === undefined ? [] : ["--to", to]),
    ...(focus === "" ? [] : [`--focus=${focus}`]),
  ];
  const { ran, note, budget } = await handOffInTime(run, options, request, handoffArgv);
  if (ran.timedOut) return failed(`the hook's ${Math.round(budget.seconds)} s ran out before the handoff was written; nothing was written`);
  if (ran.code !== 0) return failed(lastProblem(ran.stderr));
  let result: HandoffJson;
  try {
    result = JSON.parse(ran.stdout) as HandoffJson;
  } catch {
    return failed("the handoff printed no result");
  }
  return handedOff(options.integration, result, note);
}

/** The entry before the hook's own prompt, when the agent recorded it first; undefined when it did not (or the file cannot be read: the handoff says why). */
async function leafBefore(run: Run, path: string, prompt: string): Promise<string | undefined> {
  try {
    const loaded = await loadSession(run, path, { logger: run.logger({ quiet: true }) });
    return leafBeforePrompt(loaded.analysis.branch.entries, prompt);
  } catch {
    return undefined;
  }
}

/** What the user reads: where the new session is and what to type, and the note when the offline engine stood in. */
function handedOff(integration: AgentIntegration, result: HandoffJson, note: string | undefined): HookReply {
  const where = `New session ${result.sessionId}: ${field(result.sessionFile)}`;
  const same = result.sessionFormat === integration.name;
  const next = same
    ? `Type /resume ${result.sessionId} to continue in it.`
    : result.resume === null
      ? `Open it in ${result.sessionFormat}.`
      : `Continue in ${result.sessionFormat} with: ${[...(result.resume.cwd === null ? [] : ["cd", result.resume.cwd, "&&"]), ...result.resume.argv].map((w) => (w === "&&" ? w : shellQuote(w))).join(" ")}`;
  return {
    kind: "handed-off",
    text: note === undefined ? `${where}\n${next}` : `${where}\n${next}\n${note}`,
    ...(note === undefined ? {} : { note }),
    sessionFile: result.sessionFile,
    sessionId: result.sessionId,
    sessionFormat: result.sessionFormat,
  };
}
