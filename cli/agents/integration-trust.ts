/**
 * Whether the agent will ask to trust our hooks at its next start (Codex: "Hooks need review"),
 * from the files as they are after `integrate` wrote them: the hooks file (our hooks, their places)
 * and the trust entries the agent keeps (`config.toml`). Codex's rule is in core's hook-trust.ts.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type HookTrust, ourHooks, trustOf } from "../../core/agent-run/integration/hook-trust.ts";
import type { AgentIntegration } from "../../core/agent-run/integration/types.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { agentHome, joinSegments } from "../sessions/agent-home.ts";
import type { Run } from "../run.ts";
import { cannotRead } from "./integration-memory.ts";

/** The text of a file, `undefined` when there is none; `null` when it is there but cannot be read. */
function textOf(path: string): string | undefined | null {
  try {
    return readTextFile(path, cannotRead(path), MAX_TEXT_FILE_BYTES, "undefined");
  } catch {
    return null;
  }
}

/** `[hooks.state]` of a config.toml: trusted hash by key; `null` when the file cannot be read as TOML. */
function trustedHashes(text: string | undefined | null): Map<string, string> | null {
  const found = new Map<string, string>();
  if (text === undefined) return found;
  if (text === null) return null;
  let config: unknown;
  try {
    config = Bun.TOML.parse(text);
  } catch {
    return null;
  }
  const state = (config as { hooks?: { state?: unknown } } | null)?.hooks?.state;
  if (typeof state !== "object" || state === null) return found;
  for (const [key, entry] of Object.entries(state)) {
    const hash = (entry as { trusted_hash?: unknown } | null)?.trusted_hash;
    if (typeof hash === "string") found.set(key, hash);
  }
  return found;
}

/** The path Codex keys its trust by: it takes its home folder by its real path (links resolved). */
function keyPath(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

/** The hash Codex trusts a hook by, from the text it hashes (`identity` in hook-trust.ts). */
export function hookHash(identity: string): string {
  // Bun's own hasher: node:crypto would be loaded at every start (cli/scenarios/lazy-imports.test.ts).
  return `sha256:${new Bun.CryptoHasher("sha256").update(identity).digest("hex")}`;
}

/** For each hook of ours in the agent's hooks file, in file order: whether the agent asks to trust it at its next start. */
export function hookTrust(run: Run, integration: AgentIntegration): { event: string; trust: HookTrust }[] {
  const support = integration.trust;
  if (support === undefined) return [];
  const home = agentHome(run);
  const hooksPath = joinSegments(support.hooksFile(home));
  const hooks = textOf(hooksPath);
  const trusted = trustedHashes(textOf(joinSegments(support.configFile(home))));
  const prefix = keyPath(hooksPath);
  return ourHooks(hooks ?? undefined).map(({ event, keySuffix, identity }) => {
    if (trusted === null) return { event, trust: "unknown" };
    const hash = identity === undefined ? undefined : hookHash(identity);
    return { event, trust: trustOf(trusted.get(prefix + keySuffix), hash) };
  });
}
