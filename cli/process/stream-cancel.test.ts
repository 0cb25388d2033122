/**
 * A session stream that keeps us waiting (a named pipe nobody writes to, a writer gone quiet, an
 * idle stdin pipe) is cancelled by SIGINT, SIGTERM or SIGHUP like every other moment of a run:
 * exit 130, the command's one cancel line, nothing on stdout, nothing written. Linux only: /proc
 * tells when the process listens for the signal and when it reads the pipe.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const onLinux = process.platform === "linux";
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

let dir: string;
let home: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-stream-cancel-"));
  home = mkdtempSync(join(tmpdir(), "agent-home-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** Whether process `pid` has a handler for `signal` (bit n-1 of SigCgt in /proc/<pid>/status). */
function catches(pid: number, signal: NodeJS.Signals): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "0";
    return (BigInt(`0x${mask}`) >> BigInt((SIGNAL_NUMBERS[signal] ?? 0) - 1)) % 2n === 1n;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2500 && !condition(); i++) await Bun.sleep(4);
}

/** The commands, each with the one line its cancel prints; `OUT` stands for a path in the test's folder. */
const COMMANDS: { name: string; args: string[]; line: string }[] = [
  { name: "inspect", args: ["inspect"], line: "Cancelled" },
  { name: "handoff", args: ["handoff", "--engine", "offline", "--no-record", "-o", "OUT"], line: "Handoff cancelled" },
  { name: "handoff --dry-run", args: ["handoff", "--engine", "offline", "--dry-run"], line: "Handoff cancelled" },
];

/** How the session arrives, and how the test knows the run is waiting on it. */
const INPUTS: {
  name: string;
  setUp: () => { source: string; stdin: "pipe" | "ignore"; ready: (pid: number) => boolean; done: () => void };
}[] = [
  {
    name: "a named pipe with no writer",
    setUp: () => {
      const source = join(dir, "fifo.jsonl");
      Bun.spawnSync(["mkfifo", source]);
      return { source, stdin: "ignore", ready: () => true, done: () => undefined };
    },
  },
  {
    name: "a named pipe whose writer is idle",
    setUp: () => {
      const source = join(dir, "fifo.jsonl");
      Bun.spawnSync(["mkfifo", source]);
      let writer: number | undefined;
      // Opening the writing end without blocking succeeds only once the run has the reading end open.
      const ready = () => {
        try {
          writer ??= openSync(source, constants.O_WRONLY | constants.O_NONBLOCK);
          return true;
        } catch {
          return false;
        }
      };
      return { source, stdin: "ignore", ready, done: () => writer !== undefined && closeSync(writer) };
    },
  },
  {
    name: "stdin, a pipe nobody writes to",
    setUp: () => ({ source: "-", stdin: "pipe", ready: () => true, done: () => undefined }),
  },
];

describe.skipIf(!onLinux)("a session stream that keeps the run waiting is cancelled: exit 130, one line, nothing written", () => {
  for (const input of INPUTS)
    for (const command of COMMANDS)
      test.each(SIGNALS)(
        `${input.name}, ${command.name}, %s`,
        async (signal) => {
          const { source, stdin, ready, done } = input.setUp();
          const args = command.args.map((arg) => (arg === "OUT" ? join(dir, "new.jsonl") : arg));
          const proc = Bun.spawn([...CLI_ARGV, ...args, source], {
            env: cleanEnv(home),
            cwd: dir,
            stdin,
            stdout: "pipe",
            stderr: "pipe",
          });
          try {
            await until(() => catches(proc.pid, signal) && ready(proc.pid));
            // Past start-up: the run is in its wait for the stream.
            await Bun.sleep(300);
            proc.kill(signal);
            const ended = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
            if (!ended) proc.kill("SIGKILL");
            expect(ended).toBe(true);
            const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
            expect({ code: proc.exitCode, stdout, stderr }).toEqual({ code: 130, stdout: "", stderr: `${command.line}\n` });
            expect(readdirSync(dir).filter((f) => f !== "fifo.jsonl")).toEqual([]);
          } finally {
            done();
            if (proc.exitCode === null) proc.kill("SIGKILL");
          }
        },
        30_000,
      );
});
