// Shared by the reading probes (plain JavaScript: they run inside pi's Node.js and omp's Bun,
// importing the agents' own modules from their install folders, which our typecheck cannot see).
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

/** A private copy to open: the agents may rewrite a file they open (pi migrates v1 in place). */
export function scratchCopy(file) {
  const dir = mkdtempSync(join(tmpdir(), "probe-"));
  const copy = join(dir, basename(file));
  copyFileSync(file, copy);
  return { dir, copy };
}

/** What the comparison needs of each message the provider would be sent, with the wrapper it came from. */
export function describe(message, label) {
  const item = { label };
  if (message.role === "assistant") {
    item.toolCallIds = message.content.filter((b) => b.type === "toolCall").map((b) => b.id);
    item.hasText = message.content.some((b) => b.type === "text" && b.text.trim() !== "");
  }
  if (label.endsWith("(added)")) {
    const content = typeof message.content === "string" ? message.content : (message.content ?? []).map((b) => b.text ?? "").join("");
    item.text = content.slice(0, 120);
  }
  if (message.role === "toolResult") {
    item.toolCallId = message.toolCallId;
    const text = (message.content ?? []).map((b) => b.text ?? "").join("");
    item.synthetic = message.isError === true && text === "No result provided" && label === "toolResult(added)";
  }
  return item;
}

/**
 * Runs the agent's own conversion on each context message alone, so every converted message
 * keeps the label of the message it came from, then its provider transform on the whole list.
 * A message the transform adds has no label: it is marked `(added)`.
 */
export function providerView(messages, convertToLlm, transform) {
  const labels = new Map();
  const converted = [];
  for (const message of messages) {
    for (const out of convertToLlm([message])) {
      labels.set(out, message.role);
      converted.push(out);
    }
  }
  return transform(converted).map((m) => describe(m, labels.get(m) ?? (m.role === "assistant" ? "assistant" : `${m.role}(added)`)));
}

export function print(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
