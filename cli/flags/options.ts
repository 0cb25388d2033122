import { isAgentEngine, resolveEngine, type Engine } from "./engine.ts";
import {
  agentEngine,
  chooseProfile,
  isLocalEndpoint,
  isProviderId,
  PROVIDER_IDS,
  type AgentName,
  type InputLimit,
  type ProviderProfile,
} from "../../core/index.ts";
import {
  agentBinSetting,
  describeChoice,
  describeGiven,
  describeSource,
  resolveSettings,
  type ConfigFile,
  type Resolved,
} from "./settings.ts";
import { parseDecimal, tokenCount } from "./setting-values.ts";
import { apiKeyFrom, configuredSecrets } from "../model/secrets.ts";
import { accountFrom, type Account } from "../model/account.ts";
import { quoteWithholding } from "../output/printed.ts";
import { resolveSessionSource, type SessionSource } from "./handoff-source.ts";
import { matchChoice } from "./choice.ts";
import { CommandLineError } from "./usage.ts";

export { DEFAULT_MODEL } from "./settings.ts";
export const DEFAULT_TIMEOUT_SECONDS = 300;
export const DEFAULT_RETRIES = 2;
/** `-o -`: the new session goes to stdout instead of a file. */
export const OUT_TO_STDOUT = "-";
/** The model in a `--dry-run` request when it is asked of the endpoint: a dry run contacts nothing. */
export const MODEL_ASKED_OF_ENDPOINT = "<asked of the endpoint when run>";

/** Everything `agent handoff` needs to know, resolved from flags and environment. */
export interface HandoffOptions extends SessionSource {
  focus: string | undefined;
  /** `undefined`: a local endpoint and no model named; asked of the endpoint when the model is called (cli/model/model-list.ts). */
  model: string | undefined;
  baseUrl: string | undefined;
  /** From OPENAI_API_KEY only; never printed. */
  apiKey: string | undefined;
  /** OPENAI_ORG_ID and OPENAI_PROJECT_ID, sent as OpenAI's headers. */
  account?: Account;
  provider: string;
  /** What the provider documents about its endpoint: from --provider, else the base URL. */
  profile: ProviderProfile;
  /** The new session's path as given; `OUT_TO_STDOUT` for stdout. */
  out: string | undefined;
  /** The agent the new session is for (`--to`); undefined: the source's own. */
  to: AgentName | undefined;
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
  /** The most input tokens the run may send (`--max-input-tokens`); undefined: no limit. */
  inputLimit: InputLimit | undefined;
  /** Who writes the document, and the line that says why when it was chosen for the user. */
  engine: Engine;
  engineNotice: string | undefined;
  /** Flags given that an agent engine does not use (`--model`, …): the agent runs with its own settings. */
  unusedByAgent: string[];
  /** An agent engine's executable as the user named it (`AGENT_<NAME>_BIN`, the config file); undefined: looked up on PATH. */
  agentBin: Resolved<string | undefined> | undefined;
  /** Append the Session Facts section. */
  facts: boolean;
  /** Append `## Last Exchanges`; undefined: the engine's default (on for offline). */
  lastExchanges: boolean | undefined;
  /** Redact likely secrets from requests. */
  redact: boolean;
  quiet: boolean;
  verbose: boolean;
  /** Continue the new session in its agent once everything is written (`--exec`). */
  exec: boolean;
  /** Choose the session from a list on the terminal (`--pick`). */
  pick: boolean;
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
  if (value === undefined) return fallback;
  const parsed = parseDecimal(value, true);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > max)
    throw new CommandLineError(`${flag} takes a positive number up to ${max}, not "${String(value)}"`);
  return parsed;
}

function wholeNumber(flag: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = parseDecimal(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > max)
    throw new CommandLineError(`${flag} takes a whole number from 0 to ${max}, not "${String(value)}"`);
  return parsed;
}

/**
 * The context window (wherever it was set) and the output cap, checked against each other. An
 * agent engine's window, unless one is set, is the one its agent's default model states.
 */
function resolveWindow(
  args: RawHandoffArgs,
  window: Resolved<number>,
  engine: Engine,
  env: Env,
): { contextWindow: number; maxOutputTokens: number | undefined } {
  const contextWindow = window.source.kind === "default" && isAgentEngine(engine) ? agentEngine(engine).contextWindow : window.value;
  const maxOutputTokens = tokenCount(
    "--max-output-tokens",
    args["max-output-tokens"] ?? args.maxOutputTokens,
    quoteWithholding(configuredSecrets(env)),
  );
  if (maxOutputTokens !== undefined && maxOutputTokens >= contextWindow) {
    const from =
      window.source.kind === "flag"
        ? "--context-window"
        : window.source.kind === "default"
          ? "the default context window"
          : `the context window (${describeSource(window.source)})`;
    throw new CommandLineError(`--max-output-tokens ${maxOutputTokens} must be smaller than ${from} ${contextWindow}`);
  }
  return { contextWindow, maxOutputTokens };
}

function inputLimitOf(setting: Resolved<number | undefined>): InputLimit | undefined {
  const tokens = setting.value;
  return tokens === undefined ? undefined : { tokens, setBy: describeGiven("max-input-tokens", { ...setting, value: tokens }) };
}

/**
 * Names who serves the model, for the answer recorded in the source session: the profile's id
 * (the one `--provider` chose, else the one the base URL names), and for an endpoint no profile
 * knows, its host.
 */
export function providerName(profile: ProviderProfile, baseUrl: string | undefined): string {
  if (profile.id !== "generic") return profile.id;
  if (baseUrl === undefined || !URL.canParse(baseUrl)) return "openai-compatible";
  return new URL(baseUrl).hostname || "openai-compatible";
}

/**
 * The model to ask for: the one named (a flag, AGENT_MODEL, the config file), else the default;
 * but a local endpoint serves whatever its user runs there, never our default (Ollama would
 * answer `gpt-4.1-mini` with "model not found"): `undefined`, to be asked of the endpoint.
 */
export function resolveModel(model: Resolved<string>, baseUrl: string | undefined, profile: ProviderProfile): string | undefined {
  return model.source.kind === "default" && isLocalEndpoint(baseUrl, profile) ? undefined : model.value;
}

/** `--provider` (or AGENT_PROVIDER): a profile id, or empty for "from the base URL". */
function resolveProfile(flag: string | undefined, fromEnv: string | undefined, baseUrl: string | undefined): ProviderProfile {
  const value = flag ?? fromEnv;
  if (value === undefined) return chooseProfile(baseUrl);
  const word = matchChoice(value, ["auto", ...PROVIDER_IDS]);
  if (word === "auto") return chooseProfile(baseUrl);
  if (word === undefined || !isProviderId(word))
    throw new CommandLineError(
      `${flag === undefined ? "AGENT_PROVIDER" : "--provider"} takes auto or one of ${PROVIDER_IDS.join(", ")}, not "${value}"`,
    );
  return chooseProfile(baseUrl, word);
}

/**
 * Flags + environment + the config file (parsed, as data) → options; flags win, then the
 * environment, then the file. Pure, so every rule here is tested without a process.
 */
/** The flags that tell the model engine what to call and how; an agent engine calls its own model. */
const MODEL_FLAGS = ["model", "base-url", "provider", "retries", "max-output-tokens"] as const;

const camelCase = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

export function resolveHandoffOptions(args: RawHandoffArgs, env: Env, file?: ConfigFile): HandoffOptions {
  const source = resolveSessionSource(args);
  const settings = resolveSettings(args, env, file);
  const baseUrl = settings.baseUrl.value;
  const out = text(args.out);
  const json = args.json === true;
  if (out === OUT_TO_STDOUT && json)
    throw new CommandLineError("-o - puts the new session on stdout, where --json would put its object; use one of them");
  const exec = args.exec === true;
  if (exec && out === OUT_TO_STDOUT) throw new CommandLineError("-o - writes no session file for --exec to continue; use one of them");
  const dryRun = args["dry-run"] === true || args.dryRun === true;
  if (exec && dryRun) throw new CommandLineError("--dry-run writes no session for --exec to continue; use one of them");
  const pick = args.pick === true;
  if (pick && (source.sessionPath !== undefined || source.sessionId !== undefined))
    throw new CommandLineError(
      `--pick chooses the session from a list, and ${source.sessionPath ?? `--session ${source.sessionId}`} names one; leave out one of them`,
    );
  const apiKey = apiKeyFrom(env);
  const chosen = resolveEngine(settings.engine.value, { apiKey, baseUrl }, describeChoice(settings.engine));
  const profile = resolveProfile(text(args.provider), text(env.AGENT_PROVIDER), baseUrl);
  return {
    ...source,
    focus: text(args.focus),
    model: resolveModel(settings.model, baseUrl, profile),
    baseUrl,
    apiKey,
    account: accountFrom(env),
    provider: providerName(profile, baseUrl),
    profile,
    out,
    to: settings.to.value,
    leafId: text(args.leaf),
    record: args.record !== false,
    json,
    dryRun,
    strict: args.strict === true,
    timeoutMs: positiveNumber("--timeout", args.timeout, DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS) * 1000,
    retries: wholeNumber("--retries", args.retries, DEFAULT_RETRIES, 10),
    systemPromptFile: text(args["system-prompt-file"]) ?? text(args.systemPromptFile),
    ...resolveWindow(args, settings.contextWindow, chosen.engine, env),
    inputLimit: inputLimitOf(settings.maxInputTokens),
    engine: chosen.engine,
    engineNotice: chosen.notice,
    unusedByAgent: isAgentEngine(chosen.engine)
      ? MODEL_FLAGS.filter((flag) => args[flag] !== undefined || args[camelCase(flag)] !== undefined).map((flag) => `--${flag}`)
      : [],
    agentBin: isAgentEngine(chosen.engine) ? agentBinSetting(settings, chosen.engine) : undefined,
    facts: args.facts !== false,
    lastExchanges: settings.lastExchanges.value,
    redact: args.redact !== false,
    quiet: args.quiet === true,
    verbose: args.verbose === true,
    exec,
    pick,
  };
}
