/**
 * The binary's stdout and stderr when they are pipes or files (written without the runtime's
 * stream, cli/process/host.ts): what a run prints arrives whole and in order, however late the
 * reader reads, and is the same as what the run prints in-process.
 */
import { describe, expect, test } from "bun:test";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { REPO, runAgent, splitPlanLine } from "../../fixtures/run-agent.ts";
import { assistant, chain, text, user } from "../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** A dry run prints the request (far more than a pipe holds) on stdout and its plan, line by line, on stderr. */
const ARGS = (src: string) => ["handoff", src, "--dry-run", "-m", "fake-model", "-v"];

describe("stdout and stderr as pipes or files: whole, in order, as in-process", () => {
  test.each(["pipes read at once", "pipes read late", "files"] as const)("%s", async (how) => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const src = join(sandbox.dir, "long.jsonl");
    const filler = "a line of the session that goes on ".repeat(30);
    writeFileSync(src, chain(Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? user(i, `step ${i}`) : assistant(i, [text(filler)])))));
    const env = sandbox.env(s.url);
    const expected = await runAgent(ARGS(src), env, REPO);
    expect(expected.code).toBe(0);
    expect(expected.stdout.length).toBeGreaterThan(200_000);

    let stdout: string;
    let stderr: string;
    let code: number;
    if (how === "files") {
      const [out, err] = [join(sandbox.dir, "stdout.txt"), join(sandbox.dir, "stderr.txt")];
      const fds = [openSync(out, "w"), openSync(err, "w")] as const;
      const proc = Bun.spawn([...CLI_ARGV, ...ARGS(src)], { env, cwd: REPO, stdin: "ignore", stdout: fds[0], stderr: fds[1] });
      code = await proc.exited;
      for (const fd of fds) closeSync(fd);
      [stdout, stderr] = [readFileSync(out, "utf8"), readFileSync(err, "utf8")];
    } else {
      const proc = Bun.spawn([...CLI_ARGV, ...ARGS(src)], { env, cwd: REPO, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      // Read late: the run's writes wait on full pipes meanwhile.
      if (how === "pipes read late") await Bun.sleep(300);
      [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    }
    // The plan line is split off in-process (fixtures/run-agent.ts): the same here.
    const split = splitPlanLine(stderr);
    expect({ code, stdout, stderr: split.stderr, plan: split.plan }).toEqual({
      code: 0,
      stdout: expected.stdout,
      stderr: expected.stderr,
      plan: expected.plan,
    });
  });
});

/** Many writes, together far more than a pipe holds, through the binary's own output (host.ts) to a reader that reads late. */
const MANY_WRITES = `
const { wireProcess } = await import(process.argv[1]);
const out = wireProcess(["test"]).io()[process.argv[2]];
const line = (i) => \`\${String(i).padStart(2, "0")}:\${"x".repeat(20_000)}\\n\`;
const results = await Promise.all(Array.from({ length: 40 }, (_, i) => new Promise((resolve) => out.write(line(i), resolve))));
if (results.some((error) => error)) throw new Error("a write failed");
`;

test.each(["stdout", "stderr"])("writes that wait on a full pipe (%s) arrive whole and in order", async (which) => {
  const proc = Bun.spawn([process.execPath, "-e", MANY_WRITES, join(REPO, "cli", "process", "host.ts"), which], {
    cwd: REPO,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  await Bun.sleep(200);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const lines = (which === "stdout" ? stdout : stderr).split("\n").slice(0, -1);
  expect(code).toBe(0);
  expect(lines.map((line) => line.slice(0, 3))).toEqual(Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, "0")}:`));
  expect(lines.every((line) => line.length === 20_003)).toBe(true);
});

/** Large writes on stdout and short lines on stderr, alternating, through the binary's own output (host.ts). */
const BOTH_STREAMS = `
const { wireProcess } = await import(process.argv[1]);
const io = wireProcess(["test"]).io();
const line = (i) => i % 2 === 0 ? \`\${String(i).padStart(2, "0")}:\${"o".repeat(100_000)}\\n\` : \`\${String(i).padStart(2, "0")}:e\\n\`;
const results = await Promise.all(Array.from({ length: 20 }, (_, i) => new Promise((resolve) => (i % 2 === 0 ? io.stdout : io.stderr).write(line(i), resolve))));
if (results.some((error) => error)) throw new Error("a write failed");
`;

describe("stdout and stderr the same file or pipe (> out 2>&1, 2>&1 | less): every line whole, in the order written", () => {
  test.each(["a file", "a pipe read late"] as const)("%s", async (how) => {
    const script = [process.execPath, "-e", BOTH_STREAMS, join(REPO, "cli", "process", "host.ts")];
    let text: string;
    let code: number;
    if (how === "a file") {
      const path = join(sandbox.dir, "both.txt");
      const fd = openSync(path, "w");
      code = await Bun.spawn(script, { cwd: REPO, stdin: "ignore", stdout: fd, stderr: fd }).exited;
      closeSync(fd);
      text = readFileSync(path, "utf8");
    } else {
      const proc = Bun.spawn(["sh", "-c", '"$@" 2>&1', "sh", ...script], { cwd: REPO, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
      await Bun.sleep(200);
      [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    }
    const lines = text.split("\n").slice(0, -1);
    expect(code).toBe(0);
    expect(lines.map((line) => `${line.slice(0, 3)}${line.length}`)).toEqual(
      Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, "0")}:${i % 2 === 0 ? 100_003 : 4}`),
    );
  });
});
