/**
 * The guard maps a short text, or a short value under a key, once a pass and looks it up after:
 * the same answers as mapping each again, whatever recurs (a path read twice, a password typed
 * twice, a value under a secret's key and the same value under another key).
 */
import { describe, expect, test } from "bun:test";
import type { ContextMessage } from "../session/messages.ts";
import { mapContextText } from "./outgoing-strings.ts";
import { createRedactor } from "./redact.ts";
import { createSecretsGuard } from "./secrets-guard.ts";
import { createWithholding } from "./withhold.ts";

function callsWith(argsList: Record<string, unknown>[]): ContextMessage[] {
  return argsList.map((args, i) => ({
    role: "assistant",
    content: [
      { type: "text", text: `step ${i}` },
      { type: "toolCall", id: `c${i}`, name: "run", arguments: args },
    ],
    provider: "openai",
    model: "gpt-5",
    stopReason: "toolUse",
    entryId: `a${i}`,
  }));
}

/** The guard's two passes as its contract says, every text and value mapped each time it stands (no memo). */
function eachMapped(context: ContextMessage[], withheld: string[]): [ContextMessage[], number] {
  const { withholdWellFormed: withhold } = createWithholding(withheld);
  const redactor = createRedactor();
  const found = mapContextText(context, {
    text: (text) => redactor.redact(withhold(text)),
    assigned: (key, value) => (key === undefined ? redactor.redact(withhold(value)) : redactor.redactAssigned(key, withhold(value))),
    opaque: withhold,
  });
  if (redactor.count === 0) return [found, 0];
  return [
    mapContextText(found, { text: redactor.redactKnown, assigned: (_key, value) => redactor.redactKnown(value), opaque: (text) => text }),
    redactor.count,
  ];
}

const CASES: [what: string, args: Record<string, unknown>[]][] = [
  ["a path read again", [{ path: "src/a.ts" }, { path: "src/a.ts" }, { path: "src/b.ts" }]],
  ["a password typed twice", [{ password: "Hunter2xyz9" }, { command: "ls" }, { password: "Hunter2xyz9" }]],
  ["one value under a secret's key and under another", [{ path: "Hunter2xyz9" }, { token: "Hunter2xyz9" }, { path: "Hunter2xyz9" }]],
  ["a number under a secret's key, and elsewhere", [{ pin: 1234, password: 123456 }, { limit: 123456 }, { password: 123456 }]],
  ["the key, short, under keys", [{ api_key: "sk-bench" }, { path: "sk-bench" }, { api_key: "sk-bench" }]],
  ["values in lists under a secret's key", [{ secrets: ["a1b2c3d4e5", "a1b2c3d4e5"] }, { path: ["a1b2c3d4e5"] }]],
];

describe("repeated short texts and values", () => {
  test.each(CASES)("%s: as each mapped where it stands", (_what, args) => {
    const context = callsWith(args);
    const guard = createSecretsGuard({ context, withheld: ["sk-bench"] });
    const [want, count] = eachMapped(context, ["sk-bench"]);
    expect(guard.outgoing().context).toEqual(want);
    expect(guard.redacted).toBe(count);
  });

  test("a password typed twice is one placeholder, in both places", () => {
    const guard = createSecretsGuard({ context: callsWith([{ password: "Hunter2xyz9" }, { password: "Hunter2xyz9" }]) });
    const out = guard.outgoing().context.map((m) => JSON.stringify(m));
    expect(out.filter((m) => m.includes("[REDACTED:password:1]"))).toHaveLength(2);
    expect(guard.redacted).toBe(1);
  });
});
