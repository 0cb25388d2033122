/**
 * Every cut of text that is sent, or written into the document, falls after redaction (issue 22
 * A10): a token or the key that a cut goes through is never sent or written in part. Each row
 * feeds one cut from a text that repeats the secrets, so wherever the cut falls (a lead of a few
 * characters moves it) it falls inside one of them. What is checked is what leaves the machine
 * (the requests, `--dry-run`'s output) and what is written (the new session, stdout): the key
 * never, not even its start; the token in a request never, in the document (which has the
 * session's own secrets back, by design) only whole. Printed cuts: cli/output/cut-after-withheld.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { assistant, call, chain, text, toolResult, user } from "../../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** A key of no known shape: only withholding stands between it and the output. */
const KEY = "Zq8localproxykey44LmNp0wXyQ7";
/** A likely secret: redacted in what is sent, restored whole in the document. */
const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
/** How much of a secret's start counts as its start. */
const START = 5;

/** The secrets one after another, a space between, `chars` long. */
function repeating(chars: number): string {
  const unit = `${KEY} ${TOKEN} `;
  return unit.repeat(Math.ceil(chars / unit.length)).trim();
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** Nothing of either secret went out: not whole, not its start. */
function expectNothingSent(sent: string): void {
  expect({ key: count(sent, KEY.slice(0, START)), token: count(sent, TOKEN.slice(0, START)) }).toEqual({ key: 0, token: 0 });
}

/** The key nowhere; the token only whole (each of its starts is the whole token), and back whole where no cut went through it. */
function expectNoPartWritten(written: string, restored = true): void {
  expect(count(written, KEY.slice(0, START))).toBe(0);
  expect(count(written, TOKEN.slice(0, START))).toBe(count(written, TOKEN));
  if (restored) expect(count(written, TOKEN)).toBeGreaterThan(0);
}

function piSource(entries: Record<string, unknown>[]): string {
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, chain(entries, { cwd: "/home/me/app" }));
  return path;
}

/** A Codex rollout whose user attached an image by a URL that is `url`. */
function codexSource(url: string): string {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, s)).toISOString();
  const line = (s: number, type: string, payload: Record<string, unknown>) => JSON.stringify({ timestamp: at(s), type, payload });
  const path = join(sandbox.dir, "rollout-2026-11-30T09-00-00-0b5e55ed-0000-4000-8000-00000000a010.jsonl");
  const lines = [
    line(0, "session_meta", {
      id: "0b5e55ed-0000-4000-8000-00000000a010",
      timestamp: at(0),
      cwd: "/home/me/app",
      originator: "codex_cli_rs",
      cli_version: "0.169.0",
      source: "cli",
      model_provider: "openai",
    }),
    line(1, "turn_context", { turn_id: "t1", cwd: "/home/me/app", approval_policy: "on-request", model: "gpt-5", summary: "auto" }),
    line(1, "response_item", {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "What does this show?" },
        { type: "input_image", image_url: url },
      ],
    }),
    line(2, "response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "A login form.", annotations: [] }],
    }),
  ];
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

const LEADS = [0, 3, 11, 19, 30];

describe("a cut of text that is sent falls after redaction (--dry-run prints what would be sent)", () => {
  test.each(LEADS)("a Codex image's URL (was cut at 200 first), %i characters of lead", async (lead) => {
    const src = codexSource(`https://img.example/a.png?${"x".repeat(lead)}&auth=${repeating(600)}`);
    const run = await runAgent(
      ["handoff", src, "--dry-run", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("[image: https://img.example/a.png?");
    expectNothingSent(run.stdout + run.stderr);
  });

  test.each(LEADS)("a tool output cut from its middle to fit the window, %i characters of lead", async (lead) => {
    const src = piSource([
      user(1, "Show the log."),
      assistant(2, [call("c1", "bash", { command: "cat log.txt" })], "toolUse"),
      toolResult(3, "c1", "bash", `${"x".repeat(lead)} ${repeating(60_000)}`),
      assistant(4, [text("It repeats.")]),
    ]);
    const run = await runAgent(
      ["handoff", src, "--dry-run", "--context-window", "8000", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("characters cut from the middle");
    expectNothingSent(run.stdout + run.stderr);
  });

  test.each(LEADS)("a tool's name (cut to 64 characters), %i characters of lead", async (lead) => {
    const name = `run_${"x".repeat(lead)}_${repeating(200).replaceAll(" ", "_")}`;
    const src = piSource([
      user(1, "Run it."),
      assistant(2, [call("c1", name, { command: "ls" })], "toolUse"),
      toolResult(3, "c1", name, "ok"),
      assistant(4, [text("Done.")]),
    ]);
    const run = await runAgent(
      ["handoff", src, "--dry-run", "--base-url", "http://127.0.0.1:9/v1"],
      cleanEnv(sandbox.home, { OPENAI_API_KEY: KEY }),
    );
    expect(run.code).toBe(0);
    expectNothingSent(run.stdout + run.stderr);
  });
});

describe("a cut of text that is written into the document falls after redaction", () => {
  /** Runs a handoff and returns everything it wrote: stdout (the document) and the new session. */
  async function handoff(src: string, engine: "llm" | "offline"): Promise<string> {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const out = join(sandbox.dir, "new.jsonl");
    const run = await runAgent(["handoff", src, "--engine", engine, "--no-record", "-o", out], sandbox.env(s.url, { OPENAI_API_KEY: KEY }));
    expect(run.code).toBe(0);
    for (const request of s.requests) expectNothingSent(JSON.stringify(request.body));
    return `${run.stdout}\n${run.stderr}\n${JSON.parse(readFileSync(out, "utf8").split("\n")[1] ?? "{}").content}`;
  }

  test.each(LEADS)("Session Facts' quote of the last request (cut at 1,500), %i characters of lead", async (lead) => {
    const src = piSource([user(1, "Start."), assistant(2, [text("Started.")]), user(3, `${"x".repeat(lead)} ${repeating(3000)}`)]);
    const written = await handoff(src, "llm");
    expect(written).toContain("[…cut:");
    expectNoPartWritten(written);
  });

  test.each(LEADS)("Session Facts' command (cut to 160), %i characters of lead", async (lead) => {
    const src = piSource([
      user(1, "Deploy."),
      assistant(2, [call("c1", "bash", { command: `curl -H "X-${"x".repeat(lead)}: ${repeating(400)}" https://x.io` })], "toolUse"),
      toolResult(3, "c1", "bash", "ok"),
      assistant(4, [text("Deployed.")]),
    ]);
    const written = await handoff(src, "llm");
    expect(written).toContain("curl -H");
    expectNoPartWritten(written);
  });

  test.each(LEADS)("Session Facts' `|| …` that hid a failure (cut to 29), %i characters of lead", async (lead) => {
    const src = piSource([
      user(1, "Test."),
      assistant(2, [call("c1", "bash", { command: `npm test || echo ${"x".repeat(lead)} ${repeating(200)}` })], "toolUse"),
      toolResult(3, "c1", "bash", "FAIL src/a.test.ts\n1 failed"),
      assistant(4, [text("Tested.")]),
    ]);
    const written = await handoff(src, "llm");
    expect(written).toContain("hid its status");
    expectNoPartWritten(written, false);
  });

  test.each(LEADS)("the offline engine's sections (quotes cut to a bullet), %i characters of lead", async (lead) => {
    const src = piSource([
      user(1, `Fix the parser. ${"x".repeat(lead)} ${repeating(3000)}`),
      assistant(2, [text(`I will. ${repeating(2000)}`)]),
      user(3, `Also keep ${"y".repeat(lead)} ${repeating(3000)}`),
    ]);
    const written = await handoff(src, "offline");
    expect(written).toContain("…");
    expectNoPartWritten(written);
  });
});
