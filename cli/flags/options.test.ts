import { describe, expect, test } from "bun:test";
import { AgentError, describeFormatNames, PROFILES } from "../../core/index.ts";
import { providerName, resolveHandoffOptions, type RawHandoffArgs } from "./options.ts";

type Env = Record<string, string | undefined>;
const resolve = (args: RawHandoffArgs, env: Env = {}) => resolveHandoffOptions({ path: "s.jsonl", ...args }, env);

/** The usage message resolving these flags fails with; fails the test when it does not fail so. */
function usageError(args: RawHandoffArgs, env: Env = {}): string {
  try {
    resolve(args, env);
  } catch (error) {
    if (error instanceof AgentError && error.code === "USAGE") return error.message;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("resolveHandoffOptions: where each setting comes from", () => {
  test.each<[string, RawHandoffArgs, Env, string]>([
    ["the flag over the environment", { model: "flag-model" }, { AGENT_MODEL: "env-model" }, "flag-model"],
    ["the environment without a flag", {}, { AGENT_MODEL: "env-model" }, "env-model"],
    ["the default without either", {}, {}, "gpt-4.1-mini"],
    ["the default when the environment is empty", {}, { AGENT_MODEL: "" }, "gpt-4.1-mini"],
    ["the environment when the flag is empty", { model: "" }, { AGENT_MODEL: "env-model" }, "env-model"],
  ])("model: %s", (_, args, env, model) => {
    expect(resolve(args, env).model).toBe(model);
  });

  test.each<[string, RawHandoffArgs, Env, string | undefined]>([
    ["a local endpoint and no model: asked of the endpoint", { "base-url": "http://localhost:11434/v1" }, {}, undefined],
    ["a private host and no model: asked of the endpoint", {}, { OPENAI_BASE_URL: "http://192.168.1.20:9000/v1" }, undefined],
    [
      "a local server's profile behind any URL: asked of the endpoint",
      { "base-url": "https://llm.example.com/v1", provider: "ollama" },
      {},
      undefined,
    ],
    ["the same through AGENT_PROVIDER", { "base-url": "https://llm.example.com/v1" }, { AGENT_PROVIDER: "lmstudio" }, undefined],
    ["an empty --model at a local endpoint: asked of the endpoint", { "base-url": "http://localhost:11434/v1", model: "" }, {}, undefined],
    ["a local endpoint and --model: that model", { "base-url": "http://localhost:11434/v1", model: "qwen3:8b" }, {}, "qwen3:8b"],
    ["a local endpoint and AGENT_MODEL: that model", { "base-url": "http://localhost:11434/v1" }, { AGENT_MODEL: "qwen3:4b" }, "qwen3:4b"],
    ["a hosted endpoint and no model: the default", { "base-url": "https://openrouter.ai/api/v1" }, {}, "gpt-4.1-mini"],
    ["a public proxy and no model: the default", { "base-url": "https://llm.example.com/v1" }, {}, "gpt-4.1-mini"],
    ["--provider ollama without a base URL (OpenAI's endpoint): the default", { provider: "ollama" }, {}, "gpt-4.1-mini"],
  ])("model: %s", (_, args, env, model) => {
    expect(resolve(args, env).model).toBe(model);
  });

  test("a model in the config file is used at a local endpoint", () => {
    const file = {
      path: "/c/config.toml",
      data: { model: "file-model", "base-url": "http://localhost:11434/v1" },
      lines: { model: 1, "base-url": 2 },
    };
    expect(resolveHandoffOptions({ session: "s.jsonl" }, {}, file).model).toBe("file-model");
    expect(
      resolveHandoffOptions({ session: "s.jsonl" }, {}, { ...file, data: { "base-url": "http://localhost:11434/v1" } }).model,
    ).toBeUndefined();
  });

  test.each<[string, RawHandoffArgs, Env, string | undefined]>([
    [
      "the flag over the environment",
      { "base-url": "http://127.0.0.1:8080/v1" },
      { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" },
      "http://127.0.0.1:8080/v1",
    ],
    ["the camelCase flag", { baseUrl: "http://127.0.0.1:8080/v1" }, {}, "http://127.0.0.1:8080/v1"],
    ["the environment without a flag", {}, { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" }, "https://openrouter.ai/api/v1"],
    ["OpenAI's own endpoint without either", {}, {}, undefined],
  ])("base URL: %s", (_, args, env, baseUrl) => {
    expect(resolve(args, env).baseUrl).toBe(baseUrl);
  });

  test("the provider follows the resolved base URL", () => {
    expect(resolve({}, { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" }).provider).toBe("openrouter");
    expect(resolve({ "base-url": "http://localhost:11434/v1" }, { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" }).provider).toBe(
      "ollama",
    );
    expect(resolve({}).provider).toBe("openai");
  });

  test("the API key comes from OPENAI_API_KEY only, never from a flag", () => {
    expect(resolve({}, { OPENAI_API_KEY: "sk-env" }).apiKey).toBe("sk-env");
    expect(resolve({ "api-key": "sk-flag", apiKey: "sk-flag", OPENAI_API_KEY: "sk-flag" }, {}).apiKey).toBeUndefined();
    expect(resolve({ apiKey: "sk-flag" }, { OPENAI_API_KEY: "sk-env" }).apiKey).toBe("sk-env");
  });

  test("reads no other environment variable for the key", () => {
    expect(resolve({}, { AGENT_API_KEY: "x", OPENROUTER_API_KEY: "y" }).apiKey).toBeUndefined();
  });

  test("defaults: record on, everything else off, the default timeout and retries", () => {
    expect(resolve({})).toEqual({
      sessionPath: "s.jsonl",
      sessionId: undefined,
      agent: undefined,
      focus: undefined,
      model: "gpt-4.1-mini",
      baseUrl: undefined,
      apiKey: undefined,
      provider: "openai",
      profile: PROFILES.openai,
      out: undefined,
      to: undefined,
      leafId: undefined,
      record: true,
      json: false,
      dryRun: false,
      strict: false,
      timeoutMs: 300_000, // the README: 300 seconds
      retries: 2,
      systemPromptFile: undefined,
      contextWindow: 128_000,
      maxOutputTokens: undefined,
      inputLimit: undefined,
      engine: "offline",
      engineNotice: expect.stringContaining("no model configured"),
      unusedByAgent: [],
      agentBin: undefined,
      facts: true,
      lastExchanges: undefined,
      redact: true,
      quiet: false,
      verbose: false,
      exec: false,
      pick: false,
    });
  });

  test.each([
    [{ engine: "claude", model: "gpt-5" }, ["--model"]],
    [{ engine: "codex", "base-url": "http://localhost:1/v1", baseUrl: "http://localhost:1/v1", retries: "3" }, ["--base-url", "--retries"]],
    [{ engine: "pi", provider: "openai", "max-output-tokens": "100" }, ["--provider", "--max-output-tokens"]],
    [{ engine: "omp" }, []],
    [{ engine: "llm", model: "gpt-5" }, []],
    [{ engine: "offline", retries: "1" }, []],
  ])("with %p, the flags an agent engine does not use: %p", (args, unused) => {
    expect(resolve(args, { OPENAI_API_KEY: "sk-env" }).unusedByAgent).toEqual(unused);
  });

  test("--no-facts and --no-redact turn those off; a key picks the model engine", () => {
    const options = resolve({ facts: false, redact: false }, { OPENAI_API_KEY: "sk-env" });
    expect(options).toMatchObject({ facts: false, redact: false, engine: "llm", engineNotice: undefined });
    expect(resolve({ engine: "offline" }, { OPENAI_API_KEY: "sk-env" }).engine).toBe("offline");
  });

  test("reads every flag", () => {
    const options = resolve({
      focus: "the parser",
      out: "new.jsonl",
      leaf: "a0000005",
      record: false,
      json: true,
      "dry-run": true,
      strict: true,
      timeout: "2.5",
      retries: "0",
      "system-prompt-file": "prompt.md",
      "context-window": "32000",
      "max-output-tokens": "4096",
      quiet: true,
      verbose: true,
    });
    expect(options).toMatchObject({
      focus: "the parser",
      out: "new.jsonl",
      leafId: "a0000005",
      record: false,
      json: true,
      dryRun: true,
      strict: true,
      timeoutMs: 2500,
      retries: 0,
      systemPromptFile: "prompt.md",
      contextWindow: 32000,
      maxOutputTokens: 4096,
      quiet: true,
      verbose: true,
    });
  });
});

describe("resolveHandoffOptions: bad values", () => {
  test.each([
    ["abc", '--timeout takes a positive number up to 2147483, not "abc"'],
    ["0", '--timeout takes a positive number up to 2147483, not "0"'],
    ["-5", '--timeout takes a positive number up to 2147483, not "-5"'],
    ["Infinity", '--timeout takes a positive number up to 2147483, not "Infinity"'],
    // A timer longer than 2^31-1 ms would fire at once and fail the run on the spot.
    ["3000000", '--timeout takes a positive number up to 2147483, not "3000000"'],
  ])("--timeout %s", (timeout, message) => {
    expect(usageError({ timeout })).toBe(message);
  });

  test.each([
    ["two", '--retries takes a whole number from 0 to 10, not "two"'],
    ["1.5", '--retries takes a whole number from 0 to 10, not "1.5"'],
    ["-1", '--retries takes a whole number from 0 to 10, not "-1"'],
    ["11", '--retries takes a whole number from 0 to 10, not "11"'],
  ])("--retries %s", (retries, message) => {
    expect(usageError({ retries })).toBe(message);
  });

  test.each<[string, RawHandoffArgs, Env, string]>([
    ["a flag that is not a URL, not echoed", { "base-url": "not a url" }, {}, "--base-url is not an http:// or https:// URL"],
    [
      "a flag with credentials, shown without them",
      { "base-url": "ftp://me:pw@example.com/v1?key=k" },
      {},
      '--base-url "ftp://example.com/v1?key=***" is not an http:// or https:// URL (it starts with "ftp:")',
    ],
    [
      "a flag without a scheme (parses with the scheme localhost:)",
      { "base-url": "localhost:11434/v1" },
      {},
      '--base-url "localhost:11434/v1" is not an http:// or https:// URL (did you mean "http://localhost:11434/v1"?)',
    ],
    [
      "a flag with another scheme",
      { "base-url": "ftp://example.com/v1" },
      {},
      '--base-url "ftp://example.com/v1" is not an http:// or https:// URL (it starts with "ftp:")',
    ],
    [
      "the environment variable, named as such",
      {},
      { OPENAI_BASE_URL: "localhost:11434" },
      'OPENAI_BASE_URL "localhost:11434" is not an http:// or https:// URL (did you mean "http://localhost:11434"?)',
    ],
    // What is wrong, named, and the value quoted as typed (less its credentials).
    [
      "a port out of range",
      { "base-url": "http://127.0.0.1:99999/v1" },
      {},
      '--base-url "http://127.0.0.1:99999/v1" has port 99999, out of range (0 to 65535)',
    ],
    [
      "a port out of range, with credentials",
      { "base-url": "https://me:pw@host:70000/v1?key=k" },
      {},
      '--base-url "https://host:70000/v1?key=***" has port 70000, out of range (0 to 65535)',
    ],
    [
      "a port that is not a number",
      { "base-url": "http://host:80a/v1" },
      {},
      '--base-url "http://host:80a/v1" has a port that is not a number: "80a"',
    ],
    ["an IPv6 host left open", { "base-url": "http://[::1" }, {}, '--base-url "http://[::1" has an IPv6 address with no closing ]'],
    ["an empty host", { "base-url": "http://" }, {}, '--base-url "http://" has no host'],
    ["an empty host before a port", { "base-url": "https://:8080/v1" }, {}, '--base-url "https://:8080/v1" has no host'],
    [
      "a host that does not parse",
      { "base-url": "http://exa mple.com/v1" },
      {},
      '--base-url "http://exa mple.com/v1" has a host that does not parse',
    ],
    [
      "a file URL",
      { "base-url": "file:///etc/passwd" },
      {},
      '--base-url "file:///etc/passwd" is not an http:// or https:// URL (it starts with "file:")',
    ],
  ])("base URL: %s", (_, args, env, message) => {
    expect(usageError(args, env)).toBe(message);
  });

  test.each([
    ["--context-window", "32k", '--context-window takes a whole number of tokens, not "32k"'],
    ["--context-window", "0", '--context-window takes a whole number of tokens, not "0"'],
    ["--context-window", "1.5", '--context-window takes a whole number of tokens, not "1.5"'],
    ["--max-output-tokens", "-1", '--max-output-tokens takes a whole number of tokens, not "-1"'],
    ["--max-output-tokens", "lots", '--max-output-tokens takes a whole number of tokens, not "lots"'],
  ])("%s %s", (flag, value, message) => {
    expect(usageError({ [flag.slice(2)]: value })).toBe(message);
  });

  test("--max-output-tokens must leave room in the window", () => {
    expect(usageError({ "context-window": "8000", "max-output-tokens": "8000" })).toBe(
      "--max-output-tokens 8000 must be smaller than --context-window 8000",
    );
    expect(usageError({ "max-output-tokens": "128000" })).toBe(
      "--max-output-tokens 128000 must be smaller than the default context window 128000",
    );
    expect(resolve({ "context-window": "8000", "max-output-tokens": "7999" }).maxOutputTokens).toBe(7999);
  });

  test("-o - with --json: both want stdout", () => {
    expect(usageError({ out: "-", json: true })).toBe(
      "-o - puts the new session on stdout, where --json would put its object; use one of them",
    );
    expect(resolve({ out: "-" }).out).toBe("-");
    expect(resolve({ out: "./-", json: true }).out).toBe("./-");
  });

  test("no session file: one is searched for", () => {
    expect(resolveHandoffOptions({}, {})).toMatchObject({ sessionPath: undefined, sessionId: undefined, agent: undefined });
  });

  test.each<[string, RawHandoffArgs, string]>([
    ["a path and an id", { path: "s.jsonl", session: "01a2" }, "give a session path or --session 01a2, not both"],
    ["an id of blanks", { session: "   " }, "option --session needs an id, not blanks"],
    ["--agent with stdin", { path: "-", agent: "pi" }, "--agent picks among the sessions found on this machine; - reads one from stdin"],
    ["--agent naming no agent", { agent: "aider" }, `--agent takes ${describeFormatNames()}, not "aider"`],
    ["--exec with -o -", { path: "s.jsonl", exec: true, out: "-" }, "-o - writes no session file for --exec to continue; use one of them"],
    [
      "--exec with --dry-run",
      { path: "s.jsonl", exec: true, "dry-run": true },
      "--dry-run writes no session for --exec to continue; use one of them",
    ],
  ])("usage errors: %s", (_, args, message) => {
    expect(() => resolveHandoffOptions(args, {})).toThrow(message);
  });

  test("where the session comes from: a path, an id, an agent by any of its names", () => {
    expect(resolveHandoffOptions({ session: " 01a2 ", agent: "Claude" }, {})).toMatchObject({
      sessionPath: undefined,
      sessionId: "01a2",
      agent: "claude-code",
    });
    expect(resolveHandoffOptions({ path: "dir", agent: "codex", exec: true }, {})).toMatchObject({
      sessionPath: "dir",
      agent: "codex",
      exec: true,
    });
  });
});

describe("the provider profile", () => {
  test.each([
    [{}, {}, "openai"],
    [{ "base-url": "https://api.groq.com/openai/v1" }, {}, "groq"],
    [{ "base-url": "http://127.0.0.1:9999/v1" }, {}, "generic"],
    [{ "base-url": "http://127.0.0.1:9999/v1", provider: "vllm" }, {}, "vllm"],
    [{ "base-url": "http://127.0.0.1:9999/v1" }, { AGENT_PROVIDER: "lmstudio" }, "lmstudio"],
    [{ "base-url": "http://localhost:11434/v1", provider: "auto" }, { AGENT_PROVIDER: "groq" }, "ollama"],
    [{ "base-url": "http://localhost:11434/v1", provider: "" }, {}, "ollama"],
  ])("%o with %o → %s", (args, env, id) => {
    const chosen: string = resolveHandoffOptions({ path: "s.jsonl", ...args }, env).profile.id;
    expect(chosen).toBe(id);
  });

  test.each([
    [{ provider: "opneai" }, {}, "--provider takes auto or one of openai, openrouter"],
    [{}, { AGENT_PROVIDER: "azure" }, "AGENT_PROVIDER takes auto or one of"],
  ])("an unknown provider %o %o is a usage error", (args, env, message) => {
    expect(() => resolveHandoffOptions({ path: "s.jsonl", ...args }, env)).toThrow(message);
  });
});

describe("the provider recorded: the profile's id, whatever chose it; an unknown endpoint's host", () => {
  test.each<[string | undefined, Record<string, string>, string]>([
    [undefined, {}, "openai"],
    ["https://api.openai.com/v1", {}, "openai"],
    ["https://openrouter.ai/api/v1", {}, "openrouter"],
    ["https://api.anthropic.com/v1", {}, "anthropic"],
    ["http://localhost:11434/v1", {}, "ollama"],
    ["http://127.0.0.1:11434/v1", {}, "ollama"],
    ["http://ollama.internal:8080/v1", {}, "ollama"],
    ["http://127.0.0.1:8080/v1", {}, "llamacpp"],
    ["https://llm.example.com/v1", {}, "llm.example.com"],
    ["https://notopenai.com/v1", {}, "notopenai.com"],
    ["https://myopenrouter.ai/v1", {}, "myopenrouter.ai"],
    // --provider wins: a proxy in front of Anthropic is recorded as Anthropic.
    ["https://llm.example.com/v1", { provider: "anthropic" }, "anthropic"],
    ["http://127.0.0.1:9999/v1", { provider: "vllm" }, "vllm"],
    ["https://api.anthropic.com/v1", { provider: "generic" }, "api.anthropic.com"],
  ])("%s %o → %s", (baseUrl, flags, provider) => {
    const options = resolveHandoffOptions({ path: "s.jsonl", ...(baseUrl ? { "base-url": baseUrl } : {}), ...flags }, {});
    expect(options.provider).toBe(provider);
    expect(providerName(options.profile, baseUrl)).toBe(provider);
  });
});
