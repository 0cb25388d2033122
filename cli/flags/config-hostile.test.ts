/**
 * Config files under the 1 MiB bound built to make reading them slow: the work is counted (the
 * parses made), not timed. Bun's TOML parser takes time growing with the square of the keys in one
 * table, and finding a syntax error's line parsed every prefix of the file: 60,000 keys took 26 s,
 * an error on the last of 1,998 long lines 20 s. Now a file is outlined in one pass first (more
 * than 1,000 keys, or nesting past 100, is refused before it is parsed), and the line of an error
 * is found by halving: at most one parse per halving of the lines. A signal that came while the
 * file was read ends the run there (exit 130, the command's message), before anything about it is said.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAgentError } from "../../core/index.ts";
import { cleanEnv, REPO } from "../../fixtures/run-agent.ts";
import { findErrorLine, loadConfigFile } from "./config-file.ts";
import { MAX_TEXT_FILE_BYTES } from "../io/read-whole.ts";
import { CONFIG_KEYS } from "./settings.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-config-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const times = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join("");
const KNOWN = CONFIG_KEYS.join(", ");

/** What `loadConfigFile` makes of `text`: the keys it read or its one line of error, and how often it parsed. */
function load(text: string): { outcome: string; parses: number } {
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_TEXT_FILE_BYTES);
  const path = join(dir, "config.toml");
  writeFileSync(path, text);
  let parses = 0;
  const parse = (part: string) => {
    parses++;
    return Bun.TOML.parse(part);
  };
  try {
    const file = loadConfigFile(path, parse);
    return { outcome: `keys ${Object.keys(file?.data ?? {}).length}, lines ${JSON.stringify(file?.lines)}`, parses };
  } catch (error) {
    return { outcome: isAgentError(error) ? error.message.replace(`${path}:`, "") : String(error), parses };
  }
}

const tooMany = (line: number) => `${line}: more than 1,000 keys; a config file holds a few settings (known: ${KNOWN})`;
const tooDeep = (line: number) => `${line}: nested more than 100 levels deep; a config file holds a few settings (known: ${KNOWN})`;

describe("a hostile config file costs a bounded number of parses", () => {
  test.each<[string, () => string, string, number]>([
    ["60,000 keys", () => times(60_000, (i) => `k${i} = ${i}\n`), tooMany(1001), 0],
    ["95,000 keys of one letter", () => times(95_000, (i) => `${i.toString(36)}=1\n`), tooMany(1001), 0],
    ["60,000 keys in one inline table, on one line", () => `t = {${times(60_000, (i) => `k${i}=1,`).slice(0, -1)}}\n`, tooMany(1), 0],
    ["60,000 dotted keys", () => times(60_000, (i) => `a.k${i} = 1\n`), tooMany(1001), 0],
    ["60,000 table headers", () => times(60_000, (i) => `[t${i}]\n`), tooMany(1001), 0],
    ["a million-deep array", () => `x = ${"[".repeat(1_000_000)}`, tooDeep(1), 0],
    ["a key dotted 400,000 deep", () => `a${".a".repeat(400_000)} = 1\n`, tooDeep(1), 0],
    ["inline tables 300,000 deep", () => `x = ${"{a=".repeat(300_000)}`, tooDeep(1), 0],
    [
      "a syntax error on the last of 1,998 long lines",
      () => `${times(1997, (i) => `# ${String(i).padEnd(498, "x")}\n`)}model = \n`,
      "1998: not valid TOML: Missing value after '='; values must be on the same line",
      13,
    ],
    [
      "a syntax error on the last of 200,000 short lines",
      () => `${"#\n".repeat(199_999)}model = "m" junk\n`,
      "200000: not valid TOML: Expected a newline or end of file after a key/value pair",
      20,
    ],
    [
      "exactly 1,000 keys: read (the settings check then says which is unknown)",
      () => times(1000, (i) => `k${i} = ${i}\n`),
      "keys 1000",
      1,
    ],
    [
      "comments full of = and [",
      () => `${"# ==== [section] ==== {x=1}\n".repeat(30_000)}model = "m"\n`,
      'keys 1, lines {"model":30001}',
      1,
    ],
    ["a value full of = and [", () => `model = "${"a=b[c]{d=e}".repeat(90_000)}"\n`, 'keys 1, lines {"model":1}', 1],
    [
      "a multi-line string of lines that look like keys",
      () => `model = """\n${times(60_000, (i) => `k${i} = ${i}\n`)}"""\n`,
      'keys 1, lines {"model":1}',
      1,
    ],
  ])("%s", (_, text, outcome, parses) => {
    const result = load(text());
    expect(result.outcome.slice(0, outcome.length)).toBe(outcome);
    expect(result.parses).toBeLessThanOrEqual(parses);
  });
});

describe("findErrorLine halves: at most one parse per halving of the lines", () => {
  test.each([10, 1998, 100_000])("an error on the last of %d lines", (count) => {
    const text = `${"# a comment\n".repeat(count - 1)}model =\n`;
    let parses = 0;
    const parse = (part: string) => {
      parses++;
      return Bun.TOML.parse(part);
    };
    let message = "";
    try {
      Bun.TOML.parse(text);
    } catch (error) {
      message = error instanceof Error ? error.message : "";
    }
    expect(findErrorLine(text, message, parse)).toBe(count);
    expect(parses).toBeLessThanOrEqual(Math.ceil(Math.log2(count + 1)) + 1);
  });
});

describe("a signal while the config file is read", () => {
  /** The CLI, with SIGTERM or SIGINT sent to itself from inside the config file's parse (fixtures/signal-in-config.ts). */
  async function signalled(signal: string, args: string[], config: string) {
    const home = mkdtempSync(join(dir, "home-"));
    mkdirSync(join(home, ".config", "agent"), { recursive: true });
    writeFileSync(join(home, ".config", "agent", "config.toml"), config);
    const proc = Bun.spawn([process.execPath, join(REPO, "fixtures", "signal-in-config.ts"), ...args], {
      env: cleanEnv(home, { SIGNAL_IN_CONFIG: signal }),
      cwd: home,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  }

  const session = join(REPO, "fixtures", "sessions", "v3-branches.jsonl");
  test.each([
    ["SIGTERM", ["handoff", session, "--dry-run"], 'k = "an unknown key"\n', "Handoff cancelled\n"],
    ["SIGINT", ["handoff", session, "--dry-run"], 'model = "m"\n', "Handoff cancelled\n"],
    ["SIGTERM", ["config"], 'k = "an unknown key"\n', "Cancelled\n"],
    ["SIGINT", ["config"], 'model = "m"\n', "Cancelled\n"],
  ])("%s, agent %p, config %p: exit 130, the command's message and nothing else", async (signal, args, config, message) => {
    expect(await signalled(signal, args, config)).toEqual({ code: 130, stdout: "", stderr: message });
  });
});
