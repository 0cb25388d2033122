/**
 * Continuing the new session: the command its agent continues it with (the format's recipe,
 * `pi --session <file>`, `claude --resume <id>`, …), as a line for a person and as data for
 * `--json`, and `--exec`, which runs it in place of this process.
 */
import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { constants } from "node:os";
import type { ConsolaInstance } from "consola/core";
import { AgentError, type ResumeCommand, type SessionFormat } from "../core/index.ts";
import { agentHome, joinSegments } from "./agent-home.ts";
import { removeCancelHandlers } from "./cancel.ts";
import { pathUnder } from "./discover.ts";
import type { NewSessionPlace } from "./handoff-run.ts";
import { stderrWritten } from "./report.ts";

/** The command that continues the session at `path` in `format`'s agent; undefined when that agent cannot open a file there. */
export function resumeCommandFor(
  format: SessionFormat,
  path: string,
  sessionId: string,
  cwd: string | undefined,
): ResumeCommand | undefined {
  const root = joinSegments(format.location.sessionsRoot(agentHome()));
  // The file may not be written yet (checked before the model is asked): its folder says where it will be.
  const folder = pathUnder(root, dirname(path));
  const underRoot = folder === undefined ? undefined : [...folder, basename(path)];
  return format.resumeCommand({ sessionId, path, cwd: cwd || undefined, underRoot });
}

/** `'it''s'` quoting for a POSIX shell, only where a word needs it. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command as a person pastes it: with `cd <folder> &&` first when it runs elsewhere than `here`. */
export function describeResume(command: ResumeCommand, here: string): string {
  const line = command.argv.map(shellQuote).join(" ");
  return command.cwd !== undefined && command.cwd !== here ? `cd ${shellQuote(command.cwd)} && ${line}` : line;
}

/** For `--json`. */
export function resumeJson(command: ResumeCommand | undefined): { argv: string[]; cwd: string | null } | null {
  return command ? { argv: [...command.argv], cwd: command.cwd ?? null } : null;
}

/** Why there is no command: the agent opens files only from its own folder. */
export function noResumeReason(format: SessionFormat, path: string): string {
  return `${path}: ${format.label} continues sessions only from its own folder (${joinSegments(format.location.sessionsRoot(agentHome()))}), so there is no command that continues this one`;
}

/** Whether our stdin and stdout are a terminal, as `--exec` needs them. */
export interface Terminal {
  stdin: boolean;
  stdout: boolean;
}

const processTerminal = (): Terminal => ({ stdin: Boolean(process.stdin.isTTY), stdout: Boolean(process.stdout.isTTY) });

/**
 * Checked before anything is asked or written, for `--exec`: we run in a terminal (the agent's
 * interactive screen takes it over; in a pipe it would write its screen into the document's
 * reader, and read the pipe's end as its input), a command can continue a session written to
 * `place`, and the agent's program is on the PATH.
 */
export function checkCanContinue(
  format: SessionFormat,
  place: NewSessionPlace,
  cwd: string | undefined,
  terminal: Terminal = processTerminal(),
): void {
  if ("stdout" in place) throw new AgentError("USAGE", "-o - writes no session file for --exec to continue; use one of them");
  // The file's own name is not known yet; its folder decides.
  const path = "path" in place ? place.path : join(place.folder(new Date()), "new-session.jsonl");
  const command = resumeCommandFor(format, path, "00000000-0000-0000-0000-000000000000", cwd);
  if (command === undefined) throw new AgentError("USAGE", `--exec: ${noResumeReason(format, path)}; leave out -o, or --exec`);
  const [name = ""] = command.argv;
  const program = Bun.which(name);
  const who = name === format.label ? name : `${name} (${format.label})`;
  if (program === null)
    throw new AgentError(
      "USAGE",
      `--exec: ${who} is not on the PATH, so the new session cannot be continued here; leave out --exec, or put ${name} on the PATH`,
    );
  const notTerminal = [terminal.stdin ? undefined : "stdin", terminal.stdout ? undefined : "stdout"].filter((name) => name !== undefined);
  if (notTerminal.length > 0) {
    throw new AgentError(
      "USAGE",
      `--exec opens ${format.label} in this terminal, but ${notTerminal.join(" and ")} ${notTerminal.length > 1 ? "are" : "is"} not a terminal; leave out --exec (the command that continues the new session is printed)`,
    );
  }
}

/** Says on stderr how to continue the new session, or why no command can. */
export function sayHowToContinue(
  command: ResumeCommand | undefined,
  format: SessionFormat,
  sessionFile: string,
  logger: ConsolaInstance,
): void {
  if (command === undefined) logger.info(noResumeReason(format, sessionFile));
  else logger.info(`Continue with: ${describeResume(command, process.cwd())}`);
}

/** The folder to run it in: the session's own, when it is still there. */
function folderToRunIn(command: ResumeCommand, logger: ConsolaInstance): string | undefined {
  if (command.cwd === undefined) return undefined;
  try {
    if (statSync(command.cwd).isDirectory()) return command.cwd;
  } catch {
    // Gone: said below.
  }
  logger.warn(`${command.cwd} (the session's folder) is not there any more; running ${command.argv[0]} in ${process.cwd()}`);
  return undefined;
}

/**
 * `--exec`: becomes the agent's command. Where the runtime can (POSIX), the process image is
 * replaced (execve): same process id, the terminal and every signal go straight to the agent,
 * and its exit status is the shell's to see. Elsewhere (Windows) the agent runs as a child with
 * our stdin, stdout and stderr; Ctrl-C reaches it from the terminal directly, SIGTERM and SIGHUP
 * sent to us are passed on, and we exit with its status (128 + the signal's number when a
 * signal ended it). The messages already written are waited for first.
 */
export async function continueInAgent(command: ResumeCommand, logger: ConsolaInstance): Promise<number> {
  const [name = "", ...args] = command.argv;
  const program = Bun.which(name);
  if (program === null)
    throw new AgentError("HANDOFF_FAILED", `${name} is no longer on the PATH; continue with: ${describeResume(command, process.cwd())}`);
  const cwd = folderToRunIn(command, logger);
  await stderrWritten();
  if (typeof process.execve === "function" && process.platform !== "win32") {
    if (cwd !== undefined) process.chdir(cwd);
    // Bun leaves SIGPIPE and SIGXFSZ ignored across the exec, as Node-based agents set them anyway.
    process.execve(program, [name, ...args], process.env);
  }
  return await runAsChild([program, ...args], cwd);
}

/** Runs `argv` with our terminal, passing on the signals sent to us alone; resolves to the status to exit with. */
export async function runAsChild(argv: readonly string[], cwd: string | undefined): Promise<number> {
  removeCancelHandlers();
  const child = Bun.spawn([...argv], { cwd, env: process.env, stdio: ["inherit", "inherit", "inherit"] });
  // The terminal sends Ctrl-C to the whole foreground group, the agent included: passing it on would send it twice.
  const ignore = () => {};
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on("SIGINT", ignore);
  process.on("SIGTERM", forward);
  process.on("SIGHUP", forward);
  try {
    const code = await child.exited;
    const signal = child.signalCode;
    if (signal === null || signal === undefined) return code;
    return 128 + (typeof signal === "number" ? signal : constants.signals[signal]);
  } finally {
    process.off("SIGINT", ignore);
    process.off("SIGTERM", forward);
    process.off("SIGHUP", forward);
  }
}
