import {
  AGENT_ENGINES,
  AgentError,
  agentBinEnv,
  agentBinKey,
  byAgentEngine,
  DEFAULT_CONTEXT_WINDOW,
  type AgentName,
  type EngineName,
} from "../../core/index.ts";
import { suggest } from "./args.ts";
import { quoteWithholding, type Quote } from "../output/printed.ts";
import { configuredSecrets } from "../model/secrets.ts";
import {
  looksSecret,
  parseAgent,
  parseEngine,
  parseHookEngine,
  parseLimit,
  parseSwitch,
  parseText,
  parseUrl,
  parseWindow,
  type EngineChoice,
  type HookEngineChoice,
  type Parse,
} from "./setting-values.ts";

/**
 * The settings a user would otherwise repeat on every run, each from the first place that gives
 * it: a flag, the environment, the config file, the default. Pure: the config file arrives
 * parsed, as data. How each value is checked: setting-values.ts.
 */

export const DEFAULT_MODEL = "gpt-4.1-mini";

/** The config file as read: its path, its parsed top-level table, and the line each key is on. */
export interface ConfigFile {
  path: string;
  data: Record<string, unknown>;
  /** 1-based line of each top-level key, where it could be found. */
  lines: Record<string, number>;
}

export type SettingSource =
  | { kind: "flag"; name: string }
  | { kind: "env"; name: string }
  | { kind: "file"; path: string; line: number | undefined }
  | { kind: "default" };

export interface Resolved<T> {
  value: T;
  source: SettingSource;
}

export interface Settings {
  model: Resolved<string>;
  baseUrl: Resolved<string | undefined>;
  contextWindow: Resolved<number>;
  /** The most input tokens a handoff may send; undefined: no limit. */
  maxInputTokens: Resolved<number | undefined>;
  engine: Resolved<EngineChoice>;
  /** The agent the new session is for; undefined: the source's own. */
  to: Resolved<AgentName | undefined>;
  /** Who writes the document for `/handoff` inside an agent (`agent hook`); undefined: that agent itself. */
  hookEngine: Resolved<HookEngineChoice | undefined>;
  /** The agent's model's window for the offer before the context rots, where the agent records none; undefined: unset. */
  offerWindow: Resolved<number | undefined>;
  /** Append `## Last Exchanges`; undefined: the engine decides (on for the offline engine only). */
  lastExchanges: Resolved<boolean | undefined>;
  /** Each agent engine's executable, when it is not the one on PATH (`<agent>-bin`, `AGENT_<AGENT>_BIN`). */
  agentBins: Readonly<Record<EngineName, Resolved<string | undefined>>>;
}

interface SettingDef<T> {
  /** The key in the config file, which is also the long flag's name. */
  key: string;
  env: string | undefined;
  parse: Parse<T>;
  fallback: T;
}

/** Every setting the config file may hold. A new one is one row here and one field in `Settings`. */
const SETTINGS = {
  model: { key: "model", env: "AGENT_MODEL", parse: parseText, fallback: DEFAULT_MODEL },
  baseUrl: { key: "base-url", env: "OPENAI_BASE_URL", parse: parseUrl, fallback: undefined },
  contextWindow: { key: "context-window", env: "AGENT_CONTEXT_WINDOW", parse: parseWindow, fallback: DEFAULT_CONTEXT_WINDOW },
  maxInputTokens: { key: "max-input-tokens", env: "AGENT_MAX_INPUT_TOKENS", parse: parseLimit, fallback: undefined },
  engine: { key: "engine", env: "AGENT_ENGINE", parse: parseEngine, fallback: "auto" },
  to: { key: "to", env: "AGENT_TO", parse: parseAgent, fallback: undefined },
  hookEngine: { key: "hook-engine", env: "AGENT_HOOK_ENGINE", parse: parseHookEngine, fallback: undefined },
  offerWindow: { key: "offer-window", env: "AGENT_OFFER_WINDOW", parse: parseLimit, fallback: undefined },
  lastExchanges: { key: "last-exchanges", env: "AGENT_LAST_EXCHANGES", parse: parseSwitch, fallback: undefined },
} satisfies { [K in Exclude<keyof Settings, "agentBins">]: SettingDef<Settings[K]["value"]> };

/** Each agent engine's executable, one setting per agent in the engine table: `<agent>-bin`, `AGENT_<AGENT>_BIN`. */
const AGENT_BIN_SETTINGS: Readonly<Record<EngineName, SettingDef<string | undefined>>> = byAgentEngine((engine) => ({
  key: agentBinKey(engine.name),
  env: agentBinEnv(engine.name),
  parse: parseText,
  fallback: undefined,
}));

/** Every setting, in the order `agent config` and messages list them: the engines' executables last, in the table's order. */
const ALL_SETTINGS: readonly SettingDef<unknown>[] = [
  ...Object.values(SETTINGS),
  ...AGENT_ENGINES.map((engine) => AGENT_BIN_SETTINGS[engine.name]),
];

export const CONFIG_KEYS: readonly string[] = ALL_SETTINGS.map((def) => def.key);

/** The environment variable each setting reads, for help and `agent config`. */
export const SETTING_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  ALL_SETTINGS.flatMap((def) => (def.env ? [[def.key, def.env]] : [])),
);

function camel(key: string): string {
  return key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function where(file: ConfigFile, key: string): string {
  const line = file.lines[key];
  return `${file.path}${line === undefined ? "" : `:${line}`}`;
}

/** Keys that would hold a credential: refused with the one way to give the key. */
const CREDENTIAL_KEY = /key|token|secret|password|credential|auth/i;

/** Refuses what the file must not hold: unknown keys (with a suggestion) and any credential. */
function checkKeys(file: ConfigFile): void {
  for (const key of Object.keys(file.data)) {
    if (CONFIG_KEYS.includes(key)) continue;
    if (CREDENTIAL_KEY.test(key))
      throw new AgentError(
        "USAGE",
        `${where(file, key)}: ${key}: the API key is not read from the config file; set OPENAI_API_KEY in the environment instead`,
      );
    if (looksSecret(key))
      throw new AgentError(
        "USAGE",
        `${where(file, key)}: a key that looks like a secret (not shown); the API key is not read from the config file: set OPENAI_API_KEY in the environment instead`,
      );
    const hint = suggest(key.replace(/_/g, "-"), CONFIG_KEYS);
    throw new AgentError(
      "USAGE",
      `${where(file, key)}: unknown setting ${JSON.stringify(key)}${hint ? `; did you mean "${hint}"?` : ""} (known: ${CONFIG_KEYS.join(", ")})`,
    );
  }
}

/** A setting's value in the file, checked; `undefined` when the file does not set it. */
function fromFile<T>(def: SettingDef<T>, file: ConfigFile | undefined, quote: Quote): Resolved<T> | undefined {
  if (file === undefined || !(def.key in file.data)) return undefined;
  const value = file.data[def.key];
  const label = `${where(file, def.key)}: ${def.key}`;
  if (value === "") throw new AgentError("USAGE", `${label} is empty; delete the line to use the default`);
  return { value: def.parse(value, label, quote), source: { kind: "file", path: file.path, line: file.lines[def.key] } };
}

function pick<T>(
  def: SettingDef<T>,
  args: Record<string, unknown>,
  env: Record<string, string | undefined>,
  file: ConfigFile | undefined,
): Resolved<T> {
  // The file is checked whole, even where a flag overrides it: a mistake in it should not wait
  // for the one run that happens to need the line.
  // Quoted as the run prints it: the key and OPENAI_BASE_URL's credentials withheld before any cut.
  const quote = quoteWithholding(configuredSecrets(env));
  const inFile = fromFile(def, file, quote);
  // An empty flag or variable means "not given" (as `AGENT_MODEL= agent …` does in a shell).
  const flag = args[def.key] ?? args[camel(def.key)];
  if (typeof flag === "string" && flag !== "")
    return { value: def.parse(flag, `--${def.key}`, quote), source: { kind: "flag", name: `--${def.key}` } };
  // A switch (`--last-exchanges`, `--no-last-exchanges`) names itself as it was given.
  if (typeof flag === "boolean")
    return { value: def.parse(flag, `--${def.key}`, quote), source: { kind: "flag", name: flag ? `--${def.key}` : `--no-${def.key}` } };
  const fromEnv = def.env === undefined ? undefined : env[def.env];
  if (def.env !== undefined && fromEnv !== undefined && fromEnv !== "")
    return { value: def.parse(fromEnv, def.env, quote), source: { kind: "env", name: def.env } };
  return inFile ?? { value: def.fallback, source: { kind: "default" } };
}

/** Flags > environment > config file > defaults, each checked where it came from. */
export function resolveSettings(
  args: Record<string, unknown>,
  env: Record<string, string | undefined>,
  file: ConfigFile | undefined,
): Settings {
  if (file) checkKeys(file);
  return {
    model: pick(SETTINGS.model, args, env, file),
    baseUrl: pick(SETTINGS.baseUrl, args, env, file),
    contextWindow: pick(SETTINGS.contextWindow, args, env, file),
    maxInputTokens: pick(SETTINGS.maxInputTokens, args, env, file),
    engine: pick(SETTINGS.engine, args, env, file),
    to: pick(SETTINGS.to, args, env, file),
    hookEngine: pick(SETTINGS.hookEngine, args, env, file),
    offerWindow: pick(SETTINGS.offerWindow, args, env, file),
    lastExchanges: pick(SETTINGS.lastExchanges, args, env, file),
    agentBins: byAgentEngine((engine) => pick(AGENT_BIN_SETTINGS[engine.name], args, env, file)),
  };
}

/** The setting that names an agent engine's executable. */
export function agentBinSetting(settings: Settings, agent: EngineName): Resolved<string | undefined> {
  return settings.agentBins[agent];
}

/** Where a setting came from, in words: `--model`, `AGENT_MODEL`, `/home/me/.config/agent/config.toml:3`, `default`. */
export function describeSource(source: SettingSource): string {
  if (source.kind === "flag" || source.kind === "env") return source.name;
  if (source.kind === "file") return `${source.path}${source.line === undefined ? "" : `:${source.line}`}`;
  return "default";
}

/** How a setting was given, for a message about it: `--max-input-tokens 500000`, `AGENT_MAX_INPUT_TOKENS=500000`, `max-input-tokens = 500000 (<file>:<line>)`. */
export function describeGiven(key: string, { value, source }: Resolved<string | number>): string {
  if (source.kind === "env") return `${source.name}=${value}`;
  if (source.kind === "file") return `${key} = ${typeof value === "string" ? JSON.stringify(value) : value} (${describeSource(source)})`;
  return `--${key} ${value}`;
}

/** How a choice was written, for a message about it: `--engine llm`, `AGENT_ENGINE=llm`, `engine = "llm" (<file>:<line>)`. */
export function describeChoice({ value, source }: Resolved<string>): string {
  if (source.kind === "env") return `${source.name}=${value}`;
  if (source.kind === "file") return `engine = "${value}" (${describeSource(source)})`;
  return `--engine ${value}`;
}
