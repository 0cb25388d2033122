import type { AgentEngine, AgentFailureKind } from "./types.ts";

/**
 * The one line each failure of an agent run ends with (after `Handoff failed: `): which agent,
 * what went wrong, and what to do about it.
 */

export function describeMissingAgent(engine: AgentEngine): string {
  return `${engine.command} not found on PATH: install ${engine.label} or set ${engine.binEnv}`;
}

export function describeAgentTimeout(engine: AgentEngine, seconds: number): string {
  return `${engine.command} gave no answer within --timeout ${seconds}s; raise --timeout, or check that \`${engine.command}\` answers a prompt on its own`;
}

export function describeAgentFailure(engine: AgentEngine, kind: AgentFailureKind, message: string): string {
  switch (kind) {
    case "logged-out":
      return `${engine.command} is not logged in: ${engine.loginHint}${message ? ` (it said: ${message})` : ""}`;
    case "failed":
      return `${engine.command} did not answer (${message})`;
    case "empty":
      return `${engine.command} gave no answer (${message}); try again, or use another --engine`;
    case "unreadable":
      return `${engine.command} printed no answer we can read (${message}); is ${engine.binEnv} or PATH pointing at ${engine.label}?`;
  }
}
