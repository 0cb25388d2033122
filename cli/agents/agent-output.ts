/**
 * What we keep of an agent's output as it streams, within a bound on memory. An agent may
 * repeat itself as it streams (pi 0.73 prints the whole answer-so-far with every streamed
 * piece, so its output grows with the square of the answer): the lines the engine never reads
 * (`skipLine`) are dropped unread as they pass and do not count; the limit applies to the
 * bytes kept.
 */

/** How many bytes of a line decide whether it is skipped: enough for `{"type":"message_update"`. */
const PREFIX_BYTES = 64;
const NEWLINE = 0x0a;

export interface OutputSink {
  /** Takes a chunk; false once what is kept passed the limit (nothing more is kept). */
  push(chunk: Uint8Array): boolean;
  /** How many bytes were kept (or offered past the limit). */
  size(): number;
  /** What was kept, as text. */
  text(): string;
}

export function createOutputSink(limit: number, skipLine?: (start: string) => boolean): OutputSink {
  const kept: Uint8Array[] = [];
  let keptSize = 0;
  // The line being read: its first bytes until they decide it; then it is kept or dropped.
  let line: Uint8Array[] = [];
  let lineSize = 0;
  let decided: "keep" | "skip" | undefined = skipLine === undefined ? "keep" : undefined;
  let full = false;

  const keep = (bytes: Uint8Array): void => {
    if (full) return;
    keptSize += bytes.length;
    if (keptSize > limit) full = true;
    else kept.push(bytes);
  };
  const decide = (): void => {
    const start = new TextDecoder().decode(Buffer.concat(line, lineSize).subarray(0, PREFIX_BYTES));
    decided = skipLine?.(start) === true ? "skip" : "keep";
    if (decided === "keep") for (const part of line) keep(part);
    line = [];
    lineSize = 0;
  };
  const take = (bytes: Uint8Array): void => {
    if (bytes.length === 0) return;
    if (decided === "keep") {
      keep(bytes);
      return;
    }
    if (decided === "skip") return;
    line.push(bytes);
    lineSize += bytes.length;
    if (lineSize >= PREFIX_BYTES) decide();
  };
  const endLine = (): void => {
    if (decided === undefined && lineSize > 0) decide();
    decided = skipLine === undefined ? "keep" : undefined;
  };

  return {
    push(chunk) {
      let from = 0;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
        take(chunk.subarray(from, at + 1));
        endLine();
        from = at + 1;
      }
      take(chunk.subarray(from));
      return !full;
    },
    size: () => keptSize,
    text() {
      if (decided === undefined && lineSize > 0) decide();
      return new TextDecoder().decode(Buffer.concat(kept));
    },
  };
}
