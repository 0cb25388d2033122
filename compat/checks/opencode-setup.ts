/**
 * The real opencode in a sandbox, for every check that runs it (checks/opencode-rows.ts and the
 * matrix's opencode target): its configuration (the fake as an OpenAI-compatible provider), its
 * environment, and one run of its CLI from the sandbox's project.
 *
 * opencode fetches a plugin package from the npm registry on every start, and no switch turns
 * that off. It loads npm's configuration to do so, so `npm_config_registry` points it at a
 * closed port on loopback: the fetch fails at once without a name looked up (in the namespace it
 * would fail anyway, after asking the DNS stub for registry.npmjs.org), and opencode carries on.
 * With no lookup left, a run of opencode can share the namespace with other agents' runs whose
 * checks count every name looked up while they ran.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../agents.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { runAgent, type AgentRun, type Sandbox } from "../sandbox.ts";

/** The provider the configuration names the fake by, and the model opencode uses when a session names none. */
export const OPENCODE_PROVIDER = "fake";
export const OPENCODE_DEFAULT_MODEL = "fake-model";

/** The registry opencode's plugin fetch is sent to: loopback's discard port, which nothing listens on. */
const CLOSED_REGISTRY = "http://127.0.0.1:9/";

/**
 * Writes opencode's configuration into the sandbox's HOME: the fake as its provider serving
 * `models` (the first its default), no update, no sharing.
 */
export function configureOpencode(sandbox: Sandbox, fake: FakeModelServer, models: readonly string[] = [OPENCODE_DEFAULT_MODEL]): void {
  const folder = join(sandbox.home, ".config", "opencode");
  mkdirSync(folder, { recursive: true });
  const config = {
    $schema: "https://opencode.ai/config.json",
    provider: {
      [OPENCODE_PROVIDER]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `${fake.origin}/v1`, apiKey: "sk-compat" },
        models: Object.fromEntries(models.map((model) => [model, { name: model }])),
      },
    },
    model: `${OPENCODE_PROVIDER}/${models[0] ?? OPENCODE_DEFAULT_MODEL}`,
    autoupdate: false,
    share: "disabled",
  };
  writeFileSync(join(folder, "opencode.json"), JSON.stringify(config, null, 2));
}

/** The environment opencode runs with in the sandbox: no models catalogue, no update, the plugin fetch kept on loopback. */
export function opencodeEnv(sandbox: Sandbox): Record<string, string> {
  return sandbox.env({ OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1", npm_config_registry: CLOSED_REGISTRY });
}

/** Where opencode keeps its database in the sandbox (`$HOME/.local/share/opencode/opencode.db`, no override set). */
export function opencodeDatabaseIn(sandbox: Sandbox): string {
  return join(sandbox.home, ".local", "share", "opencode", "opencode.db");
}

/** `opencode <args>` from the sandbox's project. */
export function runOpencode(agent: Agent, dir: string, sandbox: Sandbox, dns: DnsLog, args: readonly string[]): Promise<AgentRun> {
  return runAgent([join(dir, agent.bin), ...args], { cwd: sandbox.project, env: opencodeEnv(sandbox), timeoutMs: 120_000 }, dns);
}

/**
 * Runs `read` on opencode's database without changing anything beside it: a read-only
 * connection to a database in WAL mode would leave a `-wal` and a `-shm` file there (checks
 * compare the folder's files), a read-write one that cannot write (`query_only`) removes them
 * when it closes, as our CLI's reads do (cli/sessions/session-rows.ts).
 */
export function readOpencodeDatabase<T>(path: string, read: (db: Database) => T): T {
  const db = new Database(path, { readwrite: true, create: false });
  try {
    db.exec("PRAGMA query_only = ON");
    return read(db);
  } finally {
    db.close();
  }
}
