/**
 * The pipeline asks the format table, never an agent's name: the target writes the new session
 * from what the pipeline gives it, and only a source format that can record is recorded into.
 * Formats here are stand-ins, so these tests hold for any agent the table lists.
 */
import { describe, expect, test } from "bun:test";
import { answer, deps, exampleInput, fakeModel, FULL_DOCUMENT, NEW_SESSION_ID, NOW } from "../../fixtures/handoff-pipeline.ts";
import { pi } from "../session/formats/pi/index.ts";
import type { NewSessionInput, SessionFormat } from "../session/formats/types.ts";
import { runHandoff } from "./pipeline.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "./wrap.ts";

/** A target that writes what it was given, so a test can see it. */
function recordingTarget(): { format: SessionFormat; inputs: NewSessionInput[] } {
  const inputs: NewSessionInput[] = [];
  const format: SessionFormat = {
    ...pi,
    name: "codex",
    label: "A target",
    renderNewSession: (input) => {
      inputs.push(input);
      const ids = [input.newEntryId(), input.newEntryId(), input.newEntryId()];
      return { content: `${ids.join(",")}\n`, fileName: `target-${input.sessionId}.jsonl`, sessionId: `resume-${input.sessionId}` };
    },
  };
  return { format, inputs };
}

/** A source format that keeps no record of ours (as Claude Code and Codex). */
const NOT_RECORDING: SessionFormat = { ...pi, label: "Unrecorded", record: undefined };

describe("the new session is the target's", () => {
  test("written by the target from the wrapped document, the acknowledgement, the source's facts and the user's time zone", async () => {
    const { format, inputs } = recordingTarget();
    const input = exampleInput({ target: format });
    input.session.header.agentVersion = "1.2.3";
    input.session.header.modelProvider = "openai";
    const result = await runHandoff(
      input,
      deps(fakeModel(answer(FULL_DOCUMENT)).complete, { utcOffsetMinutes: (at) => (at === NOW ? 330 : 0) }),
    );
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      wrappedDocument: wrapHandoffDocument(FULL_DOCUMENT),
      acknowledgement: ACKNOWLEDGEMENT,
      sessionId: NEW_SESSION_ID,
      timestamp: NOW,
      utcOffsetMinutes: 330,
      cwd: "/home/me/app",
      parentSession: "/home/me/sessions/source.jsonl",
      model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
      source: { format: "pi", agentVersion: "1.2.3", modelProvider: "openai" },
    });
    expect(result.newSession).toEqual({
      content: "e0000001,e0000002,e0000003\n",
      fileName: `target-${NEW_SESSION_ID}.jsonl`,
      sessionId: `resume-${NEW_SESSION_ID}`,
      timestamp: NOW,
    });
  });

  test("without a target, the source's own format writes it", async () => {
    const result = await runHandoff(exampleInput(), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(result.newSession.fileName).toBe(`2026-11-30T08-00-00-000Z_${NEW_SESSION_ID}.jsonl`);
    expect(result.newSession.content.split("\n")[0]).toContain('"type":"session"');
  });

  test("the new session's entry ids are fresh: never one taken twice", async () => {
    const { format } = recordingTarget();
    let n = 0;
    const repeating = () => `e000000${Math.floor(n++ / 2) + 1}`; // e0000001 twice, e0000002 twice, …
    const result = await runHandoff(
      exampleInput({ target: format }),
      deps(fakeModel(answer(FULL_DOCUMENT)).complete, { newEntryId: repeating }),
    );
    const ids = result.newSession.content.trim().split(",");
    expect(new Set(ids).size).toBe(3);
  });

  test("a source stream has no parent to name", async () => {
    const { format, inputs } = recordingTarget();
    await runHandoff(exampleInput({ target: format, sourceIsStream: true }), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(inputs[0]?.parentSession).toBeUndefined();
  });

  test("the source's version and provider are written like the rest: a withheld string never reaches the target", async () => {
    const { format, inputs } = recordingTarget();
    const input = exampleInput({ target: format, withheld: ["sk-secret-0123456789"] });
    input.session.header.agentVersion = "1.0 sk-secret-0123456789";
    input.session.header.modelProvider = "sk-secret-0123456789";
    await runHandoff(input, deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(JSON.stringify(inputs[0]?.source)).not.toContain("sk-secret");
  });
});

describe("recording goes by the source's format", () => {
  test("a format that records: the handoff is recorded when asked", async () => {
    const result = await runHandoff(exampleInput({ record: true }), deps(fakeModel(answer(FULL_DOCUMENT)).complete));
    expect(result.recording?.mode).toBe("append");
  });

  test("a format that cannot record: nothing to record, even when asked; the new session is still written", async () => {
    const result = await runHandoff(
      exampleInput({ record: true, sourceFormat: NOT_RECORDING }),
      deps(fakeModel(answer(FULL_DOCUMENT)).complete),
    );
    expect(result.recording).toBeUndefined();
    expect(result.newSession.content).toContain("handoff-context");
  });
});
