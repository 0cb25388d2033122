/**
 * The wrapper through every target's writer and back through that agent's reader: the document
 * a session we wrote opens with reads back byte for byte, whatever closing-tag spellings it
 * holds (handoff.md step 6), and nothing a loose reader takes for the closing tag is left
 * inside the written wrapper.
 */
import { describe, expect, test } from "bun:test";
import { CLOSE_LIKE_MORE_VARIANTS, CLOSE_LIKE_VARIANTS as SPEC_VARIANTS } from "../../fixtures/close-like-tags.ts";

const CLOSE_LIKE_VARIANTS = [...SPEC_VARIANTS, ...CLOSE_LIKE_MORE_VARIANTS];
import { unwrapHandoffDocument } from "../session/formats/handoff-text.ts";
import { FILE_FORMATS } from "../session/formats/table.ts";
import type { SessionFormat } from "../session/formats/types.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "./wrap.ts";

const DOCUMENTS: [string, string][] = [
  ...CLOSE_LIKE_VARIANTS.map(([name, document]) => [name, `## Goal\nQuote ${document} in the docs.\n`] as [string, string]),
  ["every spelling at once, CRLF lines", `## Goal\r\n${CLOSE_LIKE_VARIANTS.map(([, d]) => d).join("\r\n")}\r\n`],
  ["a whole wrapper nested twice", wrapHandoffDocument(wrapHandoffDocument("## Goal\n</HANDOFF-CONTEXT >"))],
];

function writeAndRead(format: SessionFormat, document: string): { written: string; content: unknown } {
  let n = 0;
  const file = format.renderNewSession({
    wrappedDocument: wrapHandoffDocument(document),
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId: "0b5e55ed-0000-4000-8000-00000000a008",
    newEntryId: () => `e${String(++n).padStart(7, "0")}`,
    timestamp: new Date("2026-11-29T10:00:00.000Z"),
    utcOffsetMinutes: 0,
    cwd: "/home/me/app",
    parentSession: "/home/me/source.jsonl",
    model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
    source: { format: format.name, agentVersion: undefined, modelProvider: "openai" },
  });
  const session = format.read(file.content, file.fileName);
  const handoff = session.entries.find((e) => e.type === "custom_message" && e.data.customType === "handoff");
  return { written: file.content, content: handoff?.data.content };
}

// opencode's rows read back the same way: core/session/formats/opencode/write.test.ts.
describe.each(FILE_FORMATS.map((f) => [f.name, f] as const))("the new session %s writes", (_, format) => {
  test.each(DOCUMENTS)("%s: reads back as the same document, byte for byte", (_, document) => {
    const { written, content } = writeAndRead(format, document);
    expect(typeof content).toBe("string");
    expect(unwrapHandoffDocument(String(content))).toBe(document);
    // On disk (JSON), the wrapper's own closing tag is the only one a loose reader takes.
    const text = String(content);
    expect(text.match(/<[ \t\r\n]*\/[ \t]*handoff-context[ \t\r\n]*>/gi)).toEqual(["</handoff-context>"]);
    expect(written).toContain(JSON.stringify(text).slice(1, -1));
  });
});
