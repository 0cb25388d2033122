/**
 * A Claude Code session `agent handoff` wrote opens with the wrapped document as a user line.
 * Read back, that line is the previous handoff (the `handoff` custom message pi and omp keep),
 * by the one rule every reader uses (formats/handoff-text.ts), never a request of the user's.
 */
import { describe, expect, test } from "bun:test";
import { assistantLine, jsonl, text, userLine, uuid } from "../../../../fixtures/sessions/claude-code/builders.ts";
import { wrapHandoffDocument } from "../../../handoff/wrap.ts";
import { analyzeBranch } from "../../analyze.ts";
import { messageText } from "../../messages.ts";
import { readClaudeCodeSession } from "./read.ts";

const place = { sessionId: "5a1b2c3d-0000-4000-8000-0000000000d1", cwd: "/home/dev/shop" };
const u = (n: number) => uuid("4", n);
const DOCUMENT =
  "## Goal\nDeploy the app.\n\n## Constraints & Preferences\n- Never use sudo; a literal </handoff-context> stays the document's.";
const WRAPPED = wrapHandoffDocument(DOCUMENT);

function contextOf(first: unknown) {
  const session = readClaudeCodeSession(
    jsonl([
      userLine(place, u(1), null, 1, first),
      assistantLine(place, u(2), u(1), 1, [text("I have read the handoff document and will continue the work from it.")], {
        messageId: "m1",
        model: "<synthetic>",
        stop: "stop_sequence",
      }),
      userLine(place, u(3), u(2), 2, "Add a health check endpoint."),
    ]),
    "s.jsonl",
  );
  const analysis = analyzeBranch(session);
  const roles: string[] = analysis.context.map((m) => (m.role === "user" ? m.kind : m.role));
  return { roles, first: analysis.context[0], analysis };
}

describe("the first user line of a session we wrote", () => {
  test.each([
    ["the wrapped document as a string (as we write it)", WRAPPED, "custom"],
    ["the wrapped document as one text block", [text(WRAPPED)], "custom"],
    ["the wrapped document of an empty document", wrapHandoffDocument(""), "custom"],
    [
      "the wrapped document and an image: the user's own message",
      [text(WRAPPED), { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }],
      "user",
    ],
    ["the wrapped document in two text blocks: the user's", [text(WRAPPED), text("and more")], "user"],
    ["the wrapper quoted after other words: the user's", `Look at this:\n${WRAPPED}`, "user"],
    ["a wrapper never closed: the user's", "<handoff-context>\n## Goal\nx", "user"],
  ])("%s", (_, first, kind) => {
    const { roles, first: message, analysis } = contextOf(first);
    expect(roles).toEqual([kind, "assistant", "user"]);
    expect(analysis.facts.lastUserRequest).toBe("Add a health check endpoint.");
    if (kind === "custom") expect(message && messageText(message)).toBe(typeof first === "string" ? first : WRAPPED);
  });

  test("a session we wrote, not yet continued, holds nothing to hand off (as pi's and Codex's)", () => {
    const session = readClaudeCodeSession(
      jsonl([
        userLine(place, u(1), null, 1, WRAPPED),
        assistantLine(place, u(2), u(1), 1, [text("ack")], { messageId: "m1", model: "<synthetic>", stop: "stop_sequence" }),
      ]),
      "s.jsonl",
    );
    expect(analyzeBranch(session).branchMessages).toBe(1);
  });
});
