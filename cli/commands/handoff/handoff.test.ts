import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACKNOWLEDGEMENT } from "../../../core/handoff/wrap.ts";
import { CANNED_DOCUMENT, type FakeServer } from "../../../fixtures/fake-openai.ts";
import { REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { API_KEY, filesIn, useHandoffSandbox } from "./handoff.testing.ts";

const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

const sandbox = useHandoffSandbox();
const { serve, source, env } = sandbox;

function requestText(s: FakeServer, index = 0): string {
  return JSON.stringify(s.requests[index]?.body);
}

describe("agent handoff, success", () => {
  test("writes the new session, records three lines in the source and prints the document", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT, model: "fake-model-2026" }));
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--focus", "error positions first"], env(s.url));

    expect(run.code).toBe(0);
    // The model's document, then the Session Facts section code computed from the branch.
    const document = run.stdout.slice(0, -1);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(document.startsWith(`${CANNED_DOCUMENT}\n\n## Session Facts\n`)).toBe(true);
    expect(document).toContain(`- Source session: \`${src}\``);
    expect(document).toContain("  > LATEST-MARKER: add error positions to parse errors");
    const created = filesIn(sandbox.dir).filter((f) => f !== "source.jsonl");
    expect(created).toHaveLength(1);
    const name = created[0] ?? "";
    expect(name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
    expect(run.stderr).toContain(`New session started with handoff context: ${join(sandbox.dir, name)}`);

    // The new session, byte for byte, once its fresh id and time are put back in place.
    const written = readFileSync(join(sandbox.dir, name), "utf8");
    const header = JSON.parse(written.split("\n")[0] ?? "{}");
    const [entry, ack, model] = written
      .split("\n")
      .slice(1, 4)
      .map((l) => JSON.parse(l || "{}"));
    const expected =
      `${JSON.stringify({ type: "session", version: 3, id: header.id, timestamp: header.timestamp, cwd: "/home/me/parser", parentSession: src })}\n` +
      `${JSON.stringify({
        type: "custom_message",
        id: entry.id,
        parentId: null,
        timestamp: header.timestamp,
        customType: "handoff",
        content: `<handoff-context>\n${document}\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.`,
        display: true,
      })}\n` +
      `${JSON.stringify({
        type: "message",
        id: ack.id,
        parentId: entry.id,
        timestamp: header.timestamp,
        message: {
          role: "assistant",
          content: [{ type: "text", text: ACKNOWLEDGEMENT }],
          api: "offline",
          provider: "agent",
          model: "handoff",
          usage: {
            input: 0,
            output: 0,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 0,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "stop",
          timestamp: Date.parse(header.timestamp),
        },
      })}\n` +
      // The source's model (its answers came from openai/gpt-5), not the acknowledgement's.
      `${JSON.stringify({ type: "model_change", id: model.id, parentId: ack.id, timestamp: header.timestamp, provider: "openai", modelId: "gpt-5", model: "openai/gpt-5" })}\n`;
    expect(written).toBe(expected);
    expect(name).toContain(header.id);
    for (const id of [entry.id, ack.id, model.id]) expect(id).toMatch(/^[0-9a-f]{8}$/);

    // What reached the model: the branch's context, the instruction and the focus; nothing else.
    const body = s.requests[0]?.body as { messages: { role: string; content: unknown }[]; stream: boolean };
    expect(s.requests).toHaveLength(1);
    expect(body.stream).toBe(true);
    const sent = requestText(s);
    for (const kept of [
      "SUMMARY-MARKER",
      "KEPT-MARKER",
      "KEPT-REPLY-MARKER",
      "BRANCH-SUMMARY-MARKER",
      "LATEST-MARKER",
      "LATEST-REPLY-MARKER",
    ]) {
      expect(sent).toContain(kept);
    }
    for (const gone of [
      "START-MARKER",
      "COMPACTED-AWAY-MARKER",
      "ABANDONED-BRANCH-MARKER",
      "ABANDONED-REPLY-MARKER",
      "PRIVATE-BANG-BANG-MARKER",
      "EXTENSION-STATE-MARKER",
    ]) {
      expect(sent).not.toContain(gone);
    }
    const last = body.messages.at(-1);
    expect(last?.role).toBe("user");
    expect(String(last?.content)).toContain("## Critical Context");
    expect(String(last?.content).endsWith("Additional focus: error positions first")).toBe(true);
    expect(s.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    // The source gained exactly three lines, chained from the old leaf; every earlier byte is intact.
    const after = readFileSync(src);
    expect(after.subarray(0, original.length).equals(original)).toBe(true);
    const added = after
      .subarray(original.length)
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(added).toHaveLength(3);
    expect(added[0]).toMatchObject({ type: "message", parentId: "e000000c", message: { role: "user" } });
    expect(added[0].message.content[0].text).toContain("Additional focus: error positions first");
    expect(added[1]).toMatchObject({
      type: "message",
      parentId: added[0].id,
      message: {
        role: "assistant",
        content: [{ type: "text", text: document }],
        model: "fake-model-2026",
        provider: "127.0.0.1",
        stopReason: "stop",
      },
    });
    expect(added[1].message.usage).toMatchObject({ input: 1000, output: 200 });
    // The answer names the endpoint's model, and the session then resumes with its own again.
    expect(added[2]).toEqual({
      type: "model_change",
      id: added[2].id,
      parentId: added[1].id,
      timestamp: added[1].timestamp,
      provider: "openai",
      modelId: "gpt-5",
      model: "openai/gpt-5",
    });
  });

  test("--json prints one object, --no-record leaves the source untouched", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const src = source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--json", "--no-record", "--no-facts", "--model", "m-1"], env(s.url));
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(Object.keys(out).sort()).toEqual([
      "condensed",
      "document",
      "engine",
      "missingSections",
      "model",
      "recorded",
      "redacted",
      "resume",
      "sessionFile",
      "sessionFormat",
      "sessionId",
      "sourceFile",
      "sourceFormat",
      "usage",
    ]);
    expect(out).toMatchObject({
      document: CANNED_DOCUMENT,
      sourceFile: src,
      sourceFormat: "pi",
      sessionFormat: "pi",
      recorded: false,
      missingSections: [],
      condensed: null,
      usage: { inputTokens: 1000, outputTokens: 200 },
      engine: "llm",
      redacted: 0,
    });
    expect(out.resume).toEqual({ argv: ["pi", "--session", out.sessionFile], cwd: "/home/me/parser" });
    expect(readFileSync(out.sessionFile, "utf8")).toContain(out.sessionId);
    expect(readFileSync(src).equals(original)).toBe(true);
    expect((s.requests[0]?.body as { model: string } | undefined)?.model).toBe("m-1");
  });

  test("--out writes exactly there, mode 0600", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const src = source();
    const out = join(sandbox.dir, "next.jsonl");
    const run = await runAgent(["handoff", src, "-o", out, "-q"], env(s.url));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(Bun.file(out).size).toBeGreaterThan(0);
    const { mode } = await import("node:fs").then((fs) => fs.statSync(out));
    expect(mode & 0o777).toBe(0o600);
  });

  test("a version 1 source is upgraded to version 3 to record, every entry kept", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT }));
    const v1 = join(sandbox.dir, "v1-source.jsonl");
    writeFileSync(
      v1,
      [
        { type: "session", id: "11111111-2222-4333-8444-555555555555", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" },
        { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "V1-FIRST", timestamp: 1 } },
        { type: "thinking_level_change", timestamp: "2025-01-01T00:00:02.000Z", thinkingLevel: "high" },
        {
          type: "message",
          timestamp: "2025-01-01T00:00:03.000Z",
          message: { role: "assistant", content: [{ type: "text", text: "V1-REPLY" }], stopReason: "stop", timestamp: 2 },
        },
      ]
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(""),
    );
    const run = await runAgent(["handoff", v1, "-o", join(sandbox.dir, "new.jsonl")], env(s.url));
    expect(run.code).toBe(0);
    const lines = readFileSync(v1, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    // No model entry: the source names no model (its answer has no provider), so there is none to restore.
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ type: "session", version: 3, id: "11111111-2222-4333-8444-555555555555", cwd: "/w" });
    expect(lines.slice(1, 4).map((l) => l.type)).toEqual(["message", "thinking_level_change", "message"]);
    expect(lines[1]).toMatchObject({ parentId: null, message: { content: "V1-FIRST" } });
    expect(lines[2].parentId).toBe(lines[1].id);
    expect(lines[4]).toMatchObject({ parentId: lines[3].id, message: { role: "user" } });
    expect(lines[5]).toMatchObject({ parentId: lines[4].id, message: { role: "assistant" } });
    expect(run.stderr).toContain("upgraded to session format version 3");
  });

  test("a <think> block before the document is stripped", async () => {
    const s = serve(() => ({ text: `<think>\nLet me plan the sections.\n</think>\n\n${CANNED_DOCUMENT}` }));
    const src = source();
    const run = await runAgent(["handoff", src, "--no-record", "--no-facts"], env(s.url));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${CANNED_DOCUMENT}\n`);
  });

  test("429 then success: retried, one new session", async () => {
    const s = serve((_, i) =>
      i === 0 ? { status: 429, error: { message: "slow down" }, headers: { "retry-after": "0" } } : { text: CANNED_DOCUMENT },
    );
    const src = source();
    const run = await runAgent(["handoff", src, "--no-record"], env(s.url));
    expect(run.code).toBe(0);
    expect(s.requests).toHaveLength(2);
    expect(filesIn(sandbox.dir)).toHaveLength(2);
  });

  test("a missing section is a warning without --strict", async () => {
    const s = serve(() => ({ text: CANNED_DOCUMENT.replace("## Key Decisions", "## Choices") }));
    const src = source();
    const run = await runAgent(["handoff", src, "--no-record"], env(s.url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('warning: the document lacks "## Key Decisions"');
  });
});

afterAll(() => {
  // The example fixture is the README's; make sure no test wrote beside it.
  expect(readdirSync(join(REPO, "fixtures")).filter((f) => /^\d{4}-.*\.jsonl$/.test(f))).toEqual([]);
  expect(readFileSync(EXAMPLE, "utf8").split("\n").filter(Boolean).length).toBe(18);
});
