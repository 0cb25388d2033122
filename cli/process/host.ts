/**
 * The real process, wired to runs (cli/run.ts): its argv, environment, folder and streams, its
 * signals (SIGINT, SIGTERM, SIGHUP cancel the run in progress: exit 130), its exit (what a run
 * leaves is removed however the process ends), and replacing it (`--exec`). The only module,
 * with cli/index.ts, that touches `process`; it loads nothing of the CLI's own but types and
 * cancel.ts, so that index.ts can install the signal handlers before the rest is loaded.
 */
import { fstatSync, readFileSync } from "node:fs";
import { CANCELLED_EXIT, cancelledMessage } from "./cancel.ts";
import type { Env, ProcessHost, Run, RunIo } from "../run.ts";

const CANCEL_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * How many times later than usual the JIT compiles hot code, from the start of the binary's
 * process: most of a run's code runs a few times, and compiling it cost more than it saved. The
 * 1 MB handoff (15 interleaved runs): 63.8 ms and 67.9 ms of CPU at 30, 60.5 and 62.2 at 100,
 * 60.4 and 61.6 at 1,000; its offline engine 94 ms of CPU at 30, 87 at 100; `agent ls --all` of
 * 2,000 sessions the same at each. A session of many megabytes runs the same code long enough
 * for compiling to pay: its reader sets the usual policy again (ProcessHost.longWork; 1 is usual).
 */
const JIT_POLICY_AT_START = 100;

/**
 * Whether the process started with stdout closed (`>&-`). Bun then opens /dev/null there itself,
 * so writes succeed and the product is silently lost. A descriptor that survived exec cannot be
 * close-on-exec, so fd 1 flagged O_CLOEXEC was opened after we started. Linux only; elsewhere
 * the write's own error is all we get.
 */
function startedWithStdoutClosed(): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync("/proc/self/fdinfo/1", "latin1"))?.[1];
    return flags !== undefined && (Number.parseInt(flags, 8) & 0o2000000) !== 0;
  } catch {
    return false;
  }
}

/**
 * The current folder. One removed while the shell stayed in it has no path any more: it is then
 * reached as /proc/self/cwd (Linux), where a relative name still finds nothing, as in the folder
 * itself, and a command that needs the folder's path says it is gone (see GoneCwdError).
 */
function currentFolder(): string {
  try {
    return process.cwd();
  } catch {
    return "/proc/self/cwd";
  }
}

/**
 * The process's ids, exit hooks and signals, without the cancel handlers and without ending the
 * process (an in-process test uses this one; the binary's adds both, see wireProcess).
 */
export function createProcessHost(stopCancelling: () => void = () => {}): ProcessHost {
  const execve = process.execve?.bind(process);
  return {
    longWork: () => Bun.unsafe.setJITPolicy(1),
    pid: process.pid,
    program: ownProgram(),
    platform: process.platform,
    kill: (pid, signal) => {
      process.kill(pid, signal);
    },
    onExit(hook) {
      process.on("exit", hook);
      return () => process.off("exit", hook);
    },
    execve:
      execve !== undefined && process.platform !== "win32"
        ? (program, argv, env, cwd) => {
            if (cwd !== undefined) process.chdir(cwd);
            // Bun leaves SIGPIPE and SIGXFSZ ignored across the exec, as Node-based agents set them anyway.
            execve(program, [...argv], definedOnly(env));
          }
        : undefined,
    handOverSignals(forward) {
      stopCancelling();
      // The terminal sends Ctrl-C to the whole foreground group, the child included: passing it on would send it twice.
      const ignore = () => {};
      process.on("SIGINT", ignore);
      process.on("SIGTERM", forward);
      process.on("SIGHUP", forward);
      return () => {
        process.off("SIGINT", ignore);
        process.off("SIGTERM", forward);
        process.off("SIGHUP", forward);
      };
    },
  };
}

/**
 * The executable and, when it runs a script (`bun cli/index.ts`), the script: a compiled binary's
 * own entry lies in Bun's embedded file system (`/$bunfs/…`), which is not a file to run.
 */
function ownProgram(): { executable: string; script: string | undefined } {
  const script = process.argv[1];
  const isScript = script !== undefined && /^\//.test(script) && !script.startsWith("/$bunfs/") && /\.[cm]?[jt]s$/.test(script);
  return { executable: process.execPath, script: isScript ? script : undefined };
}

function definedOnly(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * What `fd` is, as far as writing to it goes: a character device (a terminal, /dev/null,
 * /dev/full) or a descriptor we cannot look at; a pipe or a socket, which a reader may leave full;
 * or a file.
 */
function outputKind(fd: number): "device" | "pipe" | "file" {
  try {
    const stat = fstatSync(fd);
    if (stat.isCharacterDevice()) return "device";
    return stat.isFIFO() || stat.isSocket() ? "pipe" : "file";
  } catch {
    return "device";
  }
}

/**
 * The writes waiting on one file or pipe, in the order they were asked for. stdout and stderr
 * share one when they are the same file or pipe (`> out 2>&1`): written apart, a short stderr
 * line finished before a long stdout write begun earlier, and landed ahead of it in the file.
 */
interface WriteQueue {
  waiting: number;
  last: Promise<void>;
}

const newQueue = (): WriteQueue => ({ waiting: 0, last: Promise.resolve() });

/** Whether fd 1 and fd 2 are the same file or pipe. */
function sameTarget(): boolean {
  try {
    const [out, err] = [fstatSync(1), fstatSync(2)];
    return out.dev === err.dev && out.ino === err.ino;
  } catch {
    return false;
  }
}

/**
 * fd 1 or 2 as a run's output. A character device gets the runtime's own stream (`stream`),
 * which knows a terminal's width. A pipe, a file or a socket is written without making
 * `process.stdout`: making it loads the runtime's stream modules, ~2 ms of every run's start in
 * the binary. A file with `Bun.write`. A pipe or a socket with the runtime's file sink, which
 * waits for a full pipe in the event loop: `Bun.write` of less than 256 KB to a blocking pipe (a
 * shell's `|`) waits in write(2) on the main thread, where no signal is handled, so a reader that
 * did not read kept SIGTERM from ending the run. Each write starts at once when none is waiting
 * (so a line said right before the process exits is not lost), else after the one before it: the
 * bytes keep their order.
 */
function outputOf(fd: 1 | 2, stream: () => NodeJS.WriteStream, queue: WriteQueue): RunIo["stdout"] {
  // Windows' pipes and consoles are left to the runtime, which knows them.
  const kind = process.platform === "win32" ? "device" : outputKind(fd);
  if (kind === "device") return stream();
  const target = fd === 1 ? Bun.stdout : Bun.stderr;
  const sink = kind === "pipe" ? target.writer() : undefined;
  const written = async (text: string): Promise<void> => {
    if (sink === undefined) {
      await Bun.write(target, text);
      return;
    }
    // A write the pipe could not take whole comes back as a promise: its failure (EPIPE) is there.
    const pending: unknown = sink.write(text);
    if (pending instanceof Promise) await pending;
    await sink.flush();
  };
  const send = (text: string, done: (error?: Error | null) => void): Promise<void> =>
    written(text).then(
      () => done(),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  return {
    isTTY: false,
    write(text, done) {
      queue.waiting++;
      const sent = queue.waiting === 1 ? send(text, done) : queue.last.then(() => send(text, done));
      queue.last = sent.finally(() => {
        queue.waiting--;
      });
      return true;
    },
  };
}

/** stdout and stderr, with one queue of writes when they are the same file or pipe. */
function outputs(): Pick<RunIo, "stdout" | "stderr"> {
  const queue = newQueue();
  return {
    stdout: outputOf(1, () => process.stdout, queue),
    stderr: outputOf(2, () => process.stderr, sameTarget() ? queue : newQueue()),
  };
}

/** The binary's process: its host, its io, and the run its signals go to. */
export interface ProcessWiring {
  host: ProcessHost;
  io: () => RunIo;
  /** From now on, signals cancel `run` (see Cancellation.interrupt). */
  attach(run: Run): void;
  /** The run in progress, for the last resort's message; undefined before it exists. */
  current(): Run | undefined;
}

/**
 * Turns the cancel signals into a clean exit 130 from now on: before a run exists, at once with
 * the command's message; then through the run's own cancellation. `argv` names the command.
 */
export function wireProcess(argv: readonly string[]): ProcessWiring {
  Bun.unsafe.setJITPolicy(JIT_POLICY_AT_START);
  const attached: { run?: Run } = {};
  const onSignal = (): void => {
    if (attached.run !== undefined) {
      attached.run.cancel.interrupt();
      return;
    }
    try {
      process.stderr.write(`${cancelledMessage(argv)}\n`);
    } catch {
      // Nobody is listening.
    }
    process.exit(CANCELLED_EXIT);
  };
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal);
  const host: ProcessHost = {
    ...createProcessHost(() => {
      for (const signal of CANCEL_SIGNALS) process.off(signal, onSignal);
    }),
    exitNow: (code) => process.exit(code),
  };
  return {
    host,
    io: () => ({
      env: process.env,
      cwd: currentFolder(),
      // Read when asked: making `process.stdin` loads the runtime's stream modules, which a run that never reads stdin does not need.
      stdin: {
        fd: 0,
        get isTTY() {
          return process.stdin.isTTY;
        },
      },
      get prompt() {
        return { input: process.stdin, output: process.stderr };
      },
      ...outputs(),
      host,
      stdoutClosedAtStart: startedWithStdoutClosed(),
    }),
    attach(run) {
      attached.run = run;
    },
    current: () => attached.run,
  };
}
