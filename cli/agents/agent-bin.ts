import { accessSync, constants, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { AgentError, describeMissingAgent, type AgentEngine } from "../../core/index.ts";
import { fsReason } from "../io/fs-errors.ts";
import { describeSource, type Resolved } from "../flags/settings.ts";

/**
 * Where an agent engine's executable is: the one the user named (`AGENT_<NAME>_BIN`, or
 * `<name>-bin` in the config file), else the first `<command>` on PATH that is an executable
 * file. A PATH entry that is missing, a folder where the file should be, or a file without the
 * execute bit is passed over, as a shell does.
 */

type Env = Record<string, string | undefined>;

/** Why `path` cannot be run, or undefined when it can. */
export function whyNotExecutable(path: string): string | undefined {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (error) {
    return fsReason(error);
  }
  if (!isFile) return "not a file";
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return "not executable";
  }
  return undefined;
}

/** The first executable `command` on `PATH`; empty entries (the current folder) are not searched. */
export function findOnPath(command: string, path: string | undefined): string | undefined {
  for (const folder of (path ?? "").split(delimiter)) {
    if (folder === "" || !isAbsolute(folder)) continue;
    const candidate = join(folder, command);
    if (whyNotExecutable(candidate) === undefined) return candidate;
  }
  return undefined;
}

/**
 * The executable to run for `engine`, or an error that says which setting is wrong or that
 * the agent is not installed (exit 1, "claude not found on PATH: install Claude Code or set
 * AGENT_CLAUDE_CODE_BIN").
 */
export function findAgentExecutable(engine: AgentEngine, named: Resolved<string | undefined> | undefined, env: Env, cwd: string): string {
  const given = named?.value;
  if (given === undefined || named === undefined) {
    const found = findOnPath(engine.command, env.PATH);
    if (found === undefined) throw new AgentError("HANDOFF_FAILED", describeMissingAgent(engine));
    return found;
  }
  const where = named.source.kind === "env" ? `${named.source.name}=${given}` : `${describeSource(named.source)}: ${given}`;
  // A bare name is a command to look up, as a shell would; anything with a slash is a path.
  if (!given.includes("/")) {
    const found = findOnPath(given, env.PATH);
    if (found === undefined) throw new AgentError("HANDOFF_FAILED", `${where}: not found on PATH`);
    return found;
  }
  const path = named.source.kind === "file" ? pathInConfigFile(given, named.source.path, env.HOME, where) : resolve(cwd, given);
  const reason = whyNotExecutable(path);
  const shown = path === given ? where : `${where} (${path})`;
  if (reason !== undefined) throw new AgentError("HANDOFF_FAILED", `${shown}: ${reason}; point it at the ${engine.label} executable`);
  return path;
}

/**
 * A path written in the config file: `~/` is the home folder (no shell expands it there), and a
 * relative path is relative to the file's folder, never to the folder one happens to stand in
 * (an untrusted clone would decide which program gets the session).
 */
function pathInConfigFile(given: string, file: string, home: string | undefined, where: string): string {
  if (given === "~" || given.startsWith("~/")) {
    if (home === undefined || !isAbsolute(home))
      throw new AgentError("HANDOFF_FAILED", `${where}: HOME is not set to a folder, so ~ means nothing; write the whole path`);
    return join(home, given.slice(1));
  }
  if (given.startsWith("~"))
    throw new AgentError("HANDOFF_FAILED", `${where}: only ~/ (your home folder) is expanded; write the whole path`);
  return resolve(dirname(file), given);
}
