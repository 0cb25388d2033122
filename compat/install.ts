/**
 * Installs a pinned agent with `npm ci` from its committed lockfile into the cache, or reuses
 * the cache when the files it was installed from are unchanged. Runs outside the network
 * namespace (npm needs the registry); nothing here starts an agent.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { agentSourceDir, installDir, type Agent } from "./agents.ts";

/** Written last, so a folder without it (or with another hash) is an install that did not finish. */
const MARKER = ".compat-installed";
const ATTEMPTS = 3;
const BACKOFF_MS = [5_000, 20_000];

export interface InstallResult {
  agent: Agent;
  dir: string;
  reused: boolean;
  seconds: number;
}

function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...filesUnder(path));
    else files.push(path);
  }
  return files;
}

/** A hash of every committed file the install is made from: change one and the cache is rebuilt. */
export function sourceHash(agent: Agent): string {
  const hash = createHash("sha256");
  const root = agentSourceDir(agent);
  for (const file of filesUnder(root))
    hash
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  return hash.digest("hex");
}

/** The environment npm runs with: the caller's, plus the switch that keeps onnxruntime off the internet. */
function npmEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  out.ONNXRUNTIME_NODE_INSTALL = "skip";
  return out;
}

function runNpmCi(dir: string, env: Record<string, string | undefined>): { ok: boolean; log: string } {
  const proc = Bun.spawnSync(["npm", "ci", "--no-audit", "--no-fund"], { cwd: dir, env: npmEnv(env), stdout: "pipe", stderr: "pipe" });
  const log = `${proc.stdout.toString()}${proc.stderr.toString()}`;
  writeFileSync(join(dir, "npm-ci.log"), log);
  return { ok: proc.exitCode === 0, log };
}

/**
 * Installs `agent` unless the cache already holds this exact lockfile's install. A failed
 * `npm ci` (the registry can be flaky) is retried a bounded number of times with a pause.
 */
export async function installAgent(
  agent: Agent,
  env: Record<string, string | undefined>,
  log: (line: string) => void,
): Promise<InstallResult> {
  const started = performance.now();
  const dir = installDir(agent, env);
  const hash = sourceHash(agent);
  const markerPath = join(dir, MARKER);
  if (existsSync(markerPath) && readFileSync(markerPath, "utf8") === hash && existsSync(join(dir, agent.bin))) {
    return { agent, dir, reused: true, seconds: (performance.now() - started) / 1000 };
  }

  for (let attempt = 1; ; attempt++) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(agentSourceDir(agent), dir, { recursive: true });
    log(`${agent.name}: npm ci ${agent.packageName}@${agent.version} (attempt ${attempt} of ${ATTEMPTS})`);
    const result = runNpmCi(dir, env);
    if (result.ok && existsSync(join(dir, agent.bin))) break;
    const tail = result.log.trim().split("\n").slice(-8).join("\n");
    if (attempt >= ATTEMPTS) throw new Error(`${agent.name}: npm ci failed ${ATTEMPTS} times; last output:\n${tail}`);
    const pause = BACKOFF_MS[attempt - 1] ?? 20_000;
    log(`${agent.name}: npm ci failed; retrying in ${pause / 1000}s\n${tail}`);
    await Bun.sleep(pause);
  }
  writeFileSync(markerPath, hash);
  return { agent, dir, reused: false, seconds: (performance.now() - started) / 1000 };
}
