/**
 * `agent handoff` on sessions larger than the model's window, end to end: the CLI spawned with
 * an explicit environment, against a fake endpoint on 127.0.0.1 that, like a real one, refuses
 * any request whose prompt (characters / 4 of all message text) plus `max_tokens` is over its window.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../../../core/index.ts";
import { filler } from "../../../core/handoff/condense/condense.testing.ts";
import { messageText } from "../../../core/session/messages.ts";
import { CANNED_DOCUMENT, promptTokens, startFakeOpenAI, type FakeServer, type ReceivedRequest } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { assistant, call, chain, text, toolResult, user } from "../../../fixtures/sessions/builders.ts";

const SESSIONS = join(REPO, "..", "shared", "sessions");
const present = existsSync(join(SESSIONS, "large-session.jsonl")) && existsSync(join(SESSIONS, "before-compaction.jsonl"));

/** One temporary folder per test: `work/` for sessions, `home/` for HOME (Bun caches there). */
let root: string;
let dir: string;
let home: string;
let server: FakeServer | undefined;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "agent-condense-"));
  [dir, home] = [join(root, "work"), join(root, "home")];
  for (const folder of [dir, home]) mkdirSync(folder);
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(root, { recursive: true, force: true });
});

/** A fake model with a `window`-token context window that answers every request at once. */
function serve(window: number): FakeServer {
  server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }), { contextWindow: window });
  return server;
}

const env = (url: string) => cleanEnv(home, { OPENAI_API_KEY: "sk-test-condense", OPENAI_BASE_URL: url });

/** Every piece of message text a request carried. */
function textsOf(request: ReceivedRequest | undefined): string[] {
  const body = request?.body;
  if (typeof body !== "object" || body === null || !("messages" in body) || !Array.isArray(body.messages)) return [];
  return body.messages.map((m: unknown) => {
    if (typeof m !== "object" || m === null || !("content" in m)) return "";
    const content = m.content;
    if (typeof content === "string") return content;
    return Array.isArray(content)
      ? content
          .map((p: unknown) => (typeof p === "object" && p !== null && "text" in p && typeof p.text === "string" ? p.text : ""))
          .join("\n")
      : "";
  });
}

/** What the user typed on the branch, oldest first, read the way the CLI reads it. */
function userRequestsIn(path: string): string[] {
  const { context } = analyzeBranch(parseSession(readFileSync(path, "utf8"), path));
  return context.flatMap((m) => (m.role === "user" && m.kind === "user" ? [messageText(m)] : []));
}

describe(`agent handoff --context-window 32000 on the real sessions${present ? "" : " (skipped: ../shared/sessions/ is not beside this checkout)"}`, () => {
  for (const name of ["large-session.jsonl", "before-compaction.jsonl"]) {
    test.skipIf(!present)(
      `${name}: condensed to fit, nothing refused, every user request sent, as many requests as the dry run planned`,
      async () => {
        const session = join(SESSIONS, name);
        const s = serve(32_000);

        const dry = await runAgent(["handoff", session, "--context-window", "32000", "--dry-run"], env(s.url));
        expect(dry.code).toBe(0);
        const planned: unknown = JSON.parse(dry.stdout);
        if (!Array.isArray(planned)) throw new Error("a condensed dry run prints an array of requests");
        expect(planned.length).toBeGreaterThan(1);
        expect(dry.stderr).toContain(`dry run: ${planned.length} requests`);
        expect(dry.stderr).toContain("placeholder notes");
        expect(s.requests).toHaveLength(0);

        const out = join(dir, "next.jsonl");
        const run = await runAgent(["handoff", session, "--context-window", "32000", "--json", "--no-record", "-o", out], env(s.url));
        expect(run.code).toBe(0);
        expect(s.rejected).toEqual([]);
        expect(s.requests).toHaveLength(planned.length);
        expect(s.requests.every((r) => promptTokens(r.body) <= 32_000)).toBe(true);

        const requests = userRequestsIn(session);
        const latest = requests.at(-1) ?? "";
        expect(latest.length).toBeGreaterThan(0);
        expect(textsOf(s.requests.at(-1)).some((t) => t.includes(latest))).toBe(true);
        for (const typed of requests) expect(s.requests.some((r) => textsOf(r).some((t) => t.includes(typed)))).toBe(true);

        const report = JSON.parse(run.stdout);
        expect(report.condensed).toMatchObject({
          contextWindow: 32_000,
          halvings: 0,
          requests: planned.length,
          notesRequests: planned.length - 1,
        });
        expect(report.condensed.tokensAfter).toBeLessThan(report.condensed.tokensBefore);
        expect(run.stderr).toMatch(
          /condensed the context from ~[\d,]+ to ~[\d,]+ tokens for a 32,000-token window: .* folded into notes; \d+ requests/,
        );
        expect(readFileSync(out, "utf8")).toContain(CANNED_DOCUMENT.split("\n")[1] ?? "");
      },
    );
  }
});

/** A session of ~60,000 tokens: requests, tool calls, long results. */
function largeFixture(): string {
  const entries = [];
  for (let r = 0; r < 60; r++) {
    if (r % 6 === 0) entries.push(user(r, `REQUEST-${r}: handle case ${r} in src/lib/csv.ts`));
    entries.push(assistant(r, [text(`Checking part ${r}.`), call(`call_${r}`, "read", { path: `src/part-${r}.ts` })], "toolUse"));
    entries.push(toolResult(r, `call_${r}`, "read", filler(4000, `part-${r}`)));
  }
  entries.push(user(60, "LATEST-REQUEST: now make the quoting RFC 4180 compliant"));
  entries.push(assistant(60, [text("On it.")]));
  const path = join(dir, "source.jsonl");
  writeFileSync(path, chain(entries));
  return path;
}

describe("agent handoff when the endpoint's window is smaller than --context-window says", () => {
  test("the refused request is re-planned at half the size, and the handoff succeeds", async () => {
    const s = serve(9_000);
    const src = largeFixture();
    const run = await runAgent(["handoff", src, "--context-window", "32000", "--json", "--no-record"], env(s.url));
    expect(run.code).toBe(0);
    expect(s.rejected.length).toBeGreaterThan(0);
    const report = JSON.parse(run.stdout);
    expect(report.condensed.halvings).toBe(s.rejected.length);
    expect(report.condensed.requests).toBe(s.requests.length);
    expect(run.stderr).toContain("the budget was halved");
    expect(textsOf(s.requests.at(-1)).some((t) => t.includes("LATEST-REQUEST: now make the quoting RFC 4180 compliant"))).toBe(true);
    expect(readdirSync(dir)).toHaveLength(2);
  });

  test("an endpoint too small for any plan fails with what was tried; nothing written", async () => {
    const s = serve(700);
    const src = largeFixture();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--context-window", "32000"], env(s.url));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /Handoff failed: the endpoint refused \d+ requests of ~[\d,]+.* tokens \(our estimate\) as larger than the model's context window; --context-window is 32000/,
    );
    expect(run.stderr).toContain("maximum context length is 700 tokens");
    expect(run.stdout).toBe("");
    expect(readdirSync(dir)).toEqual(["source.jsonl"]);
    expect(readFileSync(src).equals(original)).toBe(true);
  });

  test("a window too small to plan in is a usage error before any request", async () => {
    const s = serve(32_000);
    const src = largeFixture();
    const run = await runAgent(["handoff", src, "--context-window", "900"], env(s.url));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--context-window 900 is too small");
    expect(s.requests).toHaveLength(0);
  });
});
