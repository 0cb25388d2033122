import { renderNewSession as renderPiFamilySession } from "../pi/write.ts";
import type { NewSessionFile, NewSessionInput } from "../types.ts";

/** omp's title line is always this many bytes, its `\n` included: omp rewrites it in place. */
const TITLE_SLOT_BYTES = 256;

/**
 * omp's first line in every session it starts (omp 18.2.3's session-title-slot.ts): the title,
 * empty until omp names the session, and when it was set, padded with spaces to exactly 256
 * bytes.
 */
export function emptyTitleSlot(updatedAt: Date): string {
  const line = (pad: string) => `${JSON.stringify({ type: "title", v: 1, title: "", updatedAt: updatedAt.toISOString(), pad })}\n`;
  const padBytes = TITLE_SLOT_BYTES - new TextEncoder().encode(line("")).length;
  return line(" ".repeat(padBytes));
}

/** pi's new session (omp reads pi's layout), opened with omp's title line, as omp starts its own. */
export function renderNewSession(input: NewSessionInput): NewSessionFile {
  const session = renderPiFamilySession(input);
  return { ...session, content: emptyTitleSlot(input.timestamp) + session.content };
}
