/**
 * Continuing the new session: the command its agent continues it with (the format's recipe,
 * `pi --session <file>`, `claude --resume <id>`, …), as a line for a person and as data for
 * `--json`, and `--exec`, which runs it in place of this process.
 */
import { accessSync, closeSync, constants as fsConstants, openSync, readSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { ConsolaInstance } from "consola/core";
import { AgentError, type AgentHome, type ResumeCommand, type SessionFormat } from "../../../core/index.ts";
import { agentHome } from "../../sessions/agent-home.ts";
import { commandToPaste, FailureWithCommand } from "../../output/paste-line.ts";
import type { PasteLine } from "../../output/printed.ts";
import { idNamedBy, idNamingOf, pathUnderSessionsRoot, sessionsRootOf, type NewSessionPlace } from "../../sessions/new-session-place.ts";
import { currentFolderIfAny } from "../../output/stderr.ts";
import type { Run } from "../../run.ts";
import { CommandLineError } from "../../flags/usage.ts";
import { errorCode, fsReason, FS_REASONS } from "../../io/fs-errors.ts";
import { builtin } from "../../io/builtins.ts";

/**
 * The command that continues the session at `path` in `format`'s agent; undefined when that
 * agent cannot open a file there, or by that name (its name must carry the session's id).
 */
export function resumeCommandFor(
  home: AgentHome,
  format: SessionFormat,
  path: string,
  sessionId: string,
  cwd: string | undefined,
  nameKnown = true,
): ResumeCommand | undefined {
  // A session kept as rows is continued by its id, wherever its database is.
  if (format.rows) return { argv: format.rows.resumeById(sessionId), cwd: cwd !== undefined && isAbsolute(cwd) ? cwd : undefined };
  if (nameKnown && idNamedBy(format, path, sessionId, home) !== sessionId) return undefined;
  const underRoot = pathUnderSessionsRoot(format, path, home);
  // A relative cwd names no folder (it would be taken from wherever the command is pasted): no `cd` then, as for none.
  return format.resumeCommand({ sessionId, path, cwd: cwd !== undefined && isAbsolute(cwd) ? cwd : undefined, underRoot, env: home.env });
}

/** What is said in place of the command when its line cannot be printed: where the exact one is. */
const resumeInJson = (why: string) => `the command in --json's "resume" (not printed here: ${why})`;

/** The command as a person pastes it: with `cd <folder> &&` first when it runs elsewhere than `here` (see PasteLine). */
export function describeResume(command: ResumeCommand, here: string | undefined): PasteLine {
  return commandToPaste(command.argv, command.cwd, here, resumeInJson);
}

/** For `--json`. */
export function resumeJson(command: ResumeCommand | undefined): { argv: string[]; cwd: string | null } | null {
  return command ? { argv: [...command.argv], cwd: command.cwd ?? null } : null;
}

/** Why there is no command: the agent resumes only a file named after its id, or only from its own folder. */
export function noResumeReason(home: AgentHome, format: SessionFormat, path: string): string {
  const naming = idNamingOf(format, home);
  if (naming.byName && idNamedBy(format, path, "", home) === undefined) {
    return `${path}: ${format.label} resumes a session only from a file named ${naming.nameNeeded}, so there is no command that continues this one (name it so: the uuid in its name becomes the session's id)`;
  }
  return `${path}: ${format.label} continues sessions only from its own folder (${sessionsRootOf(format, home)}), so there is no command that continues this one`;
}

const NOT_A_PROGRAM = FS_REASONS.ENOEXEC;

/** Why the system would not run a program: a noexec mount refuses with EACCES even with the x bit set. */
function execFailure(error: unknown): string {
  return errorCode(error) === "EACCES" ? `${fsReason(error)} (on a noexec mount?)` : fsReason(error);
}

/**
 * Why the system would refuse to run `program`, checked before anything is written (a failed
 * exec leaves the runtime printing its own warning); undefined when it looks runnable. On Linux
 * a program is an ELF binary or a script starting with `#!`; elsewhere only the permission is checked.
 */
function whyNotRunnable(program: string): string | undefined {
  try {
    accessSync(program, fsConstants.X_OK);
    if (builtin("node:os").platform() !== "linux") return undefined;
    const fd = openSync(program, "r");
    try {
      const start = new Uint8Array(4);
      const read = readSync(fd, start, 0, 4, 0);
      const text = new TextDecoder("latin1").decode(start.subarray(0, read));
      return text.startsWith("#!") || text === "\x7fELF" ? undefined : NOT_A_PROGRAM;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return execFailure(error);
  }
}

/** `name` on the run's PATH (`Bun.which` alone reads the process's). */
function whichIn(run: Run, name: string): string | null {
  return Bun.which(name, { PATH: run.env.PATH ?? "" });
}

/** Whether our stdin and stdout are a terminal, as `--exec` needs them. */
export interface Terminal {
  stdin: boolean;
  stdout: boolean;
}

/**
 * Checked before anything is asked or written, for `--exec`: we run in a terminal (the agent's
 * interactive screen takes it over; in a pipe it would write its screen into the document's
 * reader, and read the pipe's end as its input), a command can continue a session written to
 * `place`, and the agent's program is on the PATH.
 */
export function checkCanContinue(
  run: Run,
  format: SessionFormat,
  place: NewSessionPlace,
  cwd: string | undefined,
  terminal: Terminal = { stdin: Boolean(run.io.stdin.isTTY), stdout: run.stdout.isTTY },
): void {
  const home = agentHome(run);
  if ("stdout" in place) throw new CommandLineError("-o - writes no session file for --exec to continue; use one of them");
  // The file's own name is not known yet; its folder decides.
  const path = "path" in place ? place.path : "database" in place ? place.database : join(place.folder(new Date()), "new-session.jsonl");
  // In the agent's folder the file gets the name its agent gives it, which carries its id. The
  // command is the one for the folder it will run in (see execFolder).
  const command = resumeCommandFor(
    home,
    format,
    path,
    idNamedBy(format, path, "00000000-0000-0000-0000-000000000000", home) ?? "",
    execFolder(run, cwd).folder,
    "path" in place,
  );
  if (command === undefined) throw new CommandLineError(`--exec: ${noResumeReason(home, format, path)}; leave out -o, or --exec`);
  const [name = ""] = command.argv;
  const program = whichIn(run, name);
  const who = name === format.label ? name : `${name} (${format.label})`;
  if (program === null)
    throw new AgentError(
      "USAGE",
      `--exec: ${who} is not on the PATH, so the new session cannot be continued here; leave out --exec, or put ${name} on the PATH`,
    );
  const unrunnable = whyNotRunnable(program);
  if (unrunnable !== undefined)
    throw new AgentError(
      "HANDOFF_FAILED",
      `--exec: cannot start ${program}: ${unrunnable}; nothing was written (leave out --exec, or mend ${name})`,
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
  run: Run,
  command: ResumeCommand | undefined,
  format: SessionFormat,
  sessionFile: string,
  logger: ConsolaInstance,
): void {
  const home = agentHome(run);
  if (command === undefined && idNamedBy(format, sessionFile, "", home) === undefined)
    logger.warn(noResumeReason(home, format, sessionFile));
  else if (command === undefined) logger.info(noResumeReason(home, format, sessionFile));
  else logger.info("Continue with:", describeResume(command, currentFolderIfAny(run.cwd)));
}

/**
 * The folder `--exec` runs the agent in: the session's own while it is still there, else the
 * current folder (`gone` then). The command is computed for this folder, not the session's: an
 * agent that finds a session by id only from its cwd's project folder (Claude Code) gets the
 * file's path instead when it runs elsewhere.
 */
export function execFolder(run: Run, cwd: string | undefined): { folder: string | undefined; gone: boolean } {
  if (cwd === undefined) return { folder: undefined, gone: false };
  try {
    if (statSync(cwd).isDirectory()) return { folder: cwd, gone: false };
  } catch {
    // Gone: the current folder instead.
  }
  return { folder: currentFolderIfAny(run.cwd), gone: true };
}

/**
 * `--exec`: becomes the agent's command. Where the runtime can (POSIX), the process image is
 * replaced (execve): same process id, the terminal and every signal go straight to the agent,
 * and its exit status is the shell's to see. Elsewhere (Windows) the agent runs as a child with
 * our stdin, stdout and stderr; Ctrl-C reaches it from the terminal directly, SIGTERM and SIGHUP
 * sent to us are passed on, and we exit with its status (128 + the signal's number when a
 * signal ended it). The messages already written are waited for first.
 */
export async function continueInAgent(
  run: Run,
  format: SessionFormat,
  sessionFile: string,
  sessionId: string,
  sessionCwd: string | undefined,
  logger: ConsolaInstance,
): Promise<number> {
  const home = agentHome(run);
  const { folder, gone } = execFolder(run, sessionCwd);
  const command = resumeCommandFor(home, format, sessionFile, sessionId, folder);
  if (command === undefined) throw new AgentError("HANDOFF_FAILED", `--exec: ${noResumeReason(home, format, sessionFile)}`);
  const [name = "", ...args] = command.argv;
  if (gone) logger.warn(`${sessionCwd} (the session's folder) is not there any more; running ${name} in ${folder ?? "this folder"}`);
  const program = whichIn(run, name);
  if (program === null)
    throw new FailureWithCommand(
      "HANDOFF_FAILED",
      `${name} is no longer on the PATH; continue with:`,
      describeResume(command, currentFolderIfAny(run.cwd)),
    );
  const cwd = command.cwd;
  await run.stderr.written();
  if (run.host.execve !== undefined) {
    try {
      run.host.execve(program, [name, ...args], run.env, cwd);
    } catch (error) {
      // Not a program this system runs (a script without #!, a noexec mount): the session is written all the same.
      throw new FailureWithCommand(
        "HANDOFF_FAILED",
        `could not start ${program}: ${execFailure(error)}; the new session is written, continue with:`,
        describeResume(command, currentFolderIfAny(run.cwd)),
      );
    }
  }
  return await runAsChild(run, [program, ...args], cwd ?? run.cwd);
}

/** Runs `argv` with our terminal, passing on the signals sent to us alone; resolves to the status to exit with. */
export async function runAsChild(run: Run, argv: readonly string[], cwd: string | undefined): Promise<number> {
  const child = Bun.spawn([...argv], { cwd: cwd ?? run.cwd, env: { ...run.env }, stdio: ["inherit", "inherit", "inherit"] });
  const restore = run.host.handOverSignals((signal) => child.kill(signal));
  try {
    const code = await child.exited;
    const signal = child.signalCode;
    if (signal === null || signal === undefined) return code;
    return 128 + (typeof signal === "number" ? signal : builtin("node:os").constants.signals[signal]);
  } finally {
    restore();
  }
}
