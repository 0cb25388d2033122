import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent, splitPlanLine } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../fixtures/secrets.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

/** Starts a handoff, waits until `ready()` holds, sends `signal`, and returns how it ended. */
async function interrupt(args: string[], env: Record<string, string>, ready: () => boolean, signal: NodeJS.Signals, delayMs = 150) {
  const proc = Bun.spawn([...CLI_ARGV, ...args], { env, cwd: REPO, stdout: "pipe", stderr: "pipe" });
  for (let i = 0; i < 400 && !ready(); i++) await Bun.sleep(25);
  await Bun.sleep(delayMs);
  proc.kill(signal);
  const [stdout, rawStderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  // The plan line a sending run starts with is the plan tests' (fixtures/run-agent.ts).
  const { stderr } = splitPlanLine(rawStderr);
  return { stdout, stderr, code };
}

describe("cancelling", () => {
  test.each<NodeJS.Signals>(["SIGINT", "SIGTERM", "SIGHUP"])(
    "%s mid-stream: exit 130, Handoff cancelled, nothing written",
    async (signal) => {
      const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT, hangAfterFirstChunk: true }));
      const src = sandbox.source(EXAMPLE);
      const original = readFileSync(src);
      const run = await interrupt(["handoff", src], sandbox.env(s.url), () => s.requests.length > 0, signal);
      expect(run.code).toBe(130);
      expect(run.stderr).toBe("Handoff cancelled\n");
      expect(run.stdout).toBe("");
      sandbox.expectNothingWritten(src, original);
    },
  );

  test("SIGINT while waiting for the source's lock, after the answer: nothing written", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const src = sandbox.source(EXAMPLE);
    const original = readFileSync(src);
    // A live process (this test) holds the lock, so the run waits for it once the model has answered.
    writeFileSync(`${src}.lock`, `${process.pid}\n`);
    const run = await interrupt(["handoff", src], sandbox.env(s.url), () => s.requests.length > 0, "SIGINT", 700);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("Handoff cancelled");
    expect(readdirSync(sandbox.dir).sort()).toEqual(["source.jsonl", "source.jsonl.lock"]);
    expect(readFileSync(src).equals(original)).toBe(true);
  });
});

describe("writing fails after the model answered", () => {
  test.skipIf(process.platform !== "linux")(
    "a new session that cannot be written: exit 1, the reason, no temp file, the source untouched",
    async () => {
      const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
      const src = sandbox.source(EXAMPLE);
      const original = readFileSync(src);
      // /proc takes no new files, even for root, so the write fails after the answer arrived.
      const run = await runAgent(["handoff", src, "-o", "/proc/agent-handoff-test.jsonl"], sandbox.env(s.url));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Handoff failed: could not write the new session: /proc/agent-handoff-test.jsonl:");
      expect(run.stderr).not.toMatch(/^\s+at /m);
      sandbox.expectNothingWritten(src, original);
    },
  );
});

describe("the API key", () => {
  test("a session that quotes the key itself does not get it back through the document", async () => {
    const key = PLANTED_SECRETS.find((s) => s.kind === "openai-key" && s.value.startsWith("sk-TY"))?.value ?? "";
    expect(key).not.toBe("");
    const s = sandbox.serve((request) => {
      // A model that repeats every placeholder it was shown, and the key's stand-in.
      const seen = [...new Set(JSON.stringify(request.body).match(/\[REDACTED:[a-z0-9-]+:\d+\]|\[withheld\]/g) ?? [])];
      return { text: `${CANNED_DOCUMENT}\n\nKeys seen: ${seen.join(" ")}` };
    });
    const src = sandbox.source(SECRETS_SESSION);
    const run = await runAgent(["handoff", src, "--json"], cleanEnv(sandbox.home, { OPENAI_API_KEY: key, OPENAI_BASE_URL: s.url }));
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.document).toContain("[withheld]");
    expect(run.stdout + run.stderr).not.toContain(key);
    for (const file of readdirSync(sandbox.dir).filter((f) => f !== "source.jsonl")) {
      expect(readFileSync(join(sandbox.dir, file), "utf8")).not.toContain(key);
    }
    // The source keeps what it had, plus two lines that do not repeat the key.
    const added = readFileSync(src, "utf8").split("\n").slice(-3).join("\n");
    expect(added).not.toContain(key);
  });
});

describe("--json --dry-run", () => {
  test("prints one JSON object for the model engine", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runAgent(
      ["handoff", src, "--dry-run", "--json", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ dryRun: true, engine: "llm", redacted: 0, condensed: null });
    expect(out.requests).toHaveLength(1);
    expect(out.requests[0].messages.at(-1).role).toBe("user");
    expect(out.estimatedTokens).toBeGreaterThan(0);
  });

  test("prints one JSON object for the offline engine", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runAgent(["handoff", src, "--dry-run", "--json"], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ dryRun: true, engine: "offline" });
    expect(out.document).toContain("## Session Facts");
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });
});
