import { resolveEngine, type Engine } from "./engine.ts";
import { AgentError, DEFAULT_CONTEXT_WINDOW } from "../core/index.ts";
import { describeUrl } from "./secrets.ts";

export const DEFAULT_MODEL = "gpt-4.1-mini";
export const DEFAULT_TIMEOUT_SECONDS = 300;
export const DEFAULT_RETRIES = 2;
/** `-o -`: the new session goes to stdout instead of a file. */
export const OUT_TO_STDOUT = "-";

/** Everything `agent handoff` needs to know, resolved from flags and environment. */
export interface HandoffOptions {
  sessionPath: string;
  focus: string | undefined;
  model: string;
  baseUrl: string | undefined;
  /** From OPENAI_API_KEY only; never printed. */
  apiKey: string | undefined;
  provider: string;
  /** The new session's path as given; `OUT_TO_STDOUT` for stdout. */
  out: string | undefined;
  leafId: string | undefined;
  record: boolean;
  json: boolean;
  dryRun: boolean;
  strict: boolean;
  timeoutMs: number;
  retries: number;
  systemPromptFile: string | undefined;
  /** The model's context window in tokens; a larger session is condensed to fit. */
  contextWindow: number;
  /** Caps the document's length; `undefined` leaves it to the endpoint. */
  maxOutputTokens: number | undefined;
  /** Who writes the document, and the line that says why when it was chosen for the user. */
  engine: Engine;
  engineNotice: string | undefined;
  /** Append the Session Facts section. */
  facts: boolean;
  /** Redact likely secrets from requests. */
  redact: boolean;
  quiet: boolean;
  verbose: boolean;
}

/** The flags as citty parsed them (loosely typed: citty's own types are per command). */
export type RawHandoffArgs = Record<string, unknown>;
type Env = Record<string, string | undefined>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Timers hold at most 2^31-1 ms; a longer one fires at once. */
const MAX_TIMEOUT_SECONDS = 2_147_483;

function positiveNumber(flag: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > max) throw new AgentError("USAGE", `${flag} takes a positive number up to ${max}, not "${String(value)}"`);
  return parsed;
}

function wholeNumber(flag: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > max) throw new AgentError("USAGE", `${flag} takes a whole number from 0 to ${max}, not "${String(value)}"`);
  return parsed;
}

/** `localhost:11434/v1` parses as a URL with the scheme `localhost:`; only http(s) can reach a model. */
function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

function isHostOrSubdomain(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}

/** A count of tokens: a whole number of at least 1. */
function tokenCount(flag: string, value: unknown): number | undefined {
  if (value === undefined || value === "") return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new AgentError("USAGE", `${flag} takes a whole number of tokens, not "${String(value)}"`);
  return parsed;
}

/** The context window and the output cap, checked against each other. */
function resolveWindow(args: RawHandoffArgs): { contextWindow: number; maxOutputTokens: number | undefined } {
  const contextWindow = tokenCount("--context-window", args["context-window"] ?? args.contextWindow) ?? DEFAULT_CONTEXT_WINDOW;
  const maxOutputTokens = tokenCount("--max-output-tokens", args["max-output-tokens"] ?? args.maxOutputTokens);
  if (maxOutputTokens !== undefined && maxOutputTokens >= contextWindow) {
    throw new AgentError("USAGE", `--max-output-tokens ${maxOutputTokens} must be smaller than --context-window ${contextWindow}`);
  }
  return { contextWindow, maxOutputTokens };
}

/** Names who serves the model, for the answer recorded in the source session. */
export function providerFor(baseUrl: string | undefined): string {
  if (!baseUrl) return "openai";
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return "openai-compatible";
  }
  if (isHostOrSubdomain(url.hostname, "openai.com")) return "openai";
  if (isHostOrSubdomain(url.hostname, "openrouter.ai")) return "openrouter";
  if (url.port === "11434" || url.hostname.includes("ollama")) return "ollama";
  return url.hostname;
}

/** Flags + environment → options. Pure, so every rule here is tested without a process. */
export function resolveHandoffOptions(args: RawHandoffArgs, env: Env): HandoffOptions {
  const sessionPath = text(args.session);
  if (!sessionPath) throw new AgentError("USAGE", "agent handoff needs a session file (see agent handoff --help)");
  const baseUrlFlag = text(args["base-url"]) ?? text(args.baseUrl);
  const baseUrl = baseUrlFlag ?? text(env.OPENAI_BASE_URL);
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) {
    // Printed without credentials; a value that is no URL at all (a pasted key?) is not echoed.
    const shown = URL.canParse(baseUrl) ? ` "${describeUrl(baseUrl)}"` : "";
    throw new AgentError("USAGE", `${baseUrlFlag === undefined ? "OPENAI_BASE_URL" : "--base-url"}${shown} is not an http:// or https:// URL`);
  }
  const out = text(args.out);
  const json = args.json === true;
  if (out === OUT_TO_STDOUT && json) throw new AgentError("USAGE", "-o - puts the new session on stdout, where --json would put its object; use one of them");
  const apiKey = text(env.OPENAI_API_KEY);
  const chosen = resolveEngine(text(args.engine), { apiKey, baseUrl });
  return {
    sessionPath,
    focus: text(args.focus),
    model: text(args.model) ?? text(env.AGENT_MODEL) ?? DEFAULT_MODEL,
    baseUrl,
    apiKey,
    provider: providerFor(baseUrl),
    out,
    leafId: text(args.leaf),
    record: args.record !== false,
    json,
    dryRun: args["dry-run"] === true || args.dryRun === true,
    strict: args.strict === true,
    timeoutMs: positiveNumber("--timeout", args.timeout, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS) * 1000,
    retries: wholeNumber("--retries", args.retries, DEFAULT_RETRIES, 10),
    systemPromptFile: text(args["system-prompt-file"]) ?? text(args.systemPromptFile),
    ...resolveWindow(args),
    engine: chosen.engine,
    engineNotice: chosen.notice,
    facts: args.facts !== false,
    redact: args.redact !== false,
    quiet: args.quiet === true,
    verbose: args.verbose === true,
  };
}
