/**
 * One run of the CLI and everything it needs, made fresh by `runCli` for each run: its streams,
 * environment and folder (`RunIo`), the printed-line filter with what it withholds, stdout and
 * stderr, cancellation, temp files, agent processes and their folders. Nothing of a run lives in
 * a module, so the CLI runs twice in one process (the tests run it in-process) and each run sees
 * only its own. The process itself is reached only through a `ProcessHost` (cli/process/host.ts).
 */
import type { Readable, Writable } from "node:stream";
import type { ConsolaInstance } from "consola/core";
import { AgentProcesses, type Kill } from "./agents/agent-process.ts";
import { ScratchFolders } from "./agents/agent-scratch.ts";
import { Cancellation, cancelledMessage } from "./process/cancel.ts";
import { PrintedFilter } from "./output/printed.ts";
import { createLogger, isInteractive, StderrChannel, type LoggerOptions } from "./output/stderr.ts";
import { StdoutChannel, type OutputStream } from "./output/stdout.ts";
import { TempFiles } from "./io/temp-file.ts";

export type Env = Readonly<Record<string, string | undefined>>;

/** The run's stdin: a descriptor to read a session from (`-`). */
export interface InputStream {
  readonly fd: number;
  readonly isTTY?: boolean | undefined;
}

/** What the process gives a run beyond its streams: ids, signals, the exit, replacing the process (`--exec`). */
export interface ProcessHost {
  readonly pid: number;
  readonly platform: NodeJS.Platform;
  kill: Kill;
  /** Runs `hook` when the process exits, whatever the way; returns what removes it. */
  onExit(hook: () => void): () => void;
  /**
   * Ends the process now with `code` (a signal outside a run in progress, a second Ctrl-C; the
   * exit hooks run). Only the binary's host has it: a run in a test's process ends at its next
   * checkpoint instead.
   */
  readonly exitNow?: ((code: number) => void) | undefined;
  /** Replaces the process image with `program` (POSIX execve), in `cwd`; returns only by throwing. Undefined where it cannot. */
  readonly execve?: ((program: string, argv: readonly string[], env: Env, cwd: string | undefined) => void) | undefined;
  /**
   * For a program that takes over the terminal as our child (`--exec` without execve): stops
   * cancelling on signals, passes SIGTERM and SIGHUP on with `forward`, ignores SIGINT (the
   * terminal sends it to the child itself). Returns what undoes it.
   */
  handOverSignals(forward: (signal: NodeJS.Signals) => void): () => void;
  /**
   * The program this process runs as (`agent integrate` writes it into the agents' hooks): the
   * executable, and the script when the executable is Bun running one. Undefined where unknown.
   */
  readonly program?: { executable: string; script: string | undefined } | undefined;
  /**
   * The run has long work ahead (a session of many megabytes): from now on the runtime compiles
   * hot code as early as it normally does. The binary starts reluctant to (see cli/process/host.ts).
   */
  readonly longWork?: (() => void) | undefined;
}

export interface RunIo {
  env: Env;
  cwd: string;
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Aborted: the run is cancelled, as by Ctrl-C. */
  signal?: AbortSignal | undefined;
  host: ProcessHost;
  /** Where an interactive prompt (`--pick`) reads and draws: the process's stdin and stderr. */
  prompt?: { input: Readable; output: Writable } | undefined;
  /** The process started with stdout closed (`>&-`), so what is written there is lost (see cli/process/host.ts). */
  stdoutClosedAtStart?: boolean | undefined;
}

/** One run of the CLI. */
export class Run {
  readonly env: Env;
  readonly cwd: string;
  readonly host: ProcessHost;
  readonly printed = new PrintedFilter();
  readonly stdout: StdoutChannel;
  readonly stderr: StderrChannel;
  readonly cancel: Cancellation;
  readonly temps: TempFiles;
  readonly agents: AgentProcesses;
  readonly scratch = new ScratchFolders();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    readonly argv: readonly string[],
    readonly io: RunIo,
  ) {
    this.env = io.env;
    this.cwd = io.cwd;
    this.host = io.host;
    this.stdout = new StdoutChannel(io.stdout, this.printed, io.stdoutClosedAtStart);
    this.stderr = new StderrChannel(io.stderr, this.printed);
    this.cancel = new Cancellation({
      message: cancelledMessage(argv),
      say: (line) => this.stderr.write(line),
      exitNow: io.host.exitNow,
    });
    this.temps = new TempFiles(io.host.pid);
    this.agents = new AgentProcesses(io.host.kill);
    io.signal?.addEventListener("abort", () => this.cancel.interrupt(), { once: true });
    if (io.signal?.aborted) this.cancel.interrupt();
  }

  /** The run's logger: stderr, with colour only for a person at a terminal. */
  logger(options: LoggerOptions = {}): ConsolaInstance {
    return createLogger(this.stderr, this.interactive, options);
  }

  /** Whether stderr is a terminal a person watches (not CI, not NO_COLOR-style plain output). */
  get interactive(): boolean {
    return isInteractive(this.io.stderr, this.env);
  }

  /** Runs `hook` when the run ends, last registered first; returns what removes it. */
  onEnd(hook: () => void): () => void {
    this.cleanups.push(hook);
    return () => {
      const at = this.cleanups.indexOf(hook);
      if (at >= 0) this.cleanups.splice(at, 1);
    };
  }

  /** What is left when the run ends, in whatever way: agents killed, then their folders, temp files and the rest removed. */
  end(): void {
    this.agents.killAll();
    this.scratch.removeAll();
    this.temps.removeAll();
    for (const hook of this.cleanups.splice(0).reverse()) hook();
  }
}

/** The run a command was given in citty's `data` (see cli/main.ts). */
export function runOf(data: unknown): Run {
  if (data instanceof Run) return data;
  throw new Error("a command ran without its run");
}
