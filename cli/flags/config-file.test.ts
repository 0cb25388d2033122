import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentError } from "../../core/index.ts";
import { configPath, findErrorLine, keyLines, loadConfigFile } from "./config-file.ts";

describe("configPath", () => {
  test.each<[Record<string, string>, string]>([
    [{}, "/home/me/.config/agent/config.toml"],
    [{ XDG_CONFIG_HOME: "/etc/xdg-me" }, "/etc/xdg-me/agent/config.toml"],
    [{ XDG_CONFIG_HOME: "" }, "/home/me/.config/agent/config.toml"],
    // The XDG spec: a relative path is invalid and is ignored.
    [{ XDG_CONFIG_HOME: "relative/dir" }, "/home/me/.config/agent/config.toml"],
  ])("%p → %s", (env, path) => {
    expect(configPath(env, "/home/me")).toBe(path);
  });
});

describe("keyLines", () => {
  test("finds each top-level key in the ways TOML writes one", () => {
    const text = ["# settings", 'model = "m"', '  "base-url"="http://h/v1"', "context-window.x = 1", "[engine]", "[[to]]"].join("\n");
    expect(keyLines(text, ["model", "base-url", "context-window", "engine", "to", "missing"])).toEqual({
      model: 2,
      "base-url": 3,
      "context-window": 4,
      engine: 5,
      to: 6,
    });
  });

  test("a key that only appears inside a value or a comment is not found there", () => {
    expect(keyLines('# model = "x"\nnote = "model = y"\nmodel = "z"', ["model"])).toEqual({ model: 3 });
  });

  test.each<[string, string, string[], Record<string, number>]>([
    ["a byte-order mark and CRLF line ends", "\uFEFFmodel = 'm'\r\nengine = \"llm\"\r\n", ["model", "engine"], { model: 1, engine: 2 }],
    ["a quoted key with an escape", '"mod\\u0065l" = 1\n', ["model"], { model: 1 }],
    ["a literal key with a space", "'my key' = 1\n", ["my key"], { "my key": 1 }],
    ["a key after a multi-line array of numbers", "a = [\n  1.5,\n  2.5,\n]\nmodel = 'x' # model = y\n", ["model"], { model: 5 }],
    ["lines like keys inside a multi-line string", "x = '''\nmodel = 1\n'''\nmodel = 2\n", ["model"], { model: 4 }],
    ["a key inside an inline table is not top-level", "t = { a.b = 1, model = 2 }\nmodel = 3\n", ["model"], { model: 2 }],
    ["a key under a table header is not top-level", "[engine]\nmodel = 1\n", ["engine", "model"], { engine: 1 }],
  ])("%s", (_, text, keys, lines) => {
    expect(keyLines(text, keys)).toEqual(lines);
  });
});

describe("findErrorLine", () => {
  const parse = (text: string) => Bun.TOML.parse(text);
  function lineOf(text: string): number | undefined {
    try {
      parse(text);
    } catch (error) {
      return findErrorLine(text, error instanceof Error ? error.message : "", parse);
    }
    throw new Error("expected a syntax error");
  }

  test.each<[string, string, number]>([
    ["a missing value", 'model = "m"\nengine =\n', 2],
    ["a key given twice", 'model = "m"\n\nmodel = "n"\n', 3],
    ["junk after a value", '\n\n\nmodel = "m" junk\n', 4],
    ["an error after a multi-line string", 'model = """\nline\n"""\nbase-url = \n', 4],
    ["an array never closed", 'model = "m"\ncontext-window = [1,\n', 2],
  ])("%s", (_, text, line) => {
    expect(lineOf(text)).toBe(line);
  });
});

describe("loadConfigFile", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-config-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function usageError(path: string): string {
    try {
      loadConfigFile(path);
    } catch (error) {
      if (error instanceof AgentError && error.code === "USAGE") return error.message;
      throw error;
    }
    throw new Error("expected a usage error");
  }

  test("no file is no config", () => {
    expect(loadConfigFile(join(dir, "config.toml"))).toBeUndefined();
  });

  test("an empty file is an empty config", () => {
    writeFileSync(join(dir, "config.toml"), "");
    expect(loadConfigFile(join(dir, "config.toml"))).toEqual({ path: join(dir, "config.toml"), data: {}, lines: {} });
  });

  test("a file is parsed, with the line of each key", () => {
    const path = join(dir, "config.toml");
    writeFileSync(path, '# mine\nmodel = "qwen3:8b"\n\ncontext-window = 32_768\n');
    expect(loadConfigFile(path)).toEqual({
      path,
      data: { model: "qwen3:8b", "context-window": 32768 },
      lines: { model: 2, "context-window": 4 },
    });
  });

  test("a syntax error names the file, the line and what is wrong", () => {
    const path = join(dir, "config.toml");
    writeFileSync(path, 'model = "m"\nbase-url = http://h/v1\n');
    expect(usageError(path)).toMatch(new RegExp(`^${path.replace(/[.]/g, "\\.")}:2: not valid TOML: .+`));
  });

  test("a secret the parser would quote is not echoed", () => {
    const path = join(dir, "config.toml");
    writeFileSync(path, "ghp_0123456789abcdefghijABCDEFGHIJ012345 = 1\nghp_0123456789abcdefghijABCDEFGHIJ012345 = 2\n");
    const message = usageError(path);
    expect(message).toStartWith(`${path}:2: not valid TOML: `);
    expect(message).not.toContain("ghp_0123456789");
  });

  test("a file where a folder on the way should be means no config file", () => {
    writeFileSync(join(dir, "agent"), "");
    expect(loadConfigFile(join(dir, "agent", "config.toml"))).toBeUndefined();
  });

  test("a folder where the file should be is named as such", () => {
    const path = join(dir, "config.toml");
    mkdirSync(path);
    expect(usageError(path)).toBe(`${path}: cannot read the config file (it is a directory)`);
  });

  test("a named pipe is refused, not waited on", () => {
    const path = join(dir, "config.toml");
    expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
    expect(usageError(path)).toBe(`${path}: cannot read the config file (it is a named pipe, not a regular file)`);
  });

  test("a link to a device is refused", () => {
    const path = join(dir, "config.toml");
    symlinkSync("/dev/zero", path);
    expect(usageError(path)).toBe(`${path}: cannot read the config file (it is a device, not a regular file)`);
  });

  test("a dangling link is no config file, like a missing one", () => {
    const path = join(dir, "config.toml");
    symlinkSync(join(dir, "nowhere.toml"), path);
    expect(loadConfigFile(path)).toBeUndefined();
  });

  test.skipIf(process.getuid?.() === 0)("an unreadable file says so", () => {
    const path = join(dir, "config.toml");
    writeFileSync(path, "", { mode: 0o000 });
    expect(usageError(path)).toBe(`${path}: cannot read the config file (permission denied)`);
  });
});
