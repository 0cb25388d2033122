import { CompletionError, type ChatMessage, type ChatRequest, type Complete } from "../types.ts";
import type { ProviderProfile } from "./profile.ts";
import { shapeRequest } from "./shape.ts";
import { withAssistantAfterTools, withReasoningPassedBack } from "./turn-rules.ts";

/** One change made after a refusal, kept for every later request of the run. */
interface Adjustment {
  /** Tried at most once: the same refusal after it fails the run. */
  key: string;
  /** What it does, for `-v`. */
  says: string;
  apply(request: ChatRequest): ChatRequest;
}

/** Fields a request cannot do without: dropping one would send something else entirely. */
const ESSENTIAL = new Set(["model", "messages", "stream"]);

function without(request: ChatRequest, ...fields: (keyof ChatRequest)[]): ChatRequest {
  const copy: ChatRequest = { ...request };
  for (const field of fields) delete copy[field];
  return copy;
}

function isRequestField(request: ChatRequest, field: string): field is keyof ChatRequest {
  return Object.hasOwn(request, field);
}

function renameLimit(from: "max_tokens" | "max_completion_tokens", to: "max_tokens" | "max_completion_tokens"): Adjustment {
  return {
    // One key for both directions: renaming back would only be refused again.
    key: "output-limit",
    says: `sending the output limit as \`${to}\` instead`,
    apply: (r) => (r[from] === undefined ? r : { ...without(r, from), [to]: r[from] }),
  };
}

function recastRole(index: number, request: ChatRequest): Adjustment | undefined {
  const from = request.messages[index]?.role;
  if (from !== "system" && from !== "developer") return undefined;
  const to = from === "system" ? "developer" : "system";
  const recast = (m: ChatMessage): ChatMessage => (m.role === from ? { role: to, content: m.content } : m);
  return {
    key: "role",
    says: `sending the instructions in the \`${to}\` role instead`,
    apply: (r) => ({ ...r, messages: r.messages.map(recast) }),
  };
}

/** The rules of turns.ts, by the name a refusal gives them (refusals.ts, TURN_RULES). */
const TURN_FIXES: Record<string, Adjustment> = {
  "messages[].role": {
    key: "user-after-tool",
    says: "putting a short assistant turn between a tool result and a user turn right after it",
    apply: (r) => ({ ...r, messages: withAssistantAfterTools(r.messages) }),
  },
  "messages[].reasoning_content": {
    key: "reasoning-back",
    says: "sending each earlier assistant turn with an empty `reasoning_content` (the session's own reasoning is not ours to send)",
    apply: (r) => ({ ...r, messages: withReasoningPassedBack(r.messages) }),
  },
};

/**
 * The documented alternative for a refused parameter, or leaving it out: the output limit's two
 * names for each other, `tool_choice: "auto"` for `"none"`, `developer` for `system` (and back),
 * the turns in the order or shape a refusal asked for (turns.ts); any other optional field is
 * dropped. Once per parameter: `undefined` when it was tried already, or there is nothing to try.
 */
export function fallbackFor(request: ChatRequest, param: string, tried: ReadonlySet<string>): Adjustment | undefined {
  const roleIndex = /^messages\[(\d+)\]\.role$/.exec(param)?.[1];
  const field = param.split(/[.[]/)[0] ?? param;
  let fix: Adjustment | undefined;
  if (Object.hasOwn(TURN_FIXES, param)) fix = TURN_FIXES[param];
  else if (roleIndex !== undefined) fix = recastRole(Number(roleIndex), request);
  else if (field === "max_tokens" || field === "max_completion_tokens")
    fix = renameLimit(field, field === "max_tokens" ? "max_completion_tokens" : "max_tokens");
  else if (field === "tool_choice" && request.tool_choice === "none")
    fix = {
      key: "tool_choice",
      says: 'sending `tool_choice: "auto"` instead',
      apply: (r) => (r.tool_choice ? { ...r, tool_choice: "auto" } : r),
    };
  else if (field === "tools")
    fix = { key: "tools", says: "leaving out the tool declarations", apply: (r) => without(r, "tools", "tool_choice") };
  else if (isRequestField(request, field) && !ESSENTIAL.has(field)) {
    fix = { key: field, says: `leaving \`${field}\` out`, apply: (r) => without(r, field) };
  }
  return fix && !tried.has(fix.key) ? fix : undefined;
}

export interface ProviderPortOptions {
  profile: ProviderProfile;
  /** Told each change made after a refusal (`-v` prints it). */
  notice?: (line: string) => void;
}

/**
 * The model port as a provider takes it: every request shaped by the profile (shape.ts); when
 * the endpoint refuses a parameter, the request is sent once more with its documented
 * alternative or without it, and that change is kept for the rest of the run (a condensed
 * handoff sends many requests; each must not be refused again).
 */
export function createProviderPort(complete: Complete, options: ProviderPortOptions): Complete {
  const adjustments: Adjustment[] = [];
  const tried = new Set<string>();
  return async (request, completeOptions) => {
    let sent = adjustments.reduce((r, a) => a.apply(r), shapeRequest(request, options.profile));
    for (let resent = 0; ; resent++) {
      try {
        const completion = await complete(sent, completeOptions);
        return resent === 0 ? completion : { ...completion, resent };
      } catch (error) {
        if (!(error instanceof CompletionError && error.failure === "unsupported_parameter" && error.param !== undefined)) throw error;
        const fix = fallbackFor(sent, error.param, tried);
        if (!fix) throw error;
        tried.add(fix.key);
        adjustments.push(fix);
        options.notice?.(`${options.profile.name} refused \`${error.param}\` (${error.message}); ${fix.says}, for the rest of this run`);
        sent = fix.apply(sent);
      }
    }
  };
}
