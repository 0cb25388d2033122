/**
 * The configured secrets (the API key as it is sent, the base URL's user name, password and
 * query values) never reach a person or a file: every command, every output, every form a
 * session or an endpoint can put them in. Spawned end to end, against a fake endpoint.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { cleanEnv, HAS_SCRIPT, runAgent, runOnTerminal } from "../../fixtures/run-agent.ts";
import { assistant, chain, text, user } from "../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

const KEY = "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";
/** A key of no known shape: only withholding stands between it and the outputs. */
const PLAIN_KEY = "Zq8-local-proxy-key-44Lm";

/**
 * What a screen shows of a text: escape sequences and invisible characters gone. Written here
 * apart from the code under test, so the test does not share its blind spots.
 */
function shown(text: string): string {
  return text
    .replace(/(?:\x1b\[|\u009b)[0-?]*[ -/]*[@-~]/g, "")
    .replace(/(?:\x1b\]|\u009d)[^\x07\x1b\u009c]*(?:\x07|\x1b\\|\u009c)/g, "")
    .replace(/\x1b[ -/]*[0-~]/g, "")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, "");
}

/** Every file the run left in the sandbox folder, and what the source gained. */
function writtenFiles(before: string): string {
  const files = readdirSync(sandbox.dir).filter((name) => name !== "source.jsonl" && !name.endsWith(".lock"));
  const added = readFileSync(join(sandbox.dir, "source.jsonl"), "utf8").slice(before.length);
  return files.map((name) => readFileSync(join(sandbox.dir, name), "utf8")).join("\n") + added;
}

/** A session quoting `secret` in a request, an answer, a model name and an unknown entry type. */
function sessionQuoting(secret: string, header: Record<string, unknown> = {}): string {
  const lines = chain(
    [user(1, `deploy with ${secret} please`), assistant(2, [text(`Using ${secret}.`)], "stop", `openai/gpt-${secret}`)],
    header,
  );
  const unknown = JSON.stringify({ type: `weird-${secret}`, id: "e99", parentId: "e02", timestamp: "2026-11-29T09:03:00.000Z" });
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, `${lines}${unknown}\n`);
  return path;
}

describe("the key is withheld from every printed line and file, every command", () => {
  /** [command, its arguments, whether its output quotes the session (and so shows `[withheld]`)]. */
  const COMMANDS: [name: string, args: (src: string, dir: string) => string[], quotes: boolean][] = [
    ["inspect", (src) => ["inspect", src, "-v"], true],
    ["inspect --json", (src) => ["inspect", src, "--json"], true],
    ["handoff --dry-run (offline)", (src) => ["handoff", src, "--engine", "offline", "--dry-run", "-v"], true],
    ["handoff --dry-run --json (offline)", (src) => ["handoff", src, "--engine", "offline", "--dry-run", "--json"], true],
    [
      "handoff --dry-run (model)",
      (src) => ["handoff", src, "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1", "--dry-run", "-v"],
      true,
    ],
    ["handoff (offline), recorded", (src) => ["handoff", src, "--engine", "offline", "-v"], true],
    ["handoff --json (offline) -o", (src, dir) => ["handoff", src, "--engine", "offline", "--json", "-o", join(dir, "new.jsonl")], true],
    ["handoff -o - (offline)", (src) => ["handoff", src, "--engine", "offline", "--no-record", "-o", "-", "-v"], true],
    ["config", () => ["config", "-v"], false],
  ];
  const KEYS: [key: string, kind: string][] = [
    [KEY, "an OpenRouter key"],
    [PLAIN_KEY, "a key of no known shape"],
  ];
  for (const [key, kind] of KEYS) {
    test.each(COMMANDS)(`${kind}: %s`, async (_name, args, quotes) => {
      const src = sessionQuoting(key, { cwd: `/work/${key}` });
      const before = readFileSync(src, "utf8");
      const run = await runAgent(args(src, sandbox.dir), cleanEnv(sandbox.home, { OPENAI_API_KEY: key }));
      expect(run.stderr).not.toContain("unexpected");
      expect(run.code).toBe(0);
      // --json's resume is exact (the README): the command that continues our own new session.
      const printed = run.stdout.replace(/"resume":\{"argv":\[[^\]]*\],"cwd":("[^"]*"|null)\}/, '"resume":"exact"');
      expect(printed + run.stderr).not.toContain(key);
      if (quotes) expect(printed + run.stderr).toContain("[withheld]");
      // Paths are the exception (see the README): the new session runs in the source's cwd.
      expect(writtenFiles(before).replaceAll(`"cwd":"/work/${key}"`, "")).not.toContain(key);
    });
  }
});

describe("the key as the HTTP client sends it: whitespace around it is not part of it", () => {
  const FORMS: [name: string, raw: (key: string) => string][] = [
    ["a trailing newline", (key) => `${key}\n`],
    ["a trailing carriage return", (key) => `${key}\r`],
    ["a trailing space", (key) => `${key} `],
    ["a leading tab", (key) => `\t${key}`],
    ["CR LF on both sides", (key) => `\r\n${key}\r\n`],
  ];
  for (const key of [KEY, PLAIN_KEY]) {
    test.each(FORMS)(`${key.slice(0, 8)}… with %s: sent trimmed, withheld everywhere`, async (_name, raw) => {
      const s = sandbox.serve((request) => ({
        text: `${CANNED_DOCUMENT}\n\nEcho: ${JSON.stringify(request.body).includes("[withheld]") ? "[withheld]" : key}`,
      }));
      const src = sessionQuoting(key);
      const before = readFileSync(src, "utf8");
      const run = await runAgent(["handoff", src, "--json"], cleanEnv(sandbox.home, { OPENAI_API_KEY: raw(key), OPENAI_BASE_URL: s.url }));
      expect(run.code).toBe(0);
      expect(s.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
      expect(JSON.stringify(s.requests.map((r) => r.body))).not.toContain(key);
      expect(run.stdout + run.stderr).not.toContain(key);
      expect(JSON.parse(run.stdout).document).toContain("deploy with [withheld] please");
      expect(writtenFiles(before)).not.toContain(key);
    });
  }
});

describe("a key split by characters that show as nothing is withheld as it reads", () => {
  const SPLITS: [name: string, join: string][] = [
    ["a right-to-left override", "\u202e"],
    ["a bell", "\x07"],
    ["a C1 control", "\u0085"],
    ["a zero-width space", "\u200b"],
    ["a colour escape", "\x1b[1m"],
  ];
  const split = (sep: string) => `${KEY.slice(0, 12)}${sep}${KEY.slice(12, 30)}${sep}${KEY.slice(30)}`;

  test.each(SPLITS)("%s, printed to a pipe: the screen would not show the key", async (_name, sep) => {
    const src = sessionQuoting(split(sep));
    for (const args of [
      ["handoff", src, "--engine", "offline", "--dry-run", "-v"],
      ["inspect", src, "-v"],
      ["inspect", src, "--json"],
    ]) {
      const run = await runAgent(args, cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }));
      expect(run.code).toBe(0);
      expect(shown(run.stdout + run.stderr)).not.toContain(KEY);
      expect(shown(JSON.stringify(run.stdout))).not.toContain(KEY);
    }
  });

  test.skipIf(!HAS_SCRIPT).each(SPLITS)("%s, on a terminal: the screen does not show the key", async (_name, sep) => {
    const src = sessionQuoting(split(sep));
    for (const args of [
      ["handoff", src, "--engine", "offline", "--dry-run", "-v"],
      ["inspect", src, "-v"],
    ]) {
      const screen = await runOnTerminal(args, cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }));
      // An escape sequence loses only its ESC on a terminal: what is left is seen, and splits the key.
      if (!sep.includes("\x1b")) expect(screen).toContain("[withheld]");
      expect(shown(screen)).not.toContain(KEY);
    }
  });

  test("the new session and the recorded answer do not hold it either", async () => {
    const src = sessionQuoting(split("\u202e"));
    const before = readFileSync(src, "utf8");
    const run = await runAgent(["handoff", src, "--engine", "offline"], cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }));
    expect(run.code).toBe(0);
    const written = writtenFiles(before);
    expect(written).toContain("[withheld]");
    expect(shown(written.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))))).not.toContain(
      KEY,
    );
  });
});

describe("the base URL's user name, password and query values are withheld like the key", () => {
  const USER = "proxyUser7Hq";
  const PASSWORD = "UrlPassw0rdXYZ";
  const QUERY = "QueryS3cretVal";
  const baseUrl = (url: string) => `${url.replace("http://", `http://${USER}:${PASSWORD}@`)}?key=${QUERY}`;

  /** An endpoint's error text, spelling the secrets in each encoding a printer decodes. */
  const ERRORS: [name: string, reply: { rawBody: string; contentType: string }][] = [
    [
      "HTML decimal entities in a proxy's page",
      {
        rawBody: `<html><title>502: gw:&#85;rlPassw0rdXYZ key=&#81;ueryS3cretVal u=&#112;roxyUser7Hq</title></html>`,
        contentType: "text/html",
      },
    ],
    [
      "HTML hex entities",
      { rawBody: `<html><title>502: &#x55;rlPassw0rdXYZ &#x51;ueryS3cretVal &#x70;roxyUser7Hq</title></html>`, contentType: "text/html" },
    ],
    [
      "JSON \\u escapes in an error body",
      {
        rawBody: JSON.stringify({ error: { message: "x" } }).replace(
          '"x"',
          '"\\u0055rlPassw0rdXYZ \\u0051ueryS3cretVal \\u0070roxyUser7Hq"',
        ),
        contentType: "application/json",
      },
    ],
    ["plain text", { rawBody: `denied ${PASSWORD} ${QUERY} ${USER}`, contentType: "text/plain" }],
  ];

  test.each(ERRORS)("%s: the error line names none of them", async (_name, reply) => {
    const s = sandbox.serve(() => ({ status: 502, ...reply }));
    const run = await runAgent(
      ["handoff", sandbox.source(), "--no-record", "--retries", "0", "-v", "--base-url", baseUrl(s.url)],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Handoff failed:");
    expect(run.stderr).toContain("[withheld]");
    for (const secret of [USER, PASSWORD, QUERY]) expect(run.stderr).not.toContain(secret);
  });

  test.each([
    ["the password", PASSWORD],
    ["a query value", QUERY],
    ["the user name", USER],
  ])(
    "an endpoint naming its model after %s: not in --json, the document, the new session or the recorded answer",
    async (_name, secret) => {
      const s = sandbox.serve(() => ({ text: `${CANNED_DOCUMENT}\n\nServed by m-${secret}.`, model: `m-${secret}` }));
      const src = sandbox.source();
      const before = readFileSync(src, "utf8");
      const run = await runAgent(["handoff", src, "--json", "--base-url", baseUrl(s.url)], cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }));
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).model).toBe("m-[withheld]");
      expect(run.stdout + run.stderr).not.toContain(secret);
      expect(writtenFiles(before)).not.toContain(secret);
    },
  );

  test("OPENAI_BASE_URL's credentials too, from the first line printed", async () => {
    const src = sessionQuoting(PASSWORD);
    const run = await runAgent(
      ["inspect", src, "--json"],
      cleanEnv(sandbox.home, { OPENAI_BASE_URL: `http://${USER}:${PASSWORD}@127.0.0.1:9/v1?key=${QUERY}` }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });
});

describe("paths: written as they are where they name a file, withheld where they are printed", () => {
  test("a source in a folder named after the key: parentSession is the real path; printed lines withhold it", async () => {
    const folder = join(sandbox.dir, `kd-${KEY}`);
    mkdirSync(folder);
    const src = join(folder, "s.jsonl");
    writeFileSync(src, readFileSync(sandbox.source(), "utf8"));
    const out = join(sandbox.dir, "new.jsonl");
    const run = await runAgent(
      ["handoff", src, "--engine", "offline", "--json", "-o", out],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(0);
    const header = JSON.parse(readFileSync(out, "utf8").split("\n")[0] ?? "");
    expect(header.parentSession).toBe(src);
    const report = JSON.parse(run.stdout);
    expect(report.sourceFile).toBe(join(sandbox.dir, "kd-[withheld]", "s.jsonl"));
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });
});

describe("our own text quotes nothing to withhold", () => {
  test("help keeps its words when the key is one of them (OPENAI_API_KEY=ollama for a local server)", async () => {
    const run = await runAgent(["handoff", "--help"], cleanEnv(sandbox.home, { OPENAI_API_KEY: "ollama" }));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ollama");
    expect(run.stdout).not.toContain("[withheld]");
  });
});

describe("--json keeps its schema", () => {
  test("a base URL user name that is also a field name withholds values, never renames a field", async () => {
    const src = sessionQuoting("model and document");
    const run = await runAgent(
      ["handoff", src, "--engine", "offline", "--dry-run", "--json"],
      cleanEnv(sandbox.home, { OPENAI_BASE_URL: "http://document:pw-9Lq2x@127.0.0.1:9/v1" }),
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report)).toEqual(["dryRun", "engine", "document"]);
    expect(report.document).toContain("model and [withheld]");
  });
});
