import { runOf } from "../run.ts";
import { defineCommand, type ArgsDef } from "citty";
import {
  AGENT_ENGINES,
  agentBinKey,
  byAgentBinKey,
  chooseProfile,
  createRedactor,
  createWithholder,
  isAgentError,
  isProviderId,
} from "../../core/index.ts";
import type { AgentBinKey } from "../../core/index.ts";
import type { ConfigJson } from "../../core/index.ts";
import { configPath, readConfigFile } from "../flags/config-file.ts";
import { resolveEngine, type Engine } from "../flags/engine.ts";
import { HANDOFF_ARGS } from "./handoff/handoff-args.ts";
import { resolveModel } from "../flags/options.ts";
import type { CommandHelp } from "./help.ts";
import { EXIT } from "../output/stderr.ts";
import { apiKeyFrom, configuredSecrets, describeUrl } from "../model/secrets.ts";
import { describeChoice, describeSource, resolveSettings, type Resolved, type Settings } from "../flags/settings.ts";
import { LOGGING_ARGS } from "../flags/logging-args.ts";

const CONFIG_ARGS = {
  model: HANDOFF_ARGS.model,
  "base-url": HANDOFF_ARGS["base-url"],
  "context-window": HANDOFF_ARGS["context-window"],
  "max-input-tokens": HANDOFF_ARGS["max-input-tokens"],
  engine: HANDOFF_ARGS.engine,
  to: HANDOFF_ARGS.to,
  "last-exchanges": HANDOFF_ARGS["last-exchanges"],
  json: { type: "boolean", description: "Print one JSON object on stdout instead of the table" },
  ...LOGGING_ARGS,
} satisfies ArgsDef;

export const CONFIG_HELP: CommandHelp = {
  name: "config",
  summary: "Show the settings agent handoff would use, and where each came from",
  description:
    "Show the settings agent handoff would use (model, base URL, context window, input token limit, engine, the agent the new session is for, the verbatim tail) and where each came from: a flag, the environment, the config file, or the default. " +
    "Give the same flags as to agent handoff to see what they change.",
  args: CONFIG_ARGS,
  sections: [
    {
      title: "CONFIG FILE",
      text: [
        "$XDG_CONFIG_HOME/agent/config.toml, else ~/.config/agent/config.toml, in TOML:",
        "",
        '  model = "qwen3:8b"',
        '  base-url = "http://localhost:11434/v1"',
        "  context-window = 32768",
        "  max-input-tokens = 500000",
        '  engine = "auto"  # llm, offline, an agent',
        '  to = "pi"  # default: the source\'s agent',
        '  hook-engine = "offline"  # default: the agent',
        "  offer-window = 1000000  # integrate --offer",
        "",
        "A flag wins over the environment, which wins over the file. An unknown key or a bad value is an error naming the file and line. The API key is never read from the file: set OPENAI_API_KEY.",
      ],
    },
  ],
};

type Source = { source: "flag" | "env" | "file" | "default"; from: string | null; line?: number };

function sourceOf({ source }: Resolved<unknown>): Source {
  if (source.kind === "default") return { source: "default", from: null };
  if (source.kind === "file") return { source: "file", from: source.path, ...(source.line === undefined ? {} : { line: source.line }) };
  return { source: source.kind, from: source.name };
}

/** Makes a value printable: the key withheld, likely secrets replaced. */
type Clean = (text: string) => string;

/** Shown for the model when a local endpoint will be asked for it (no model set). */
const ASKED = "(asked of the endpoint)";

/**
 * Whether agent handoff would ask the endpoint for its model: none set, and a local endpoint
 * (AGENT_PROVIDER counts, as in handoff; a bad one is handoff's to refuse).
 */
export function modelAskedOfEndpoint(settings: Settings, env: Record<string, string | undefined>): boolean {
  const provider = env.AGENT_PROVIDER;
  const profile = chooseProfile(settings.baseUrl.value, provider !== undefined && isProviderId(provider) ? provider : undefined);
  return resolveModel(settings.model, settings.baseUrl.value, profile) === undefined;
}

/** Each agent engine's executable setting, by its config key, in the engine table's order. */
function agentBins(settings: Settings): [AgentBinKey, Resolved<string | undefined>][] {
  return AGENT_ENGINES.map((engine) => [agentBinKey(engine.name), settings.agentBins[engine.name]]);
}

/** The executables' part of `agent config --json`, one key per agent engine. */
function binReports(settings: Settings, clean: Clean): Pick<ConfigJson["settings"], AgentBinKey> {
  const report = (bin: Resolved<string | undefined>) => ({ value: bin.value === undefined ? null : clean(bin.value), ...sourceOf(bin) });
  return byAgentBinKey((engine) => report(settings.agentBins[engine.name]));
}

/** What both forms of the report are built from. */
export interface ConfigReportInput {
  settings: Settings;
  file: { path: string; found: boolean };
  apiKeySet: boolean;
  engine: Engine | undefined;
  clean: Clean;
  /** The model is asked of a local endpoint when a handoff runs. */
  asked?: boolean;
}

/** What `agent config --json` prints; URLs without credentials or query values. */
export function buildConfigReport({ settings, file, apiKeySet, engine, clean, asked = false }: ConfigReportInput): ConfigJson {
  const baseUrl = settings.baseUrl.value;
  return {
    configFile: file.path,
    configFileFound: file.found,
    settings: {
      model: { value: asked ? null : clean(settings.model.value), askedOfEndpoint: asked, ...sourceOf(settings.model) },
      "base-url": { value: baseUrl === undefined ? null : clean(describeUrl(baseUrl)), ...sourceOf(settings.baseUrl) },
      "context-window": { value: settings.contextWindow.value, ...sourceOf(settings.contextWindow) },
      "max-input-tokens": { value: settings.maxInputTokens.value ?? null, ...sourceOf(settings.maxInputTokens) },
      engine: { value: settings.engine.value, resolved: engine ?? null, ...sourceOf(settings.engine) },
      to: { value: settings.to.value ?? null, ...sourceOf(settings.to) },
      "hook-engine": { value: settings.hookEngine.value ?? null, ...sourceOf(settings.hookEngine) },
      "offer-window": { value: settings.offerWindow.value ?? null, ...sourceOf(settings.offerWindow) },
      "last-exchanges": { value: settings.lastExchanges.value ?? null, ...sourceOf(settings.lastExchanges) },
      ...binReports(settings, clean),
    },
    apiKey: { set: apiKeySet, from: "OPENAI_API_KEY" },
  };
}

/** The same, as a table a person reads: setting, value, where it came from. */
export function renderConfigReport({ settings, file, apiKeySet, engine, clean, asked = false }: ConfigReportInput): string {
  const baseUrl = settings.baseUrl.value;
  const chosen = settings.engine.value;
  const engineText =
    chosen !== "auto" ? chosen : engine === "offline" ? "auto (offline: no model configured)" : `auto (${engine ?? "unresolved"})`;
  const rows: [string, string, string][] = [
    ["model", asked ? ASKED : clean(settings.model.value), describeSource(settings.model.source)],
    ["base-url", baseUrl === undefined ? "OpenAI's API" : clean(describeUrl(baseUrl)), describeSource(settings.baseUrl.source)],
    ["context-window", String(settings.contextWindow.value), describeSource(settings.contextWindow.source)],
    [
      "max-input-tokens",
      settings.maxInputTokens.value === undefined ? "no limit" : String(settings.maxInputTokens.value),
      describeSource(settings.maxInputTokens.source),
    ],
    ["engine", engineText, describeSource(settings.engine.source)],
    ["to", settings.to.value ?? "the source's agent", describeSource(settings.to.source)],
    ["hook-engine", settings.hookEngine.value ?? "the agent itself", describeSource(settings.hookEngine.source)],
    [
      "offer-window",
      settings.offerWindow.value === undefined ? "from the agent" : String(settings.offerWindow.value),
      describeSource(settings.offerWindow.source),
    ],
    [
      "last-exchanges",
      settings.lastExchanges.value === undefined ? "on for offline" : String(settings.lastExchanges.value),
      describeSource(settings.lastExchanges.source),
    ],
    // An agent's executable only when one is named: most people use the one on PATH.
    ...agentBins(settings).flatMap(([key, bin]): [string, string, string][] =>
      bin.value === undefined ? [] : [[key, clean(bin.value), describeSource(bin.source)]],
    ),
    ["API key", apiKeySet ? "set" : "not set", "OPENAI_API_KEY (read from the environment only)"],
  ];
  const name = Math.max(...rows.map(([n]) => n.length));
  const value = Math.max(...rows.map(([, v]) => v.length));
  const lines = [
    `config file  ${file.path}${file.found ? "" : " (none)"}`,
    "",
    ...rows.map(([n, v, from]) => `${n.padEnd(name)}  ${v.padEnd(value)}  ${from}`),
  ];
  return `${lines.join("\n")}\n`;
}

export const configCommand = defineCommand({
  meta: { name: CONFIG_HELP.name, description: CONFIG_HELP.summary },
  args: CONFIG_ARGS,
  async run({ args, data }) {
    const run = runOf(data);
    const logger = run.logger({ quiet: args.quiet, verbose: args.verbose });
    const path = configPath(run.env);
    const loaded = await readConfigFile(run.env, run.cancel.signal);
    const settings = resolveSettings(args, run.env, loaded);
    const apiKey = apiKeyFrom(run.env);
    let engine: Engine | undefined;
    try {
      engine = resolveEngine(settings.engine.value, { apiKey, baseUrl: settings.baseUrl.value }, describeChoice(settings.engine)).engine;
    } catch (error) {
      // A choice agent handoff would refuse is still shown, with the reason beside it.
      if (!isAgentError(error)) throw error;
      logger.warn(error.message);
    }
    const file = { path, found: loaded !== undefined };
    // Values are printed as given, except what must never be: the key, a likely secret.
    const withhold = createWithholder(configuredSecrets(run.env));
    const redactor = createRedactor();
    const clean = (text: string) => withhold(redactor.redact(text));
    const asked = modelAskedOfEndpoint(settings, run.env);
    const report: ConfigReportInput = { settings, file, apiKeySet: apiKey !== undefined, engine, clean, asked };
    await (args.json ? run.stdout.printJson(buildConfigReport(report)) : run.stdout.printText(renderConfigReport(report)));
    return EXIT.ok;
  },
});
