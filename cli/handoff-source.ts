/**
 * Which session `agent handoff` is to hand off, as the flags say it (pure): a path (a file, `-`
 * for stdin, or a folder), an id (`--session`), or nothing (the newest session of the current
 * folder); `--agent` narrows the search. Finding the file is cli/find-session.ts's work.
 */
import { AgentError, type AgentName } from "../core/index.ts";
import { parseAgent } from "./settings.ts";

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
    throw new AgentError("USAGE", `give a session path or --session ${sessionId}, not both`);
  if (sessionId === "") throw new AgentError("USAGE", "option --session needs an id, not blanks");
  if (sessionPath === "-" && agent !== undefined)
    throw new AgentError("USAGE", "--agent picks among the sessions found on this machine; - reads one from stdin");
  return { sessionPath, sessionId, agent };
}
