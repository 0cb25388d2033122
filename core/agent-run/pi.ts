import { arrayField, isObject, stringField, type JsonObject } from "../json.ts";
import { checkedUsage, failureFrom, jsonLines, systemPromptPlacement, tokenSum, unreadable } from "./output.ts";
import type { AgentEngine, AgentOutcome, AgentRunOutput } from "./types.ts";

/** pi's and omp's words for a provider with no key or no model to use. */
const LOGGED_OUT =
  /no api key|no models available|no model selected|not authenticated|\/login|^401\b|unauthori[sz]ed|authentication_error|invalid (x-)?api[- ]key/i;

/**
 * omp saves a refused request (our whole prompt) and names the file on a line of its own,
 * `raw-http-request=<path>`: the path is the rest of that line, spaces and all (a HOME may hold
 * them).
 */
const SAVED_REQUEST = /(?:^|\n)raw-http-request=([^\n]*\S)[^\S\n]*/g;

/** The last assistant message of the run: from its `message_end` events, else `agent_end`'s list. */
function lastAssistant(events: readonly JsonObject[]): JsonObject | undefined {
  let last: JsonObject | undefined;
  for (const event of events) {
    if (event.type === "message_end" && isObject(event.message) && event.message.role === "assistant") last = event.message;
    if (event.type === "agent_end") {
      const messages = (arrayField(event, "messages") ?? []).filter(isObject).filter((m) => m.role === "assistant");
      last = messages.at(-1) ?? last;
    }
  }
  return last;
}

function textOf(message: JsonObject): string {
  const blocks = (arrayField(message, "content") ?? []).filter(isObject);
  return blocks.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}

/**
 * pi 0.73 prints, for every streamed piece of the answer, a `message_update` event holding the
 * whole message so far (twice): its output grows with the square of the answer. The answer is
 * in `message_end` and `agent_end`; the updates are never read. omp prints them without the
 * snapshots, but has no use for them either.
 */
const STREAMED_UPDATE = /^\s*\{\s*"type"\s*:\s*"message_update"/;

function skipLine(start: string): boolean {
  return STREAMED_UPDATE.test(start);
}

/** pi and omp print the same events in `--mode json` (omp is a fork of pi). */
function read(output: AgentRunOutput): AgentOutcome {
  const events = jsonLines(output.stdout);
  if (events.length === 0)
    return output.exitCode === 0 ? unreadable(output, "the JSON events of --mode json") : failureFrom(output, "", LOGGED_OUT);
  const message = lastAssistant(events);
  if (message === undefined)
    return output.exitCode === 0 ? { failure: "empty", message: "it finished without an answer" } : failureFrom(output, "", LOGGED_OUT);
  const stop = stringField(message, "stopReason");
  if (stop === "error" || stop === "aborted") {
    const said = stringField(message, "errorMessage") ?? `the request ended: ${stop}`;
    const remove = [...said.matchAll(SAVED_REQUEST)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
    const failure = failureFrom(output, said.replace(SAVED_REQUEST, ""), LOGGED_OUT);
    return remove.length > 0 && "failure" in failure ? { ...failure, remove } : failure;
  }
  const text = textOf(message);
  if (text.trim() === "") return { failure: "empty", message: "its answer held no text" };
  const usage = isObject(message.usage)
    ? checkedUsage(tokenSum(message.usage, ["input", "cacheRead", "cacheWrite"]), tokenSum(message.usage, ["output"]))
    : undefined;
  const provider = stringField(message, "provider");
  const model = stringField(message, "model");
  return { answer: { text, usage, model: model && provider ? `${provider}/${model}` : model, cutShort: stop === "length" } };
}

/**
 * pi: print mode with the prompt on stdin, JSON events, no tools, no session saved
 * (`--no-session`), none of the project's context files, skills or prompt templates (it runs
 * in an empty folder anyway), and our system prompt instead of its coding one. The user's
 * extensions stay loaded: a provider may come from one.
 */
export const PI_ENGINE: AgentEngine<"pi"> = {
  name: "pi",
  label: "pi",
  command: "pi",
  binEnv: "AGENT_PI_BIN",
  usesOpenAiVariables: true,
  loginHint: "run `pi` and log in (/login), or set the API key of the provider it uses",
  contextWindow: 128_000,
  plan(prompt) {
    const args = ["-p", "--mode", "json", "--no-session", "--no-tools", "--no-skills", "--no-prompt-templates", "--no-context-files"];
    const placed = systemPromptPlacement(prompt, "--system-prompt");
    args.push(...placed.args);
    // No update check on a handoff's behalf.
    return { args, env: { PI_SKIP_VERSION_CHECK: "1" }, stdin: placed.stdin };
  },
  skipLine,
  read,
};

/**
 * omp reads the AGENTS.md, CLAUDE.md, `.omp/` and `.agents/` of the folders above its own, up to
 * the nearest one holding a `.git` (else up to HOME when it runs under it, else up to `/`),
 * `--no-rules` or not. An empty `.git` in its folder makes that folder the project: it looks no
 * higher than its own folder, or, under HOME, than the folders between it and HOME (ours).
 */
export const OMP_PROJECT_MARKER = ".git";

/** omp: as pi, with omp's own switches (rules instead of context files, no LSP, no title request). */
export const OMP_ENGINE: AgentEngine<"omp"> = {
  name: "omp",
  label: "omp",
  command: "omp",
  binEnv: "AGENT_OMP_BIN",
  usesOpenAiVariables: true,
  loginHint: "run `omp` and log in (/login), or set the API key of the provider it uses",
  contextWindow: 128_000,
  plan(prompt) {
    const args = ["-p", "--mode", "json", "--no-session", "--no-tools", "--no-skills", "--no-rules", "--no-lsp", "--no-title"];
    const placed = systemPromptPlacement(prompt, "--system-prompt");
    args.push(...placed.args);
    return { args, env: {}, stdin: placed.stdin, files: { [OMP_PROJECT_MARKER]: "" } };
  },
  skipLine,
  read,
};
