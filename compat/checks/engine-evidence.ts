/**
 * What an agent used as the model left as evidence: the requests the fake received (which text
 * reached the model, which tools it was offered) and the agent's session history in the
 * sandbox's HOME, before and after.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { isObject } from "../../core/json.ts";
import type { LoggedRequest } from "../fake/server.ts";

/** Every string inside a request body (keys left out), so a text is found whatever the wire's shape or escaping. */
export function requestStrings(body: unknown): string[] {
  if (typeof body === "string") return [body];
  if (Array.isArray(body)) return body.flatMap(requestStrings);
  if (isObject(body)) return Object.values(body).flatMap(requestStrings);
  return [];
}

/** All the text the model was sent, over all requests. */
export function sentText(requests: readonly LoggedRequest[]): string {
  return requests.flatMap((request) => requestStrings(request.body)).join("\n");
}

/** The names of the tools a model request offered (Chat Completions, Anthropic Messages or Responses shape). */
export function offeredTools(request: LoggedRequest): string[] {
  if (!isObject(request.body) || !Array.isArray(request.body.tools)) return [];
  return request.body.tools.map((tool) => {
    if (!isObject(tool)) return "?";
    if (typeof tool.name === "string") return tool.name;
    if (isObject(tool.function) && typeof tool.function.name === "string") return tool.function.name;
    return typeof tool.type === "string" ? tool.type : "?";
  });
}

/**
 * The parts of a secret that must not be found: the whole value and each of its lines long
 * enough to be telling (a PEM body leaks line by line).
 */
export function secretFragments(value: string): string[] {
  const lines = value.split("\n").filter((line) => line.length >= 12 && !line.startsWith("-----"));
  return [...new Set([value, ...lines])];
}

/** `path → sha256` of every file under `folders`, and one key per extra record: a session history at one moment. */
export type HistorySnapshot = Map<string, string>;

export function snapshotHistory(root: string, folders: readonly string[], records: readonly string[]): HistorySnapshot {
  const snapshot: HistorySnapshot = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else snapshot.set(relative(root, path), createHash("sha256").update(readFileSync(path)).digest("hex"));
    }
  };
  for (const folder of folders) if (existsSync(folder)) walk(folder);
  for (const record of records) snapshot.set(record, "");
  return snapshot;
}

/** What changed between two snapshots: files (or records) added, removed or rewritten. */
export function historyChanges(before: HistorySnapshot, after: HistorySnapshot): string[] {
  const changes: string[] = [];
  for (const [path, hash] of after) {
    if (!before.has(path)) changes.push(`new ${path}`);
    else if (before.get(path) !== hash) changes.push(`changed ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  return changes;
}

/** Files under `folders` whose bytes contain `marker` (a text only the handoff's prompt holds), as paths relative to `root`. */
export function filesHolding(root: string, folders: readonly string[], marker: string): string[] {
  const found: string[] = [];
  const needle = Buffer.from(marker);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path);
      else if (stat?.isFile() && readFileSync(path).includes(needle)) found.push(relative(root, path));
    }
  };
  for (const folder of folders) if (existsSync(folder)) walk(folder);
  return found;
}

/** Processes still alive whose environment has `HOME=<home>`: what an agent run left running. */
export function processesWithHome(home: string): string[] {
  const needle = `HOME=${home}`;
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(needle)) continue;
      found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").slice(0, 120)}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}
