import { describe, expect, test } from "bun:test";
import { estimateMessageTokens } from "../../session/tokens.ts";
import { assistantMessage, filler, toolResultMessage } from "./condense.testing.ts";
import { capMessageText, capToFit, cutMarker, shortenText } from "./shorten.ts";

const MARKER =
  /\n\[… ([\d,]+) of ([\d,]+) characters cut from the middle of this (tool result|command output|message) to fit the model's context window …\]\n/;

/** Splits shortened text at its marker; fails when there is none. */
function parts(text: string): { head: string; tail: string; cut: number; total: number; subject: string } {
  const match = MARKER.exec(text);
  if (!match || match.index === undefined) throw new Error(`no marker in ${text.slice(0, 80)}…`);
  return {
    head: text.slice(0, match.index),
    tail: text.slice(match.index + match[0].length),
    cut: Number((match[1] ?? "").replace(/,/g, "")),
    total: Number((match[2] ?? "").replace(/,/g, "")),
    subject: match[3] ?? "",
  };
}

describe("shortenText", () => {
  test("keeps the head and the tail, and the marker says exactly how much of how much was cut", () => {
    const text = filler(50_000, "log");
    const short = shortenText(text, 4000, "tool result");
    const { head, tail, cut, total, subject } = parts(short);
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(total).toBe(50_000);
    expect(cut).toBe(50_000 - head.length - tail.length);
    expect(head.length + tail.length).toBeLessThanOrEqual(4000);
    expect(head.length + tail.length).toBeGreaterThan(3000);
    expect(subject).toBe("tool result");
  });

  test("cuts at line breaks when one is near, so lines stay whole", () => {
    const text = filler(20_000, "line");
    const { head, tail } = parts(shortenText(text, 2000, "command output"));
    expect(text.charAt(head.length)).toBe("\n");
    expect(text.charAt(text.length - tail.length - 1)).toBe("\n");
  });

  test("text within the cap, or that a marker would make longer, is left alone", () => {
    const text = "x".repeat(100);
    expect(shortenText(text, 100, "message")).toBe(text);
    expect(shortenText(text, 10, "message")).toBe(text);
    expect(shortenText("x".repeat(1000), 10, "message").length).toBeLessThan(1000);
  });

  test("the marker counts with separators", () => {
    expect(cutMarker(12_345, 50_000, "tool result")).toBe(
      "[… 12,345 of 50,000 characters cut from the middle of this tool result to fit the model's context window …]",
    );
  });
});

describe("capMessageText", () => {
  test("caps strings inside tool-call arguments and keeps the arguments valid JSON with every key", () => {
    const message = assistantMessage("a1", "Writing the file.", [
      { id: "c1", name: "write", arguments: { path: "src/a.ts", content: filler(30_000, "code"), options: { mode: 420 } } },
    ]);
    const capped = capMessageText(message, 1000);
    const block = capped.content.find((b) => b.type === "toolCall");
    if (block?.type !== "toolCall") throw new Error("the call went missing");
    expect(block.arguments).toMatchObject({ path: "src/a.ts", options: { mode: 420 } });
    expect(JSON.stringify(block.arguments).length).toBeLessThan(1500);
    expect(capped.content[0]).toEqual({ type: "text", text: "Writing the file." });
  });

  test("returns the very same message when nothing is over the cap", () => {
    const message = toolResultMessage("t1", "c1", "read", "tiny");
    expect(capMessageText(message, 100)).toBe(message);
  });
});

describe("capToFit", () => {
  test("finds the largest common cap that fits, leaving short messages whole", () => {
    const messages = [
      assistantMessage("a1", "", [
        { id: "c1", name: "read", arguments: { path: "a" } },
        { id: "c2", name: "read", arguments: { path: "b" } },
      ]),
      toolResultMessage("t1", "c1", "read", filler(40_000, "big")),
      toolResultMessage("t2", "c2", "read", "small result"),
    ];
    const fitted = capToFit(messages, 2000, estimateMessageTokens);
    const total = fitted.reduce((n, m) => n + estimateMessageTokens(m), 0);
    expect(total).toBeLessThanOrEqual(2000);
    expect(total).toBeGreaterThan(1800);
    expect(fitted[0]).toBe(messages[0]);
    expect(fitted[2]).toBe(messages[2]);
    expect(parts(fitted[1]?.content[0]?.type === "text" ? fitted[1].content[0].text : "").subject).toBe("tool result");
  });

  test("a run that fits comes back unchanged", () => {
    const messages = [toolResultMessage("t1", "c1", "read", "ok")];
    expect(capToFit(messages, 100, estimateMessageTokens)).toEqual(messages);
  });
});
