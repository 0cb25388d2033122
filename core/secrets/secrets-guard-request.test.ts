import { describe, expect, test } from "bun:test";
import { buildRequest } from "../llm/request.ts";
import type { ChatRequest } from "../llm/types.ts";
import type { ContextMessage } from "../session/messages.ts";
import { mapRequestText } from "./outgoing-strings.ts";
import { createSecretsGuard } from "./secrets-guard.ts";
import { createWithholding } from "./withhold.ts";

const KEY = "sk-proj-guardrequest0123456789";

const user = (text: string): ContextMessage => ({
  role: "user",
  kind: "user",
  content: [{ type: "text", text }],
  entryId: `u-${text.length}`,
});

/** A request with every string withheld on its own, as the guard's boundary must give it, whatever it saw before. */
function withheldAlone(request: ChatRequest): ChatRequest {
  const { withholdWellFormed: withhold, keepsJson } = createWithholding([KEY]);
  return mapRequestText(request, { text: withhold, assigned: (_key, value) => withhold(value), opaque: withhold, keepsJson });
}

// The input's texts the guard saw, then texts a request may carry: the same, the same with the key
// added, the key alone, a text the input held with the key (as sent: withheld), one never seen.
const SEEN = ["plain words", `the key ${KEY} quoted`, "tail \u200b with an invisible character", "line one\nline two"];
const CASES: [string, string][] = [
  ["a text the input held, unchanged", "plain words"],
  ["a text the input held, the key appended", `plain words ${KEY}`],
  ["the key alone", KEY],
  ["the key with a zero-width space inside", `${KEY.slice(0, 8)}\u200b${KEY.slice(8)}`],
  ["a text the input held with the key, as sent", "the key [withheld] quoted"],
  ["a text the input held with the key, as it was", `the key ${KEY} quoted`],
  ["a text never seen", "something else entirely"],
  ["a multi-line text the input held", "line one\nline two"],
];

describe("the guard's request boundary gives what withholding each string alone gives, after any input", () => {
  test.each(CASES)("%s", (_name, text) => {
    for (const redact of [true, false]) {
      const guard = createSecretsGuard({ context: SEEN.map(user), withheld: [KEY], redact });
      guard.outgoing();
      const request = buildRequest({ model: "m", systemPrompt: "sys", context: [user(text), ...SEEN.map(user)], instruction: text });
      const sent = guard.request(request);
      expect(sent).toEqual(withheldAlone(request));
      expect(JSON.stringify(sent)).not.toContain(KEY.slice(3));
    }
  });
});
