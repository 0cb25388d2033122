/** Small sessions for the offline engine's tests: entries chained one after another, and the document they give. */
import { analyzeBranch, parseSession } from "../../index.ts";
import { appendSessionFacts, renderSessionFacts } from "../facts-section.ts";
import { writeOfflineDocument } from "./index.ts";

export type Record = { [key: string]: unknown };

/** A v3 session from a list of entries, each chained to the one before. */
export function session(entries: Record[], cwd = "/work/app"): string {
  const header = { type: "session", version: 3, id: "11111111-2222-4333-8444-555555555555", timestamp: "2026-01-01T00:00:00.000Z", cwd };
  const lines = [
    header,
    ...entries.map((entry, i) => ({
      id: `e${i + 1}`,
      parentId: i === 0 ? null : `e${i}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      ...entry,
    })),
  ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

export const user = (content: string): Record => ({ type: "message", message: { role: "user", content, timestamp: 1 } });
export const assistant = (content: Record[], stopReason = "stop"): Record => ({
  type: "message",
  message: { role: "assistant", content, stopReason, timestamp: 1 },
});
export const text = (value: string): Record => ({ type: "text", text: value });
export const call = (id: string, name: string, args: Record): Record => ({ type: "toolCall", id, name, arguments: args });
export const result = (toolCallId: string, toolName: string, output: string, isError = false): Record => ({
  type: "message",
  message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: output }], isError, timestamp: 1 },
});

/** One assistant turn running one shell command, and its result (`exit` > 0 adds pi's exit line). */
export function shell(id: string, command: string, output: string, exit = 0): Record[] {
  const shown = exit === 0 ? output : `${output}\n\nCommand exited with code ${exit}`;
  return [assistant([call(id, "bash", { command })], "toolUse"), result(id, "bash", shown, exit !== 0)];
}

/** The offline document for the entries (cwd /work/app), with or without Session Facts. */
export function offline(entries: Record[], focus?: string, withFacts = false): string {
  const { context, facts } = analyzeBranch(parseSession(session(entries)));
  const document = writeOfflineDocument(
    focus === undefined ? { context, facts, cwd: "/work/app" } : { context, facts, cwd: "/work/app", focus },
  );
  return withFacts ? appendSessionFacts(document, renderSessionFacts(facts, "s.jsonl")) : document;
}
