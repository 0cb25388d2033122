import { describe, expect, test } from "bun:test";
import {
  AGENT_ENGINES,
  AgentError,
  DEFAULT_CONTEXT_WINDOW,
  describeFormatNames,
  FORMATS,
  type AgentName,
  type EngineName,
} from "../../core/index.ts";
import { resolveHandoffOptions } from "./options.ts";
import {
  agentBinSetting,
  CONFIG_KEYS,
  DEFAULT_MODEL,
  describeSource,
  resolveSettings,
  SETTING_ENV,
  type ConfigFile,
  type Settings,
} from "./settings.ts";
import { ENGINE_CHOICES, HOOK_ENGINE_CHOICES, type HookEngineChoice } from "./setting-values.ts";

const PATH = "/home/me/.config/agent/config.toml";
type Env = Record<string, string | undefined>;

function file(data: Record<string, unknown>, lines: Record<string, number> = {}): ConfigFile {
  return { path: PATH, data, lines };
}

/** One setting in each of the four places, so every precedence is one row. */
const LAYERS = {
  model: { flag: ["model", "flag-model"], env: ["AGENT_MODEL", "env-model"], file: "file-model", fallback: DEFAULT_MODEL },
  baseUrl: {
    flag: ["base-url", "http://flag:1/v1"],
    env: ["OPENAI_BASE_URL", "http://env:1/v1"],
    file: "http://file:1/v1",
    fallback: undefined,
  },
  contextWindow: { flag: ["context-window", "1000"], env: ["AGENT_CONTEXT_WINDOW", "2000"], file: 3000, fallback: DEFAULT_CONTEXT_WINDOW },
  engine: { flag: ["engine", "offline"], env: ["AGENT_ENGINE", "llm"], file: "auto", fallback: "auto" },
  to: { flag: ["to", "omp"], env: ["AGENT_TO", "pi"], file: "omp", fallback: undefined },
} as const;
const KEYS = { model: "model", baseUrl: "base-url", contextWindow: "context-window", engine: "engine", to: "to" } as const;

/** What a layer's value resolves to (numbers given as text on flags and in the environment). */
function expected(setting: keyof typeof LAYERS, layer: "flag" | "env" | "file" | "default"): unknown {
  const l = LAYERS[setting];
  if (layer === "default") return l.fallback;
  if (layer === "file") return l.file;
  const text = layer === "flag" ? l.flag[1] : l.env[1];
  return setting === "contextWindow" ? Number(text) : text;
}

describe("resolveSettings: flags > environment > config file > defaults", () => {
  const given = [["flag", "env", "file"], ["env", "file"], ["flag", "file"], ["flag", "env"], ["file"], []] as const;
  const cases = (Object.keys(LAYERS) as (keyof typeof LAYERS)[]).flatMap((setting) => given.map((layers) => [setting, layers] as const));

  test.each(cases)("%s given in %p", (setting, layers) => {
    const l = LAYERS[setting];
    const args = layers.includes("flag" as never) ? { [l.flag[0]]: l.flag[1] } : {};
    const env: Env = layers.includes("env" as never) ? { [l.env[0]]: l.env[1] } : {};
    const config = layers.includes("file" as never) ? file({ [KEYS[setting]]: l.file }, { [KEYS[setting]]: 4 }) : undefined;
    const winner = layers[0] ?? "default";
    const resolved = resolveSettings(args, env, config)[setting];
    expect(resolved.value).toEqual(expected(setting, winner) as Settings[typeof setting]["value"]);
    const from = { flag: `--${KEYS[setting]}`, env: l.env[0], file: `${PATH}:4`, default: "default" }[winner];
    expect(describeSource(resolved.source)).toBe(from);
  });

  test("an empty flag or variable is not given: the next place decides", () => {
    const settings = resolveSettings(
      { model: "" },
      { AGENT_MODEL: "", AGENT_ENGINE: "" },
      file({ model: "file-model", engine: "offline" }),
    );
    expect([settings.model.value, settings.engine.value]).toEqual(["file-model", "offline"]);
  });

  test("camelCase flags count as their kebab-case names", () => {
    expect(resolveSettings({ baseUrl: "http://h:1/v1", contextWindow: "500" }, {}, undefined)).toMatchObject({
      baseUrl: { value: "http://h:1/v1" },
      contextWindow: { value: 500 },
    });
  });

  test("a file without a line number for a key is named without one", () => {
    expect(describeSource(resolveSettings({}, {}, file({ model: "m" })).model.source)).toBe(PATH);
  });
});

/** The usage message resolving fails with; fails the test when it does not fail so. */
function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AgentError && error.code === "USAGE") return error.message;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("resolveSettings: what the config file must not hold", () => {
  test.each<[string, Record<string, unknown>, string]>([
    [
      "an unknown key, with a suggestion",
      { base_url: "http://h/v1" },
      `${PATH}:2: unknown setting "base_url"; did you mean "base-url"? (known: model, base-url, context-window, max-input-tokens, engine, to, hook-engine, offer-window, last-exchanges, claude-code-bin, codex-bin, pi-bin, omp-bin)`,
    ],
    [
      "a camelCase key",
      { contextWindow: 1000 },
      `${PATH}:2: unknown setting "contextWindow"; did you mean "context-window"? (known: model, base-url, context-window, max-input-tokens, engine, to, hook-engine, offer-window, last-exchanges, claude-code-bin, codex-bin, pi-bin, omp-bin)`,
    ],
    [
      "a key far from any",
      { colour: "blue" },
      `${PATH}:2: unknown setting "colour" (known: model, base-url, context-window, max-input-tokens, engine, to, hook-engine, offer-window, last-exchanges, claude-code-bin, codex-bin, pi-bin, omp-bin)`,
    ],
    [
      "a table",
      { profiles: { fast: { model: "m" } } },
      `${PATH}:2: unknown setting "profiles" (known: model, base-url, context-window, max-input-tokens, engine, to, hook-engine, offer-window, last-exchanges, claude-code-bin, codex-bin, pi-bin, omp-bin)`,
    ],
    ["an agent we do not write", { to: "aider" }, `${PATH}:2: to takes ${describeFormatNames()}, not "aider"`],
    ["an agent given as a list", { to: ["pi"] }, `${PATH}:2: to takes ${describeFormatNames()}, not an array`],
    ["a bad value", { "context-window": "32k" }, `${PATH}:2: context-window takes a whole number of tokens, not "32k"`],
    ["a zero window", { "context-window": 0 }, `${PATH}:2: context-window takes a whole number of tokens, not 0`],
    ["a fractional window", { "context-window": 1.5 }, `${PATH}:2: context-window takes a whole number of tokens, not 1.5`],
    ["a window given as a switch", { "context-window": true }, `${PATH}:2: context-window takes a whole number of tokens, not true`],
    ["a model given as a number", { model: 5 }, `${PATH}:2: model takes text, not 5`],
    ["a model given as a list", { model: ["a", "b"] }, `${PATH}:2: model takes text, not an array`],
    ["a model given as a table", { model: { name: "a" } }, `${PATH}:2: model takes text, not a table`],
    ["an empty model", { model: "" }, `${PATH}:2: model is empty; delete the line to use the default`],
    [
      "a base URL without a scheme",
      { "base-url": "localhost:11434/v1" },
      `${PATH}:2: base-url "localhost:11434/v1" is not an http:// or https:// URL (did you mean "http://localhost:11434/v1"?)`,
    ],
    [
      "a base URL that is no URL (not echoed: a pasted key?)",
      { "base-url": "sk-proj-abc" },
      `${PATH}:2: base-url is not an http:// or https:// URL`,
    ],
    [
      "a base URL with credentials (shown without them)",
      { "base-url": "ftp://me:pw@h/v1?key=k" },
      `${PATH}:2: base-url "ftp://h/v1?key=***" is not an http:// or https:// URL (it starts with "ftp:")`,
    ],
    ["an unknown engine", { engine: "gpt" }, `${PATH}:2: engine takes ${ENGINE_CHOICES}, not "gpt"`],
    [
      "a hook engine of auto (the default is the agent itself, which auto never starts)",
      { "hook-engine": "auto" },
      `${PATH}:2: hook-engine takes ${HOOK_ENGINE_CHOICES} (unset: the agent /handoff runs in), not "auto"`,
    ],
  ])("%s", (_, data, message) => {
    const lines = Object.fromEntries(Object.keys(data).map((key) => [key, 2]));
    expect(usageError(() => resolveSettings({}, {}, file(data, lines)))).toBe(message);
  });

  test.each(["api-key", "api_key", "apiKey", "OPENAI_API_KEY", "key", "token", "openai-token", "secret", "password", "auth"])(
    "a credential under %p is refused, pointing at OPENAI_API_KEY, without echoing it",
    (key) => {
      const message = usageError(() => resolveSettings({}, {}, file({ [key]: "sk-live-0123456789abcdef" }, { [key]: 7 })));
      expect(message).toBe(
        `${PATH}:7: ${key}: the API key is not read from the config file; set OPENAI_API_KEY in the environment instead`,
      );
      expect(message).not.toContain("sk-live");
    },
  );

  test.each<[string, Record<string, unknown>, string]>([
    [
      "a token where a number belongs",
      { "context-window": "ghp_0123456789abcdefghijABCDEFGHIJ012345" },
      `${PATH}: context-window takes a whole number of tokens, not a value that looks like a secret (not shown)`,
    ],
    [
      "a token as an engine",
      { engine: "sk_live_0123456789abcdefghijklmn" },
      `${PATH}: engine takes ${ENGINE_CHOICES}, not a value that looks like a secret (not shown)`,
    ],
    [
      "a token as a key",
      { sk_live_0123456789abcdefghijklmn: 1 },
      `${PATH}: a key that looks like a secret (not shown); the API key is not read from the config file: set OPENAI_API_KEY in the environment instead`,
    ],
  ])("a likely secret is never echoed: %s", (_, data, message) => {
    expect(usageError(() => resolveSettings({}, {}, file(data)))).toBe(message);
  });

  test("a bad value in the file is an error even when a flag overrides it", () => {
    expect(usageError(() => resolveSettings({ "context-window": "1000" }, {}, file({ "context-window": "lots" })))).toBe(
      `${PATH}: context-window takes a whole number of tokens, not "lots"`,
    );
  });

  test("the environment is only checked where it is used (OPENAI_BASE_URL may be another tool's)", () => {
    expect(resolveSettings({ "base-url": "http://h:1/v1" }, { OPENAI_BASE_URL: "not a url" }, undefined).baseUrl.value).toBe(
      "http://h:1/v1",
    );
  });
});

describe("to: the agent the new session is for, spelled one way", () => {
  // Every name and alias the table knows, as typed (any case, spaces around), gives the one spelling.
  const typed = FORMATS.flatMap((format) =>
    [format.name, ...format.aliases].flatMap((word): [string, AgentName][] => [
      [word, format.name],
      [` ${word.toUpperCase()} `, format.name],
    ]),
  );
  test.each(typed)("%p means %p, from a flag, the environment or the file", (word, name) => {
    expect(resolveSettings({ to: word }, {}, undefined).to.value).toBe(name);
    expect(resolveSettings({}, { AGENT_TO: word }, undefined).to.value).toBe(name);
    expect(resolveSettings({}, {}, file({ to: word })).to.value).toBe(name);
  });

  test.each([
    [{ to: "claude-codex" }, {}, `--to takes ${describeFormatNames()}, not "claude-codex"`],
    [{}, { AGENT_TO: "aider" }, `AGENT_TO takes ${describeFormatNames()}, not "aider"`],
    [
      { to: "ghp_0123456789abcdefghijABCDEFGHIJ012345" },
      {},
      `--to takes ${describeFormatNames()}, not a value that looks like a secret (not shown)`,
    ],
  ])("a name no format has is refused with the names there are: %p %p", (args, env, message) => {
    expect(usageError(() => resolveSettings(args, env, undefined))).toBe(message);
  });

  test("reaches the handoff options; unset, it is the source's agent (undefined)", () => {
    expect(resolveHandoffOptions({ path: "s.jsonl", to: "omp" }, {}).to).toBe("omp");
    expect(resolveHandoffOptions({ path: "s.jsonl" }, {}).to).toBeUndefined();
  });
});

describe("resolveHandoffOptions with a config file", () => {
  const session = { path: "s.jsonl" };

  test("the file's settings reach the options, and a base URL in it turns the model engine on", () => {
    const options = resolveHandoffOptions(
      session,
      {},
      file({ model: "qwen3:8b", "base-url": "http://localhost:11434/v1", "context-window": 32768 }),
    );
    expect(options).toMatchObject({
      model: "qwen3:8b",
      baseUrl: "http://localhost:11434/v1",
      provider: "ollama",
      contextWindow: 32768,
      engine: "llm",
      engineNotice: undefined,
    });
  });

  test('engine = "llm" in the file with no model configured names the file', () => {
    expect(usageError(() => resolveHandoffOptions(session, {}, file({ engine: "llm" }, { engine: 3 })))).toStartWith(
      `engine = "llm" (${PATH}:3) needs a model: set OPENAI_API_KEY`,
    );
    expect(usageError(() => resolveHandoffOptions(session, { AGENT_ENGINE: "llm" }))).toStartWith("AGENT_ENGINE=llm needs a model");
  });

  test("an output cap that does not fit the file's window names where the window came from", () => {
    expect(
      usageError(() =>
        resolveHandoffOptions({ ...session, "max-output-tokens": "4000" }, {}, file({ "context-window": 4000 }, { "context-window": 5 })),
      ),
    ).toBe(`--max-output-tokens 4000 must be smaller than the context window (${PATH}:5) 4000`);
    expect(usageError(() => resolveHandoffOptions({ ...session, "max-output-tokens": "4000" }, { AGENT_CONTEXT_WINDOW: "4000" }))).toBe(
      "--max-output-tokens 4000 must be smaller than the context window (AGENT_CONTEXT_WINDOW) 4000",
    );
  });

  test("the API key never comes from the file, whatever it is called there", () => {
    expect(() => resolveHandoffOptions(session, {}, file({ OPENAI_API_KEY: "sk-file" }))).toThrow(
      "set OPENAI_API_KEY in the environment instead",
    );
  });
});

describe("each agent engine's executable: one setting per engine in the table, under the keys users' files have", () => {
  // [agent, config key, environment variable]: the names README and users' config files use.
  const KNOWN: [EngineName, string, string][] = [
    ["claude-code", "claude-code-bin", "AGENT_CLAUDE_CODE_BIN"],
    ["codex", "codex-bin", "AGENT_CODEX_BIN"],
    ["pi", "pi-bin", "AGENT_PI_BIN"],
    ["omp", "omp-bin", "AGENT_OMP_BIN"],
  ];

  test("the table's engines, in its order, are the known settings", () => {
    expect(AGENT_ENGINES.map((e) => e.name)).toEqual(KNOWN.map(([agent]) => agent));
    expect(CONFIG_KEYS.slice(-KNOWN.length)).toEqual(KNOWN.map(([, key]) => key));
  });

  test.each(KNOWN)("%s: %s in the file, %s in the environment, the environment first", (agent, key, env) => {
    expect(SETTING_ENV[key]).toBe(env);
    const fromFile = resolveSettings({}, {}, file({ [key]: "/opt/file-bin" }, { [key]: 3 }));
    expect(agentBinSetting(fromFile, agent)).toEqual({ value: "/opt/file-bin", source: { kind: "file", path: PATH, line: 3 } });
    const fromEnv = resolveSettings({}, { [env]: "/opt/env-bin" }, file({ [key]: "/opt/file-bin" }));
    expect(agentBinSetting(fromEnv, agent)).toEqual({ value: "/opt/env-bin", source: { kind: "env", name: env } });
    // Only its own agent's: every other engine keeps the one on PATH.
    for (const [other] of KNOWN.filter(([a]) => a !== agent))
      expect(agentBinSetting(fromEnv, other)).toEqual({ value: undefined, source: { kind: "default" } });
  });
});

describe("hook-engine: who writes the document for /handoff inside an agent", () => {
  test.each<[string, Record<string, string>, Record<string, unknown>, HookEngineChoice | undefined, "default" | "env" | "file"]>([
    ["unset: the agent itself", {}, {}, undefined, "default"],
    ["from the environment", { AGENT_HOOK_ENGINE: "offline" }, {}, "offline", "env"],
    ["from the file", {}, { "hook-engine": "LLM" }, "llm", "file"],
    ["an agent's alias", { AGENT_HOOK_ENGINE: "claude" }, {}, "claude-code", "env"],
    ["the environment over the file", { AGENT_HOOK_ENGINE: "codex" }, { "hook-engine": "offline" }, "codex", "env"],
  ])("%s", (_, env, data, value, source) => {
    const settings = resolveSettings({}, env, file(data, Object.fromEntries(Object.keys(data).map((key) => [key, 1]))));
    expect({ value: settings.hookEngine.value, source: settings.hookEngine.source.kind }).toEqual({ value, source });
  });
});
