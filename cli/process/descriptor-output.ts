/**
 * The process's stdout and stderr, written by descriptor. In Bun the first touch of
 * `process.stdout` or `process.stderr` loads Node's stream modules: ~20 ms of CPU at every start,
 * more than the rest of a short run. A pipe, a file or a socket is written here directly instead;
 * anything else (a terminal, /dev/null) keeps Node's stream, which alone knows a terminal's width.
 */
import { fstatSync, writeSync } from "node:fs";

/** What is needed of Node's stream for a descriptor (process.stdout or process.stderr). */
interface NodeOutput {
  write(text: string | Uint8Array, done: (error?: Error | null) => void): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
  on?(event: "error", listener: (error: Error) => void): unknown;
}

interface Pending {
  bytes: Uint8Array;
  done: (error?: Error | null) => void;
}

/**
 * Whether `fd` is a pipe, a socket or a regular file: never a terminal, so written directly. A
 * character device may be a terminal; a descriptor fstat cannot read is left to Node's stream, as
 * before, to say what it says.
 */
export function isPlainDescriptor(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * One of the process's output descriptors. Writes go out in order, each whole: a partial write
 * (a signal arrived while a slow reader held it) goes on after the event loop had its turn, so
 * the signal's handler runs in between, as it would beside Node's stream. A descriptor that is
 * non-blocking (EAGAIN: a parent set it so) is handed to Node's stream, which waits until it can
 * be written, for this and every later write. Failures reach `done` with their code (EPIPE,
 * ENOSPC, EBADF), as Node's stream reports them.
 */
export class DescriptorOutput {
  private readonly direct: boolean;
  private stream: NodeOutput | undefined;
  private readonly queue: Pending[] = [];
  private writing = false;

  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeOutput,
    direct = isPlainDescriptor(fd),
  ) {
    this.direct = direct;
  }

  private node(): NodeOutput {
    this.stream ??= this.nodeStream();
    return this.stream;
  }

  get isTTY(): boolean | undefined {
    return this.direct ? false : this.node().isTTY;
  }

  get columns(): number | undefined {
    return this.direct ? undefined : this.node().columns;
  }

  on(event: "error", listener: (error: Error) => void): void {
    // A direct write reports its failure to its callback only; Node's stream emits it too.
    if (this.stream !== undefined || !this.direct) this.node().on?.(event, listener);
  }

  write(text: string, done: (error?: Error | null) => void): boolean {
    if (!this.direct || (this.stream !== undefined && !this.writing)) {
      this.node().write(text, done);
      return true;
    }
    this.queue.push({ bytes: Buffer.from(text, "utf8"), done });
    if (!this.writing) this.drain();
    return true;
  }

  /** Writes the queue in order until it is empty, or a partial write waits for the next turn. */
  private drain(): void {
    this.writing = true;
    for (;;) {
      const next = this.queue[0];
      if (next === undefined) break;
      if (this.stream !== undefined) {
        // Non-blocking: Node's stream has the rest, in order.
        for (const { bytes, done } of this.queue.splice(0)) this.stream.write(bytes, done);
        break;
      }
      let written: number;
      try {
        written = next.bytes.length === 0 ? 0 : writeSync(this.fd, next.bytes);
      } catch (error) {
        const code = codeOf(error);
        if (code === "EAGAIN") {
          this.node();
          continue;
        }
        if (code === "EINTR") {
          setImmediate(() => this.drain());
          return;
        }
        this.queue.shift();
        const failure = error instanceof Error ? error : new Error(String(error));
        queueMicrotask(() => next.done(failure));
        continue;
      }
      if (written < next.bytes.length) {
        next.bytes = next.bytes.subarray(written);
        setImmediate(() => this.drain());
        return;
      }
      this.queue.shift();
      queueMicrotask(() => next.done(null));
    }
    this.writing = false;
  }
}
