import { describe, expect, test } from "bun:test";
import { idsFrom, NEW_SESSION_ID, NOW, SOURCE_PATH } from "../../../../fixtures/outputs.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "../../../handoff/wrap.ts";
import { renderNewSession as renderPiSession } from "../pi/write.ts";
import { readSession } from "../read.ts";
import type { NewSessionInput } from "../types.ts";
import { emptyTitleSlot, renderNewSession } from "./write.ts";

const input = (): NewSessionInput => ({
  wrappedDocument: wrapHandoffDocument("## Goal\nx"),
  acknowledgement: ACKNOWLEDGEMENT,
  sessionId: NEW_SESSION_ID,
  newEntryId: idsFrom("a1", "a2", "a3"),
  timestamp: NOW,
  utcOffsetMinutes: 0,
  cwd: "/w",
  parentSession: SOURCE_PATH,
  model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
  source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
});

describe("omp's new session", () => {
  test("opens with omp's empty title line: exactly 256 bytes with its \\n, as omp rewrites it in place", () => {
    const slot = emptyTitleSlot(NOW);
    expect(new TextEncoder().encode(slot).length).toBe(256);
    expect(slot.endsWith("\n")).toBe(true);
    expect(JSON.parse(slot)).toEqual({ type: "title", v: 1, title: "", updatedAt: NOW.toISOString(), pad: expect.stringMatching(/^ +$/) });
  });

  test("is pi's new session after that line, named the same way", () => {
    const omp = renderNewSession(input());
    const pi = renderPiSession(input());
    expect(omp.content).toBe(emptyTitleSlot(NOW) + pi.content);
    expect([omp.fileName, omp.sessionId]).toEqual([pi.fileName, pi.sessionId]);
  });

  test("reads back as omp's (and pi's as pi's), the title line as the title slot", () => {
    const omp = readSession(renderNewSession(input()).content, "omp.jsonl");
    expect([omp.session.format, omp.session.titleSlot?.title, omp.session.header.id]).toEqual(["omp", "", NEW_SESSION_ID]);
    expect(readSession(renderPiSession(input()).content, "pi.jsonl").session.format).toBe("pi");
  });
});
