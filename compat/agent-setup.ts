/**
 * How each real agent is pointed at the fake model server and run headless in a sandbox. The
 * sessions the suite hands off name `openai/gpt-5` and `anthropic/claude-sonnet-4-5`; the
 * agents' own `openai` and `anthropic` providers are redirected to the fake (Chat Completions),
 * so a request tells which model the agent resumed with.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "./agents.ts";
import type { Sandbox } from "./sandbox.ts";

/** The models the fake serves under the agents' built-in provider names. */
export const SERVED_MODELS: Record<string, string[]> = {
  openai: ["gpt-5", "gpt-5.1"],
  anthropic: ["claude-sonnet-4-5", "claude-opus-4-5"],
};

/** The key the agents send to the fake (the fake accepts anything; agents want one). */
export const FAKE_KEY = "compat-fake-key";

/**
 * The providers the fake serves, in pi's models.json and omp's models.yml shape. For omp,
 * `discovery` makes it list models at the fake instead of at the provider's online catalog.
 */
function providersConfig(origin: string, withDiscovery: boolean): { providers: Record<string, unknown> } {
  const providers: Record<string, unknown> = {};
  for (const [name, ids] of Object.entries(SERVED_MODELS)) {
    providers[name] = {
      ...(withDiscovery ? { discovery: { type: "openai-models-list" } } : {}),
      baseUrl: `${origin}/v1`,
      api: "openai-completions",
      apiKey: FAKE_KEY,
      compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
      models: ids.map((id) => ({ id, name: id, reasoning: false, input: ["text", "image"], contextWindow: 200000, maxTokens: 8192 })),
    };
  }
  return { providers };
}

let ompProviders: string[] | undefined;

/** omp's provider ids, from its own catalog (asked once per run). */
function ompProviderIds(installDir: string): string[] {
  if (ompProviders) return ompProviders;
  const probe = Bun.spawnSync([process.execPath, join(import.meta.dir, "probes/omp-providers.mjs"), installDir], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: "/nonexistent" },
  });
  const value: unknown = JSON.parse(probe.stdout.toString() || "[]");
  ompProviders = Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  return ompProviders;
}

/**
 * Writes the agent's model configuration into the sandbox's HOME. omp 18 also looks for
 * models at every provider it knows on each start; all but the two the fake serves are
 * disabled (the namespace makes that traffic impossible anyway; disabled, it is not attempted).
 */
export function configureAgent(
  agent: Agent,
  sandbox: Sandbox,
  origin: string,
  installDir: string,
  settings: Record<string, unknown> = {},
): void {
  const config = JSON.stringify(providersConfig(origin, agent.name === "omp"), null, 2);
  if (agent.name === "pi") {
    const dir = join(sandbox.home, ".pi/agent");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "models.json"), config);
    writeFileSync(join(dir, "settings.json"), JSON.stringify(settings, null, 2));
  } else if (agent.name === "omp") {
    const dir = join(sandbox.home, ".omp/agent");
    mkdirSync(dir, { recursive: true });
    // YAML is a superset of JSON.
    writeFileSync(join(dir, "models.yml"), config);
    const disabled = ompProviderIds(installDir).filter((id) => !(id in SERVED_MODELS));
    writeFileSync(join(dir, "config.yml"), JSON.stringify({ ...settings, disabledProviders: disabled }, null, 2));
  }
}

/**
 * The command that continues `session` with one prompt and exits (pi's and omp's print mode);
 * with no session, the most recent one of the folder it runs in (`-c`).
 */
export function continueCommand(agent: Agent, installDir: string, session: string | undefined, prompt: string): string[] {
  return printCommand(agent, installDir, session === undefined ? ["-c"] : ["--session", session], prompt);
}

/** The command that starts a new session of pi's or omp's own in the folder it runs in, with one prompt, and exits. */
export function startCommand(agent: Agent, installDir: string, prompt: string): string[] {
  return printCommand(agent, installDir, [], prompt);
}

function printCommand(agent: Agent, installDir: string, which: readonly string[], prompt: string): string[] {
  const bin = join(installDir, agent.bin);
  if (agent.name === "pi") return [bin, "--print", "--offline", "--no-extensions", "--no-skills", "--no-context-files", ...which, prompt];
  return [bin, "--print", "--no-extensions", "--no-skills", "--no-rules", "--no-lsp", "--no-title", ...which, prompt];
}

/** Environment for pi and omp: no keys of any real provider, telemetry and updates off. */
export function agentEnv(sandbox: Sandbox): Record<string, string> {
  return sandbox.env({ PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0", OMP_TELEMETRY: "0" });
}

/**
 * Codex's configuration in `codexHome`: the fake as its only model provider (`fake`, Responses
 * API), no analytics or plugins; `extra` lines (TOML) are added at the top level.
 */
export function configureCodex(codexHome: string, origin: string, extra: readonly string[] = []): void {
  mkdirSync(codexHome, { recursive: true });
  const lines = ['model = "gpt-5"', 'model_provider = "fake"', ...extra];
  lines.push(
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = "${origin}/v1"`,
    'env_key = "COMPAT_FAKE_KEY"',
    'wire_api = "responses"',
  );
  lines.push("[analytics]", "enabled = false", "[features]", "plugins = false", "");
  writeFileSync(join(codexHome, "config.toml"), lines.join("\n"));
}
