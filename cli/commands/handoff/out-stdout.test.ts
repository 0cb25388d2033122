/** `-o -`: the new session is the product on stdout; the document reaches stderr only with -v. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";
import { CLI_ARGV } from "../../../fixtures/built-cli.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");
/** Far larger than a pipe's buffer, so a reader that stops early makes the write fail (EPIPE). */
const LONG_DOCUMENT = `${CANNED_DOCUMENT}\n\n${"A long paragraph of context. ".repeat(10_000)}`;

/** Runs the CLI through bash, so redirections are the shell's own; `$SRC` is the session. */
async function viaShell(shell: string, args: string[], env: Record<string, string>) {
  const proc = Bun.spawn(["bash", "-c", shell, "agent", ...CLI_ARGV, ...args], {
    env,
    cwd: sandbox.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

function parseLines(text: string): Record<string, unknown>[] {
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("-o - writes the new session to stdout", () => {
  test("with a model: stdout is the session file's bytes, the document stays off stderr, the source records the handoff, no file is created", async () => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const src = sandbox.source(EXAMPLE);
    const before = readFileSync(src, "utf8");
    const run = await runAgent(["handoff", src, "-o", "-"], sandbox.env(s.url), sandbox.dir);
    expect(run.code).toBe(0);
    const [header, handoff] = parseLines(run.stdout);
    expect(header).toMatchObject({ type: "session", version: 3, parentSession: src });
    expect(handoff).toMatchObject({ type: "custom_message", customType: "handoff" });
    expect(String(handoff?.content)).toContain(`<handoff-context>\n${CANNED_DOCUMENT}`);
    expect(run.stderr).not.toContain("## Goal");
    expect(run.stderr).toContain("New session started with handoff context: written to stdout");
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
    const recorded = readFileSync(src, "utf8");
    expect(recorded.startsWith(before)).toBe(true);
    expect(recorded.slice(before.length)).toContain("## Goal");
  });

  test("-v adds the document on stderr; stdout is still only the session", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runAgent(["handoff", src, "-o", "-", "--engine", "offline", "-v"], cleanEnv(sandbox.home), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("## Goal");
    expect(run.stderr).toContain("## Next Steps");
    expect(parseLines(run.stdout)[0]).toMatchObject({ type: "session" });
  });

  test("the same session bytes a file would hold (--no-record, offline: same input, same document)", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runAgent(["handoff", src, "-o", "-", "--engine", "offline", "--no-record"], cleanEnv(sandbox.home), sandbox.dir);
    const file = await runAgent(
      ["handoff", src, "-o", join(sandbox.dir, "new.jsonl"), "--engine", "offline", "--no-record"],
      cleanEnv(sandbox.home),
      sandbox.dir,
    );
    expect([run.code, file.code]).toEqual([0, 0]);
    // Ids and times differ run to run; everything else is the same.
    const strip = (line: Record<string, unknown>) => ({
      ...line,
      id: 0,
      timestamp: 0,
      parentId: line.parentId === null ? null : 0,
      ...(typeof line.message === "object" && line.message !== null ? { message: { ...line.message, timestamp: 0 } } : {}),
    });
    expect(parseLines(run.stdout).map(strip)).toEqual(parseLines(readFileSync(join(sandbox.dir, "new.jsonl"), "utf8")).map(strip));
  });

  test("- -o -: stdin in, the session out, nothing recorded, nothing created", async () => {
    const src = sandbox.source(EXAMPLE);
    const original = readFileSync(src);
    const run = await viaShell('"$@" - -o - < "$SRC"', ["handoff", "--engine", "offline"], cleanEnv(sandbox.home, { SRC: src }));
    expect(run.code).toBe(0);
    const [header] = parseLines(run.stdout);
    expect(header).toMatchObject({ type: "session" });
    expect(header).not.toHaveProperty("parentSession");
    sandbox.expectNothingWritten(src, original);
  });

  test("the handoff is recorded before the session is printed: with stdout full, the run says the source already holds it", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await viaShell('"$@" >/dev/full', ["handoff", src, "-o", "-", "--engine", "offline"], cleanEnv(sandbox.home));
    expect(run.code).toBe(1);
    expect(run.stderr).toEndWith(
      `error: could not print on stdout (no space left on the device); already written: ${src} (the handoff recorded)\n`,
    );
    expect(readFileSync(src, "utf8")).toContain("## Goal");
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });

  // The spec keeps exit 0 for a closed pipe; the last line must not claim the session arrived.
  test.each([
    [
      "a reader that takes it all (| wc -c)",
      '"$@" | wc -c >/dev/null; exit "${PIPESTATUS[0]}"',
      "New session started with handoff context: written to stdout",
      "not written whole",
    ],
    [
      "a reader that stops early (| head -c 10)",
      '"$@" | head -c 10 >/dev/null; exit "${PIPESTATUS[0]}"',
      "warning: the new session was not written whole to stdout: the reader closed it",
      "New session started",
    ],
  ])("%s: exit 0, and stderr says whether the session arrived whole", async (_, shell, last, never) => {
    const s = sandbox.serve(() => ({ text: LONG_DOCUMENT }));
    const src = sandbox.source(EXAMPLE);
    const run = await viaShell(shell, ["handoff", src, "-o", "-"], sandbox.env(s.url));
    expect(run.code).toBe(0);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines.at(-1)).toBe(last);
    expect(run.stderr).not.toContain(never);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
  });

  test.each<[string, string[], string]>([
    ["--json wants stdout too", ["--json"], "-o - puts the new session on stdout, where --json would put its object; use one of them"],
    [
      "--out=- is the same",
      ["--json", "--out=-"],
      "-o - puts the new session on stdout, where --json would put its object; use one of them",
    ],
  ])("%s: exit 2, nothing written", async (_, extra, message) => {
    const src = sandbox.source(EXAMPLE);
    const original = readFileSync(src);
    const args = ["handoff", src, "--engine", "offline", ...extra];
    const run = await runAgent(extra.includes("--out=-") ? args : [...args, "-o", "-"], cleanEnv(sandbox.home), sandbox.dir);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `error: ${message} (see agent handoff --help)\n` });
    sandbox.expectNothingWritten(src, original);
  });

  test("./- is a file named -, not stdout", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runAgent(["handoff", src, "-o", "./-", "--engine", "offline", "--no-record"], cleanEnv(sandbox.home), sandbox.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("## Goal");
    expect(readdirSync(sandbox.dir).sort()).toEqual(["-", "source.jsonl"]);
  });
});
