/**
 * Secrets, end to end: the CLI spawned against a fake endpoint on 127.0.0.1, on a session with a
 * distinct secret of every kind in every place a session holds text (fixtures/secrets-everywhere.ts),
 * plus the same in --focus and --system-prompt-file, the API key quoted in the session and a
 * password and a query value in --base-url. No request of any run may carry any of them; the
 * document on disk gets the originals back, except the key.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeServer } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { PLACES, plantedSecrets, secretsEverywhere } from "../../../fixtures/secrets-everywhere.ts";
import { assistant, call, chain, toolResult, user } from "../../../fixtures/sessions/builders.ts";
import { neverSent, quotingServer } from "./handoff-secrets.testing.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

const API_KEY = "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";
const URL_PASSWORD = "url-pass-7Hq2Lm9";
const URL_QUERY = "query-secret-4Rt8Wz1";
const SECRETS = plantedSecrets();

/** What must never be sent: every secret, each line of a multi-line one (a cut key's tail), in text and JSON forms. */
const NEVER_SENT = neverSent([...SECRETS.map((s) => s.value), API_KEY, URL_PASSWORD, URL_QUERY]);

function leaksIn(text: string): string[] {
  return NEVER_SENT.filter((secret) => text.includes(secret));
}

interface SecretsRun {
  code: number;
  stdout: string;
  stderr: string;
  document: string;
  /** What the run wrote: the new session, and what it added to the source. */
  written: string;
}

async function runOn(server: FakeServer, extra: string[]): Promise<SecretsRun> {
  const { session, focus, systemPrompt } = secretsEverywhere(API_KEY);
  const source = join(sandbox.dir, "source.jsonl");
  writeFileSync(source, session);
  const promptFile = join(sandbox.home, "system.txt");
  writeFileSync(promptFile, systemPrompt);
  const url = new URL(server.url);
  const baseUrl = `http://user:${URL_PASSWORD}@${url.host}/v1?key=${URL_QUERY}`;
  const out = join(sandbox.dir, "new.jsonl");
  const args = [
    "handoff",
    source,
    "-v",
    "--focus",
    `${focus}\nAnd rotate ${API_KEY}.`,
    "--system-prompt-file",
    promptFile,
    "--base-url",
    baseUrl,
    "-o",
    out,
    ...extra,
  ];
  const run = await runAgent(args, cleanEnv(sandbox.home, { OPENAI_API_KEY: API_KEY }), sandbox.dir);
  const wrote = run.code === 0 && !extra.includes("--dry-run");
  const newSession = wrote ? readFileSync(out, "utf8") : "";
  const document = wrote ? String(JSON.parse(newSession.split("\n")[1] ?? "{}").content) : "";
  const added = readFileSync(source, "utf8").slice(session.length);
  expect(readdirSync(sandbox.dir).sort()).toEqual(wrote ? ["new.jsonl", "source.jsonl"] : ["source.jsonl"]);
  return { ...run, document, written: newSession + added };
}

/** The originals a document must have back: every secret of a place the model sees, but not the key. */
function expectRestored(document: string): void {
  const quoted = new Set<string>(PLACES.filter((p) => p.quotable).map((p) => p.place));
  const missing = SECRETS.filter((s) => quoted.has(s.place) && !document.includes(s.value)).map((s) => `${s.place}: ${s.kind}`);
  expect(missing).toEqual([]);
  expect(document).toContain("[withheld]");
}

function expectNothingLeaked(server: FakeServer, run: SecretsRun): void {
  expect(server.requests.length).toBeGreaterThan(0);
  for (const [i, request] of server.requests.entries())
    expect({ request: i, leaks: leaksIn(JSON.stringify(request.body)) }).toEqual({ request: i, leaks: [] });
  // The key and the URL's secrets are not printed either (the document on stdout has the session's own secrets back, by design).
  for (const secret of [API_KEY, URL_PASSWORD, URL_QUERY]) expect(run.stdout + run.stderr).not.toContain(secret);
  expect(run.written).toContain("[withheld]");
  for (const secret of [API_KEY, URL_PASSWORD, URL_QUERY]) expect(run.written).not.toContain(secret);
}

describe("no secret reaches any request", () => {
  test("--strict, with a first answer missing sections and placeholders quoted out of context", async () => {
    const server = quotingServer({ firstMissesSections: true });
    try {
      const run = await runOn(server, ["--strict"]);
      expect(run.stderr).toContain("New session started");
      expect(server.requests).toHaveLength(2);
      expectNothingLeaked(server, run);
      expectRestored(run.document);
    } finally {
      await server.stop();
    }
  });

  test("condensed at a small window: notes requests, notes quoting placeholders, and the handoff request", async () => {
    // Small enough to condense, large enough that each notes answer's output cap holds every
    // placeholder its request carries (the fake model quotes only what fits the cap it was sent).
    const server = quotingServer({ contextWindow: 11000 });
    try {
      const run = await runOn(server, ["--context-window", "11000"]);
      expect(run.stderr).toContain("New session started");
      expect(server.requests.length).toBeGreaterThan(2);
      expectNothingLeaked(server, run);
      expectRestored(run.document);
    } finally {
      await server.stop();
    }
  });

  test("--dry-run prints every request without them", async () => {
    const server = quotingServer({});
    try {
      const run = await runOn(server, ["--dry-run", "--context-window", "6000"]);
      expect(run.code).toBe(0);
      expect(server.requests).toHaveLength(0);
      expect(leaksIn(run.stdout)).toEqual([]);
      expect(leaksIn(run.stderr)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe("the second outside review's shapes never reach a request (--dry-run prints what would be sent)", () => {
  const PEM_BODY = [
    "MIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5PfZx9Cv8Bn7Ml6Kj5Hg4Fd3Sa",
    "Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhJk4Lz3Xc2Vb1Nm0Qw9E",
  ];
  const PEM = ["-----BEGIN RSA PRIVATE KEY-----", ...PEM_BODY, "-----END RSA PRIVATE KEY-----"];
  /** [where, the text, the secrets in it]. */
  const ASSIGNMENTS: [string, string[]][] = [
    ["password        = Hunter2isMyPass1", ["Hunter2isMyPass1"]],
    ['password := "Hunter2isMyPass2"', ["Hunter2isMyPass2"]],
    ["'password' => 'Hunter2isMyPass3',", ["Hunter2isMyPass3"]],
    ["password: 'it''s-Secret-77'", ["it''s-Secret-77", "s-Secret-77"]],
    ["REDIS_URL=redis://:Sup3rRedis9x@cache:6379/0", ["Sup3rRedis9x"]],
    ["DB_PASS=Xy7zQw9vLm4   MYSQL_PWD=Xy7zQw9vLm5", ["Xy7zQw9vLm4", "Xy7zQw9vLm5"]],
    ["DB_PASSWORD=P4ss.w0rd6", ["P4ss.w0rd6"]],
    ["DB_PASSWORD=P@ss;word=Tail9xyz7", ["Tail9xyz7"]],
  ];
  const ARGUMENTS = { password: 48213975, api_key: ["Hunter2isMyPass8"], secret: { value: "Hunter2isMyPass9" } };
  const NEVER = [...ASSIGNMENTS.flatMap(([, secrets]) => secrets), "48213975", "Hunter2isMyPass8", "Hunter2isMyPass9", ...PEM_BODY];

  test("assignments, tool-call values of every type and depth, a numbered and a quoted private key", async () => {
    const src = join(sandbox.dir, "source.jsonl");
    writeFileSync(
      src,
      chain([
        user(1, ASSIGNMENTS.map(([line]) => line).join("\n")),
        assistant(2, [call("c1", "configure", ARGUMENTS), call("c2", "bash", { command: "cat -n id_rsa" })], "toolUse"),
        toolResult(3, "c1", "configure", "done"),
        toolResult(4, "c2", "bash", PEM.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join("\n")),
        user(
          5,
          `As quoted:\n${PEM.map((line) => `> ${line}`).join("\n")}\n\n| key |\n|---|\n${PEM.map((line) => `| ${line} |`).join("\n")}`,
        ),
      ]),
    );
    const run = await runAgent(
      ["handoff", src, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    expect(NEVER.filter((secret) => run.stdout.includes(secret) || run.stdout.includes(JSON.stringify(secret).slice(1, -1)))).toEqual([]);
  });
});
