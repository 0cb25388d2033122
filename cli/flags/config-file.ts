import { isAbsolute, join } from "node:path";
import { AgentError, createRedactor, errorMessage, formatCount } from "../../core/index.ts";
import { homeOf } from "../sessions/agent-home.ts";
import { checkpoint } from "../process/cancel.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { outlineToml } from "./toml-outline.ts";
import { CONFIG_KEYS, type ConfigFile } from "./settings.ts";

type Env = Record<string, string | undefined>;

/**
 * Where the config file lives: `$XDG_CONFIG_HOME/agent/config.toml`, else
 * `~/.config/agent/config.toml`. A relative `XDG_CONFIG_HOME` is ignored, as the XDG spec says.
 */
export function configPath(env: Env, home = homeOf(env)): string {
  const base = env.XDG_CONFIG_HOME;
  return join(base && isAbsolute(base) ? base : join(home, ".config"), "agent", "config.toml");
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The line a TOML syntax error is on. Bun's parser says what is wrong but not where, so: the
 * first prefix of the file (whole lines) that fails with the same message, found by halving, so
 * a file of a million lines costs some twenty parses, not a million. A prefix that stops inside a
 * multi-line string or array fails with a different message, so it does not count.
 */
export function findErrorLine(text: string, message: string, parse: (text: string) => unknown): number | undefined {
  // Each prefix keeps its line's own ending: some messages differ at the very end of the text.
  const ends: number[] = [];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) ends.push(at + 1);
  ends.push(text.length);
  const failsSo = (lines: number) => {
    try {
      parse(text.slice(0, ends[lines - 1]));
    } catch (error) {
      return error instanceof Error && error.message === message;
    }
    return false;
  };
  let low = 1;
  let high = ends.length;
  if (!failsSo(high)) return undefined;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (failsSo(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The most keys a config file may define: it holds a few settings, and the parser's time grows with the square of the keys. */
export const MAX_CONFIG_KEYS = 1000;
/** The deepest a config file may nest (arrays, tables, dotted keys): the parser's stack ends somewhere past a thousand. */
export const MAX_CONFIG_DEPTH = 100;
const BOUNDS = { maxKeys: MAX_CONFIG_KEYS, maxDepth: MAX_CONFIG_DEPTH };

/** The 1-based line each top-level key is written on (`key =`, `"key" =`, `key.sub =`, `[key]`), in one pass over the text. */
export function keyLines(text: string, keys: readonly string[]): Record<string, number> {
  const lines = outlineToml(text, BOUNDS).keyLines;
  const found: Record<string, number> = {};
  for (const key of keys) {
    const line = lines.get(key);
    if (line !== undefined) found[key] = line;
  }
  return found;
}

function parseToml(text: string): unknown {
  return Bun.TOML.parse(text);
}

/**
 * Reads and parses the config file; `undefined` when there is none. A file that cannot be read
 * or is not TOML is a usage error naming the file (and the line, where it can be found); so is
 * one that defines more keys or nests deeper than any config file needs, before it is parsed.
 * `parse` is Bun's TOML parser (a test counts its calls).
 */
export function loadConfigFile(path: string, parse: (text: string) => unknown = parseToml): ConfigFile | undefined {
  const cannotRead = (reason: string) => new AgentError("USAGE", `${path}: cannot read the config file (${reason})`, { file: path });
  // Nothing there, or a file where a folder on the way should be (~/.config as a file): no
  // config. A pipe or a device there would block the run or feed it forever: only a file is read.
  const text = readTextFile(path, cannotRead, MAX_TEXT_FILE_BYTES, "undefined");
  if (text === undefined) return undefined;
  const outline = outlineToml(text, BOUNDS);
  const overBound = (line: number, what: string) =>
    new AgentError("USAGE", `${path}:${line}: ${what}; a config file holds a few settings (known: ${CONFIG_KEYS.join(", ")})`, {
      file: path,
      line,
    });
  // Nesting first: past the bound, the parser's stack is what gives out.
  if (outline.tooDeepAt !== undefined) throw overBound(outline.tooDeepAt, `nested more than ${MAX_CONFIG_DEPTH} levels deep`);
  if (outline.tooManyKeysAt !== undefined) throw overBound(outline.tooManyKeysAt, `more than ${formatCount(MAX_CONFIG_KEYS)} keys`);
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    const message = errorMessage(error);
    const line = findErrorLine(text, message, parse);
    // The parser quotes keys; a key that is a pasted secret is not echoed.
    const reason = createRedactor().redact(message.replace(/^TOML Parse error: /, ""));
    throw new AgentError("USAGE", `${path}${line === undefined ? "" : `:${line}`}: not valid TOML: ${reason}`, { file: path, line });
  }
  if (!isTable(data)) throw new AgentError("USAGE", `${path}: not valid TOML`, { file: path });
  const found: Record<string, number> = {};
  for (const key of Object.keys(data)) {
    const line = outline.keyLines.get(key);
    if (line !== undefined) found[key] = line;
  }
  return { path, data, lines: found };
}

/**
 * The config file at its usual place, as `loadConfigFile` reads it; then a signal that came while
 * it was read (synchronous work, which no handler interrupts) ends the run there, with exit 130 and
 * the command's own message, before anything about the file is said or done.
 */
export async function readConfigFile(env: Env, signal: AbortSignal): Promise<ConfigFile | undefined> {
  try {
    return loadConfigFile(configPath(env));
  } finally {
    await checkpoint(signal);
  }
}
