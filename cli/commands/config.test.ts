/** `agent config` and the config file, as a user meets them: spawned, with a HOME and XDG_CONFIG_HOME of the test's own. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

/** Writes `text` as the config file under a config home of the test's own; returns its path and an env pointing at it. */
function withConfig(text: string | Buffer | undefined, extra: Record<string, string> = {}) {
  const xdg = join(sandbox.home, "xdg");
  const path = join(xdg, "agent", "config.toml");
  if (text !== undefined) {
    mkdirSync(join(xdg, "agent"), { recursive: true });
    writeFileSync(path, text);
  }
  return { path, env: cleanEnv(sandbox.home, { XDG_CONFIG_HOME: xdg, ...extra }) };
}

describe("agent config", () => {
  test("with nothing configured: every setting is its default, the file is named as absent", async () => {
    const { path, env } = withConfig(undefined);
    const run = await runAgent(["config"], env);
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout: [
        `config file  ${path} (none)`,
        "",
        "model             gpt-4.1-mini                         default",
        "base-url          OpenAI's API                         default",
        "context-window    128000                               default",
        "max-input-tokens  no limit                             default",
        "engine            auto (offline: no model configured)  default",
        "to                the source's agent                   default",
        "hook-engine       the agent itself                     default",
        "offer-window      from the agent                       default",
        "last-exchanges    on for offline                       default",
        "API key           not set                              OPENAI_API_KEY (read from the environment only)",
        "",
      ].join("\n"),
    });
  });

  test("--json: each setting's value and where it came from (flag, environment, file with its line, default)", async () => {
    const { path, env } = withConfig('# mine\nmodel = "file-model"\ncontext-window = 32768\n', {
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_API_KEY: "sk-config-test-0123456789",
      AGENT_MAX_INPUT_TOKENS: "500000",
      AGENT_OFFER_WINDOW: "1000000",
    });
    const run = await runAgent(["config", "--json", "-m", "flag-model"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("sk-config-test");
    expect(JSON.parse(run.stdout)).toEqual({
      configFile: path,
      configFileFound: true,
      settings: {
        model: { value: "flag-model", askedOfEndpoint: false, source: "flag", from: "--model" },
        "base-url": { value: "http://127.0.0.1:9/v1", source: "env", from: "OPENAI_BASE_URL" },
        "context-window": { value: 32768, source: "file", from: path, line: 3 },
        "max-input-tokens": { value: 500000, source: "env", from: "AGENT_MAX_INPUT_TOKENS" },
        engine: { value: "auto", resolved: "llm", source: "default", from: null },
        to: { value: null, source: "default", from: null },
        "hook-engine": { value: null, source: "default", from: null },
        "offer-window": { value: 1000000, source: "env", from: "AGENT_OFFER_WINDOW" },
        "last-exchanges": { value: null, source: "default", from: null },
        "claude-code-bin": { value: null, source: "default", from: null },
        "codex-bin": { value: null, source: "default", from: null },
        "pi-bin": { value: null, source: "default", from: null },
        "omp-bin": { value: null, source: "default", from: null },
      },
      apiKey: { set: true, from: "OPENAI_API_KEY" },
    });
  });

  test("a local endpoint and no model set: the model is shown as asked of the endpoint, wherever the URL came from", async () => {
    const { path, env } = withConfig('base-url = "http://localhost:11434/v1"\n');
    const table = await runAgent(["config"], env);
    expect(table.stdout).toContain("model             (asked of the endpoint)    default\n");
    expect(table.stdout).toContain(`base-url          http://localhost:11434/v1  ${path}:1\n`);
    const json = JSON.parse((await runAgent(["config", "--json"], env)).stdout);
    expect(json.settings.model).toEqual({ value: null, askedOfEndpoint: true, source: "default", from: null });
    // A model set anywhere is the one used; a non-local endpoint still gets the default.
    for (const [args, extra, value] of [
      [["-m", "qwen3:8b"], {}, "qwen3:8b"],
      [[], { AGENT_MODEL: "qwen3:4b" }, "qwen3:4b"],
      [["--base-url", "https://openrouter.ai/api/v1"], {}, "gpt-4.1-mini"],
    ] as const) {
      const run = await runAgent(["config", "--json", ...args], { ...env, ...extra });
      expect(JSON.parse(run.stdout).settings.model.value).toBe(value);
    }
    // AGENT_PROVIDER names a local server behind any URL, as it does for agent handoff.
    const proxied = await runAgent(["config", "--json", "--base-url", "https://llm.example.com/v1"], { ...env, AGENT_PROVIDER: "vllm" });
    expect(JSON.parse(proxied.stdout).settings.model.askedOfEndpoint).toBe(true);
  });

  test("the table names the file and line a setting came from", async () => {
    const { path, env } = withConfig('engine = "offline"\n');
    const run = await runAgent(["config"], env);
    expect(run.stdout).toContain(`engine            offline             ${path}:1\n`);
    expect(run.stdout.split("\n").filter((line) => /\s$/.test(line))).toEqual([]);
  });

  test("URLs are shown without credentials or query values", async () => {
    const { env } = withConfig('base-url = "https://me:hunter2@proxy.example/v1?token=abc123"\n');
    const run = await runAgent(["config", "--json"], env);
    const text = await runAgent(["config"], env);
    for (const out of [run.stdout, text.stdout]) {
      expect(out).toContain("https://proxy.example/v1?token=***");
      expect(out).not.toContain("hunter2");
      expect(out).not.toContain("abc123");
    }
  });

  test('engine = "llm" with no model configured: shown, with a warning saying why handoff would refuse it', async () => {
    const { path, env } = withConfig('engine = "llm"\n');
    const run = await runAgent(["config", "--json"], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).settings.engine).toEqual({ value: "llm", resolved: null, source: "file", from: path, line: 1 });
    expect(run.stderr).toStartWith(`warning: engine = "llm" (${path}:1) needs a model`);
  });

  test('engine = "claude" is the agent engine claude-code; an agent\'s executable set in the file or the environment is shown where it came from', async () => {
    const { path, env } = withConfig('engine = "claude"\nclaude-code-bin = "/opt/claude/bin/claude"\n', { AGENT_PI_BIN: "pi-nightly" });
    const table = await runAgent(["config"], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`\\nengine +claude-code +${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1\\n`));
    expect(table.stdout).toMatch(/\nclaude-code-bin +\/opt\/claude\/bin\/claude +.*config\.toml:2\n/);
    expect(table.stdout).toMatch(/\npi-bin +pi-nightly +AGENT_PI_BIN\n/);
    expect(table.stdout).not.toContain("codex-bin");
    const json = JSON.parse((await runAgent(["config", "--json"], env)).stdout);
    expect(json.settings.engine).toEqual({ value: "claude-code", resolved: "claude-code", source: "file", from: path, line: 1 });
    expect(json.settings["claude-code-bin"]).toEqual({ value: "/opt/claude/bin/claude", source: "file", from: path, line: 2 });
  });

  test("a word after it is a usage error", async () => {
    const { env } = withConfig(undefined);
    expect(await runAgent(["config", "show"], env)).toEqual({
      code: 2,
      stdout: "",
      stderr: 'error: unexpected argument "show": this command takes no arguments (see agent config --help)\n',
    });
  });
});

describe("agent config spells each term one way in everything it prints", () => {
  // Every such line but the help's headings, which are all capitals like every heading (USAGE, OPTIONS).
  const SPELLINGS: [RegExp, string][] = [
    // As words (a key the user wrote, `api-key`, is quoted as written).
    [/config(?:uration)? file/gi, "config file"],
    [/\bapi key\b/gi, "API key"],
  ];
  test("the table (with and without a file), --help, and the warnings and errors about the file", async () => {
    const none = withConfig(undefined);
    const runs = [await runAgent(["config"], none.env), await runAgent(["config", "--help"], none.env)];
    const found = withConfig('engine = "llm"\n');
    runs.push(await runAgent(["config"], found.env), await runAgent(["config", "--to", "nope"], found.env));
    runs.push(await runAgent(["config"], withConfig("modle = 1\n").env), await runAgent(["config"], withConfig("api-key = 1\n").env));
    const lines = runs.flatMap((run) => `${run.stdout}\n${run.stderr}`.split("\n")).filter((line) => line !== line.toUpperCase());
    const other = SPELLINGS.flatMap(([pattern, spelling]) =>
      lines.flatMap((line) => [...line.matchAll(pattern)].map((m) => m[0]).filter((word) => word !== spelling)),
    );
    expect(other).toEqual([]);
    // Each term was there to be checked.
    for (const [, spelling] of SPELLINGS) expect(lines.some((line) => line.includes(spelling))).toBe(true);
  });
});

describe("secrets in every field of the config file are never printed", () => {
  const KEY = "sk-configured-key-0123456789";
  const GITHUB = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
  const STRIPE = "sk_live_0123456789abcdefghijklmn";

  test.each<[string, string, number]>([
    ["the configured key as the model", `model = "${KEY}"\n`, 0],
    ["a token as the model", `model = "${GITHUB}"\n`, 0],
    ["the configured key in the base URL's path", `base-url = "https://proxy.example/${KEY}/v1"\n`, 0],
    ["a token as the context window", `context-window = "${STRIPE}"\n`, 2],
    ["a token as the engine", `engine = "${GITHUB}"\n`, 2],
    ["a token as a key", `${GITHUB} = 1\n`, 2],
    ["a token as a quoted key", `"${STRIPE}" = "x"\n`, 2],
  ])("%s", async (_, text, code) => {
    const { env } = withConfig(text, { OPENAI_API_KEY: KEY });
    for (const args of [["config"], ["config", "--json"], ["handoff", EXAMPLE, "--dry-run"]]) {
      const run = await runAgent(args, env);
      if (args[0] === "config") expect(run.code).toBe(code);
      // A model id is sent as given (the endpoint needs it), so the dry run shows it; the
      // configured key is withheld from everything, that model id included.
      const secrets = args[0] === "config" || code !== 0 ? [KEY, GITHUB, STRIPE] : [KEY];
      for (const secret of secrets) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
    }
  });
});

describe("a config file agent handoff cannot use stops the run before anything is read or sent", () => {
  const CASES: [string, string, (path: string) => string][] = [
    [
      "an unknown key",
      'model = "m"\nbase_url = "http://h/v1"\n',
      (p) =>
        `${p}:2: unknown setting "base_url"; did you mean "base-url"? (known: model, base-url, context-window, max-input-tokens, engine, to, hook-engine, offer-window, last-exchanges, claude-code-bin, codex-bin, pi-bin, omp-bin)`,
    ],
    ["a bad value", 'context-window = "32k"\n', (p) => `${p}:1: context-window takes a whole number of tokens, not "32k"`],
    ["not TOML", 'model = "m"\nengine = offline\n', (p) => `${p}:2: not valid TOML: `],
    [
      "the API key",
      '\napi-key = "sk-live-abcdef0123456789"\n',
      (p) => `${p}:2: api-key: the API key is not read from the config file; set OPENAI_API_KEY in the environment instead`,
    ],
  ];

  /** TOML is UTF-8: bytes that are not, on the line they are on. */
  const NOT_UTF8: [string, Buffer, number][] = [
    ["two bytes no UTF-8 has, in a value", Buffer.from([...Buffer.from('model = "'), 0xff, 0xfe, ...Buffer.from('"\n')]), 1],
    [
      "a lone continuation byte on line 3",
      Buffer.concat([Buffer.from('model = "m"\n\nengine = "off'), Buffer.from([0x80]), Buffer.from('line"\n')]),
      3,
    ],
    ["a character cut short at the end", Buffer.concat([Buffer.from('model = "m"\nto = "pi"\n# caf'), Buffer.from([0xe2, 0x82])]), 3],
    ["an overlong slash", Buffer.concat([Buffer.from('model = "a'), Buffer.from([0xc0, 0xaf]), Buffer.from('b"\n')]), 1],
    ["an encoded surrogate", Buffer.concat([Buffer.from('\nmodel = "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"\n')]), 2],
  ];

  // Refused where every file read whole is checked (read-whole.ts), as a system prompt is.
  test.each(NOT_UTF8)("not UTF-8, %s: exit 2, one line naming the file", async (_, bytes) => {
    const { path, env } = withConfig(bytes);
    for (const args of [["config"], ["handoff", EXAMPLE, "--no-record", "--dry-run"]]) {
      const run = await runAgent(args, env);
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 2,
        stdout: "",
        stderr: `error: ${path}: cannot read the config file (it looks like binary data: it is not UTF-8 text)\n`,
      });
    }
  });

  test.each(CASES)("%s: exit 2, one line naming the file and line, for handoff and config alike", async (_, text, message) => {
    const { path, env } = withConfig(text);
    const src = sandbox.source(EXAMPLE);
    const original = readFileSync(src);
    for (const args of [["handoff", src], ["config"]]) {
      const run = await runAgent(args, env);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toStartWith(`error: ${message(path)}`);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(run.stderr).not.toContain("sk-live");
    }
    sandbox.expectNothingWritten(src, original);
  });

  test("agent inspect does not read it", async () => {
    const { env } = withConfig("nonsense = [\n");
    expect((await runAgent(["inspect", EXAMPLE], env)).code).toBe(0);
  });
});

describe("agent handoff uses the config file", () => {
  test("model and base URL from the file reach the endpoint; a flag still wins", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const { env } = withConfig(`model = "file-model"\nbase-url = "${s.url}"\n`);
    const src = sandbox.source(EXAMPLE);
    const first = await runAgent(["handoff", src, "--no-record", "--json"], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).engine).toBe("llm");
    const second = await runAgent(["handoff", src, "--no-record", "-m", "flag-model"], { ...env, AGENT_MODEL: "env-model" });
    expect(second.code).toBe(0);
    const models = s.requests.map((request) => (request.body as { model?: unknown }).model);
    expect(models).toEqual(["file-model", "flag-model"]);
    expect(readdirSync(sandbox.dir).filter((f) => f !== "source.jsonl")).toHaveLength(2);
  });

  test('engine = "offline" in the file: no model is asked, and no notice is printed', async () => {
    const { env } = withConfig('engine = "offline"\n', { OPENAI_API_KEY: "sk-unused-0123456789" });
    const run = await runAgent(["handoff", sandbox.source(EXAMPLE), "--no-record", "--json"], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).engine).toBe("offline");
    expect(run.stderr).not.toContain("no model configured");
  });
});
