/**
 * SIGINT, SIGTERM and SIGHUP at every moment a run can be in, not only during the model call:
 * while a large session loads, while the offline engine computes (synchronous work that never
 * yields), during a dry run, in inspect, and after the files are written while stdout is stuck.
 * Always exit 130; nothing written unless the files were complete, and then the line names them.
 * The moments are found by watching the process (its open files, the files it wrote), not by
 * sleeping. Linux only: /proc tells what the process has open.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, splitPlanLine } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { assistant, chain, text, user } from "../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const onLinux = process.platform === "linux";

/**
 * A session large enough (~8 MB) that loading it and writing its offline document take a while
 * (half a second or more). The text is in the answers, the requests are short: the offline
 * engine reads every request sentence by sentence, and with the same filler in them too a dry run
 * that is not cancelled until its document is done (it computes without yielding) took 2.3 s of
 * CPU, six times a run; this way 0.7 s, the reading as long.
 */
let bigSession = "";
let bigDir = "";
beforeAll(() => {
  bigDir = mkdtempSync(join(tmpdir(), "agent-signals-"));
  const filler = "lorem ipsum dolor sit amet ".repeat(110);
  const entries = Array.from({ length: 4500 }, (_, i) =>
    i % 2 === 0 ? user(i, `step ${i}: go on`) : assistant(i, [text(`done ${i}: ${filler}`)]),
  );
  bigSession = join(bigDir, "big.jsonl");
  writeFileSync(bigSession, chain(entries));
});
afterAll(() => rmSync(bigDir, { recursive: true, force: true }));

/** Whether process `pid` has `path` open. */
function hasOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await Bun.sleep(2);
}

type Moment = "the session is being read" | "the document is being computed";

/** Starts `args`, waits for `moment`, sends `signal`, and returns how the run ended. */
async function interrupt(args: string[], src: string, moment: Moment, signal: NodeJS.Signals) {
  const proc = Bun.spawn([...CLI_ARGV, ...args], {
    env: cleanEnv(sandbox.home),
    cwd: REPO,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  await until(() => hasOpen(proc.pid, src));
  if (moment === "the document is being computed") {
    await until(() => !hasOpen(proc.pid, src));
    // Past the turn right after loading: well inside a computation that takes half a second or more.
    await Bun.sleep(150);
  }
  proc.kill(signal);
  const [stdout, rawStderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  // The plan line a sending run starts with is the plan tests' (fixtures/run-agent.ts).
  const { stderr } = splitPlanLine(rawStderr);
  return { stdout, stderr, code };
}

const MOMENTS: Moment[] = ["the session is being read", "the document is being computed"];
const CASES = SIGNALS.flatMap((signal) => MOMENTS.map((moment) => [signal, moment] as const));

describe.skipIf(!onLinux)("a signal before anything is written: exit 130, the command's message, nothing written", () => {
  test.each(CASES)("handoff (offline), %s while %s", async (signal, moment) => {
    const src = sandbox.source(bigSession);
    const original = readFileSync(src);
    const run = await interrupt(["handoff", src, "--engine", "offline"], src, moment, signal);
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 130, stderr: "Handoff cancelled\n", stdout: "" });
    sandbox.expectNothingWritten(src, original);
  });

  test.each(CASES)("handoff --dry-run, %s while %s", async (signal, moment) => {
    const src = sandbox.source(bigSession);
    const run = await interrupt(["handoff", src, "--engine", "offline", "--dry-run"], src, moment, signal);
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 130, stderr: "Handoff cancelled\n", stdout: "" });
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });

  test.each(SIGNALS)("inspect, %s while the session is being read", async (signal) => {
    const src = sandbox.source(bigSession);
    const run = await interrupt(["inspect", src], src, "the session is being read", signal);
    expect({ code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({ code: 130, stderr: "Cancelled\n", stdout: "" });
  });
});

describe.skipIf(!onLinux)("a signal after the files are written (stdout stuck): exit 130, the line names them", () => {
  test.each(SIGNALS)("%s", async (signal) => {
    // A document far larger than a pipe holds, and a reader that does not read: printing blocks.
    const document = `${CANNED_DOCUMENT}\n4. ${"Keep going. ".repeat(100_000)}`;
    const s = sandbox.serve(() => ({ text: document }));
    const src = sandbox.source();
    const before = readFileSync(src, "utf8");
    const out = join(sandbox.dir, "new.jsonl");
    // stdout is a pipe nobody reads, so the run waits there once the pipe is full.
    const fifo = join(sandbox.home, "stdout.fifo");
    Bun.spawnSync(["mkfifo", fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    const proc = Bun.spawn([...CLI_ARGV, "handoff", src, "-o", out], {
      env: sandbox.env(s.url),
      cwd: REPO,
      stdin: "ignore",
      stdout: writer,
      stderr: "pipe",
    });
    closeSync(writer);
    await until(() => existsSync(out) && readFileSync(src, "utf8").length > before.length);
    await Bun.sleep(100);
    proc.kill(signal);
    const [rawStderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    const { stderr } = splitPlanLine(rawStderr);
    closeSync(reader);
    expect(code).toBe(130);
    expect(stderr).toBe(`interrupted; already written: ${out} (the new session), ${src} (the handoff recorded)\n`);
    // Both files are whole.
    expect(JSON.parse(readFileSync(out, "utf8").split("\n")[1] ?? "").content).toContain("Keep going.");
    // The instruction, the answer and the model entry.
    expect(readFileSync(src, "utf8").slice(before.length).trimEnd().split("\n")).toHaveLength(3);
  });
});

/** A pipe that nobody reads, as the run's stdout: what is written stays there once it is full. */
function stuckPipe(): { writer: number; started: () => boolean; close: () => void } {
  const fifo = join(sandbox.home, `stdout-${Math.random().toString(36).slice(2)}.fifo`);
  Bun.spawnSync(["mkfifo", fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  return {
    writer,
    // One byte taken: the run has begun printing (and, far past what the pipe holds, waits there).
    started: () => {
      try {
        return readSync(reader, Buffer.alloc(1)) === 1;
      } catch {
        return false;
      }
    },
    close: () => closeSync(reader),
  };
}

describe.skipIf(!onLinux)("a signal while printing waits on a stuck stdout, nothing written yet: exit 130 at once", () => {
  test.each(SIGNALS)("handoff --dry-run (the request, far more than a pipe holds), %s", async (signal) => {
    const filler = "a line of the session that goes on ".repeat(30);
    const src = join(sandbox.dir, "long.jsonl");
    writeFileSync(src, chain(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? user(i, `step ${i}`) : assistant(i, [text(filler)])))));
    const pipe = stuckPipe();
    const proc = Bun.spawn(
      [...CLI_ARGV, "handoff", src, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1", "-m", "x"],
      {
        env: cleanEnv(sandbox.home),
        cwd: REPO,
        stdin: "ignore",
        stdout: pipe.writer,
        stderr: "pipe",
      },
    );
    closeSync(pipe.writer);
    await until(pipe.started);
    proc.kill(signal);
    // A run that does not end is ended here, so that the test fails instead of hanging.
    const stuck = setTimeout(() => proc.kill("SIGKILL"), 3000);
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(stuck);
    pipe.close();
    expect({ code, stderr }).toEqual({ code: 130, stderr: "Handoff cancelled\n" });
  });
});
