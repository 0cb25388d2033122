import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { AgentError, createRedactor, errorMessage } from "../core/index.ts";
import { readRegularFile } from "./files.ts";
import type { ConfigFile } from "./settings.ts";

type Env = Record<string, string | undefined>;

/**
 * Where the config file lives: `$XDG_CONFIG_HOME/agent/config.toml`, else
 * `~/.config/agent/config.toml`. A relative `XDG_CONFIG_HOME` is ignored, as the XDG spec says.
 */
export function configPath(env: Env, home = homedir()): string {
  const base = env.XDG_CONFIG_HOME;
  return join(base && isAbsolute(base) ? base : join(home, ".config"), "agent", "config.toml");
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The line a TOML syntax error is on. Bun's parser says what is wrong but not where, so: the
 * first prefix of the file that fails with the same message. A prefix that stops inside a
 * multi-line string or array fails with a different message, so it does not count.
 */
export function findErrorLine(text: string, message: string, parse: (text: string) => unknown): number | undefined {
  const lines = text.split("\n");
  if (lines.length > 2000) return undefined;
  let end = 0;
  for (let n = 1; n <= lines.length; n++) {
    // Each prefix keeps its line's own ending: some messages differ at the very end of the text.
    end += (lines[n - 1] ?? "").length + 1;
    try {
      parse(text.slice(0, end));
    } catch (error) {
      if (error instanceof Error && error.message === message) return n;
    }
  }
  return undefined;
}

/** The 1-based line each top-level key is written on (`key =`, `"key" =`, `key.sub =`, `[key]`). */
export function keyLines(text: string, keys: readonly string[]): Record<string, number> {
  const found: Record<string, number> = {};
  const lines = text.split("\n");
  for (const key of keys) {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`^\\s*(?:\\[\\[?\\s*)?(["']?)${escaped}\\1\\s*[=.\\]]`);
    const index = lines.findIndex((line) => pattern.test(line));
    if (index >= 0) found[key] = index + 1;
  }
  return found;
}

/**
 * The file's text; TOML is UTF-8, and a file that is not is refused on the line of its first
 * bad byte (a lenient decode would turn it into U+FFFD and send that as a model id).
 */
function decodeUtf8(bytes: Uint8Array, path: string): string {
  const strict = new TextDecoder("utf-8", { fatal: true });
  try {
    return strict.decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      try {
        strict.decode(bytes.subarray(start, i));
      } catch {
        break;
      }
      line++;
      start = i + 1;
    }
    throw new AgentError("USAGE", `${path}:${line}: not valid TOML: not UTF-8`, { file: path, line });
  }
}

function parseToml(text: string): unknown {
  return Bun.TOML.parse(text);
}

/**
 * Reads and parses the config file; `undefined` when there is none. A file that cannot be read
 * or is not TOML is a usage error naming the file (and the line, where it can be found).
 */
export function loadConfigFile(path: string): ConfigFile | undefined {
  const cannotRead = (reason: string) => new AgentError("USAGE", `${path}: cannot read the config file (${reason})`, { file: path });
  // Nothing there, or a file where a folder on the way should be (~/.config as a file): no
  // config. A pipe or a device there would block the run or feed it forever: only a file is read.
  const bytes = readRegularFile(path, cannotRead, "undefined");
  if (bytes === undefined) return undefined;
  const text = decodeUtf8(bytes, path);
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (error) {
    const message = errorMessage(error);
    const line = findErrorLine(text, message, parseToml);
    // The parser quotes keys; a key that is a pasted secret is not echoed.
    const reason = createRedactor().redact(message.replace(/^TOML Parse error: /, ""));
    throw new AgentError("USAGE", `${path}${line === undefined ? "" : `:${line}`}: not valid TOML: ${reason}`, { file: path, line });
  }
  if (!isTable(data)) throw new AgentError("USAGE", `${path}: not valid TOML`, { file: path });
  return { path, data, lines: keyLines(text, Object.keys(data)) };
}
