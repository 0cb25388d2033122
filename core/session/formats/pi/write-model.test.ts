/**
 * Fix B: recording a handoff into the source must not change the model pi and omp resume the
 * source with, though our answer names the model that really wrote it (checked against the
 * real agents by `bun run compat`; here against their rules, core/session/restored-model.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assistant, chain, text, user } from "../../../../fixtures/sessions/builders.ts";
import { analyzeBranch } from "../../analyze.ts";
import { parseSession } from "./parse.ts";
import { restoredModel, type RestoredModel } from "../../restored-model.ts";
import { renderRecording } from "./write.ts";
import { applyRewrite, idsFrom } from "../../../../fixtures/outputs.ts";

const FIXTURES = join(import.meta.dir, "../../../../fixtures");
const NOW = new Date("2026-11-30T08:15:42.123Z");

/** The source after recording a handoff of the branch ending at `leafId`, as the file would read. */
function recordInto(source: string, leafId: string | undefined, api: "openai-completions" | "offline"): string {
  const session = parseSession(source);
  const recording = renderRecording({
    session,
    leafId,
    instruction: "Write a handoff document.",
    document: "## Goal\nx",
    provider: api === "offline" ? "agent" : "openrouter",
    model: api === "offline" ? "offline" : "qwen/qwen3-coder",
    api,
    finishReason: "stop",
    usage: undefined,
    timestamp: NOW,
    newEntryId: idsFrom("9b000001", "9b000002", "9b000003"),
    restore: restoredModel(analyzeBranch(session, { leafId }).branch.entries),
  });
  if (recording.mode === "skip") throw new Error(recording.reason);
  if (recording.mode === "append") return source + recording.text;
  return applyRewrite(recording, source);
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const modelAt = (source: string, leafId?: string): RestoredModel =>
  restoredModel(analyzeBranch(parseSession(source), { leafId }).branch.entries);

/** omp's explicit default model, then answers from another model (a fallback): each agent resumes with its own pick. */
const EXPLICIT_THEN_OTHER = chain([
  { type: "model_change", model: "anthropic/claude-opus-4-5", role: "default" },
  user(1, "hi"),
  assistant(2, [text("hello")], "stop", "openai/gpt-5.1"),
]);

describe("recording keeps the model the source resumes with", () => {
  test.each([
    ["a version 3 pi session", fixture("example.jsonl"), undefined],
    ["a branch handed off from its middle", fixture("sessions/v3-branches.jsonl"), "c0000019"],
    ["an omp session with an explicit model", fixture("sessions/omp.jsonl"), undefined],
    ["a version 1 session (rewritten)", fixture("sessions/v1.jsonl"), undefined],
    ["omp's explicit model and pi's last answer differ", EXPLICIT_THEN_OTHER, undefined],
  ])("%s", (_, source, leafId) => {
    const before = modelAt(source, leafId);
    expect(before.pi).toBeDefined();
    expect(before.omp).toBeDefined();
    for (const api of ["openai-completions", "offline"] as const) {
      const after = recordInto(source, leafId ?? parseSession(source).entries.at(-1)?.id, api);
      expect(modelAt(after)).toEqual(before);
    }
  });

  test("omp's explicit pick and pi's answer are both kept, each in its own field", () => {
    const after = recordInto(EXPLICIT_THEN_OTHER, "e03", "openai-completions");
    expect(JSON.parse(after.trimEnd().split("\n").at(-1) ?? "{}")).toEqual({
      type: "model_change",
      id: "9b000003",
      parentId: "9b000002",
      timestamp: NOW.toISOString(),
      provider: "openai",
      modelId: "gpt-5.1",
      model: "anthropic/claude-opus-4-5",
    });
  });

  test("the answer still names who wrote it", () => {
    const after = recordInto(fixture("example.jsonl"), "a0000011", "openai-completions");
    const answer = JSON.parse(after.trimEnd().split("\n").at(-2) ?? "{}");
    expect(answer.message).toMatchObject({ role: "assistant", provider: "openrouter", model: "qwen/qwen3-coder" });
  });

  test("a source that names no model gets no model entry", () => {
    const source = chain([
      user(1, "hi"),
      { type: "message", message: { role: "assistant", content: [text("hello")], stopReason: "stop", timestamp: 2 } },
    ]);
    const after = recordInto(source, "e02", "offline");
    expect(
      after
        .slice(source.length)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).type),
    ).toEqual(["message", "message"]);
  });
});
