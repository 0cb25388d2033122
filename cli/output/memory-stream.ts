import type { OutputStream } from "./stdout.ts";

/** A stream that keeps what is written to it, as a pipe would pass it on (not a terminal): a run inside a run, and the tests. */
export class MemoryStream implements OutputStream {
  private readonly chunks: string[] = [];
  readonly isTTY = false;

  write(text: string, done: (error?: Error | null) => void): boolean {
    this.chunks.push(text);
    queueMicrotask(() => done(null));
    return true;
  }

  text(): string {
    return this.chunks.join("");
  }
}
