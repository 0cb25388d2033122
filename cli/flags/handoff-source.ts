/**
 * Which session a command is about, as its flags say it (pure): every command that names a
 * session (`handoff`, `inspect`) takes these same flags. A word (a file, `-` for stdin, a folder,
 * or an id), an id (`--session`), or nothing (the newest session of the current folder);
 * `--agent` narrows the search. Finding the file is cli/sessions/find-session.ts's work.
 */
import type { FlagsDef } from "./flags-def.ts";
import { describeFormatNames, describeFormatNamesInCode, type AgentName } from "../../core/index.ts";
import { parseAgent } from "./setting-values.ts";
import { CommandLineError } from "./usage.ts";

/** The flags that say which session: the same for every command that names one (help and completion read them). */
export const SESSION_ARGS = {
  path: {
    type: "positional",
    description:
      "The session: a session file (- reads it from stdin); a folder: the newest session file in it, else the newest session that worked in it; or, when no such file or folder is there, a session id or a unique start of one. Default: the newest session, of any agent, that worked in the current folder",
    required: false,
    details:
      "a session file (`-` reads one from stdin), or a folder: its newest session file, else the newest session that worked in it; when no file or folder of that name is there, a session id or the start of one, as `--session` takes it (`agent handoff 7c0a11e5`); default: the newest session that worked in the current folder. `inspect` takes the same, and `--agent` and `--session`",
  },
  agent: {
    type: "string",
    description: `Only look for sessions of this agent: ${describeFormatNames()}`,
    valueHint: "agent",
    details: `look only for this agent's sessions (no path, a folder, \`--session\`): ${describeFormatNamesInCode()}`,
  },
  session: {
    type: "string",
    description: "The session with this id (or a unique start of it), wherever its agent keeps it",
    valueHint: "id",
    details:
      "the session with this id, or the one id that starts so (any case), wherever its agent keeps it; a start shared by several is a usage error (exit 2) listing them (at most 20); so is an id two files hold (a copy), which asks for the path of one. A Claude Code session's id is the uuid its file is named by (what `claude --resume` takes; a fork's first lines carry its parent's)",
  },
} satisfies FlagsDef;

export interface SessionSource {
  /** A path as given: a session file, `-`, or a folder; undefined to search. */
  sessionPath: string | undefined;
  /** `--session`: an id, or the start of one. */
  sessionId: string | undefined;
  /** `--agent`: only this agent's sessions are searched. */
  agent: AgentName | undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function resolveSessionSource(args: Record<string, unknown>): SessionSource {
  const sessionPath = text(args.path);
  const sessionId = text(args.session)?.trim();
  const agentFlag = text(args.agent);
  const agent = agentFlag === undefined ? undefined : parseAgent(agentFlag, "--agent");
  if (sessionPath !== undefined && sessionId !== undefined)
    throw new CommandLineError(`give a session path or --session ${sessionId}, not both`);
  if (sessionId === "") throw new CommandLineError("option --session needs an id, not blanks");
  if (sessionPath === "-" && agent !== undefined)
    throw new CommandLineError("--agent picks among the sessions found on this machine; - reads one from stdin");
  return { sessionPath, sessionId, agent };
}
