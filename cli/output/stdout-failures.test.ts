import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { cleanEnv, REPO } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");
/** Far larger than a pipe's buffer, so a reader that stops early makes the write fail. */
const LONG_DOCUMENT = `${CANNED_DOCUMENT}\n\n${"A long paragraph of context. ".repeat(10_000)}`;

/** How stdout is broken, as a shell would break it: bash runs the CLI with the redirection. */
const FAILURES = {
  "a reader that stops early (| head -c 10)": { shell: '"$@" | head -c 10 >/dev/null; exit "${PIPESTATUS[0]}"', reason: undefined },
  "a full device (>/dev/full)": { shell: '"$@" >/dev/full', reason: "no space left on the device" },
  "a closed descriptor (>&-)": { shell: '"$@" >&-', reason: "stdout is closed" },
} as const;

async function runBroken(shell: string, args: string[], env: Record<string, string>) {
  const proc = Bun.spawn(["bash", "-c", shell, "agent", ...CLI_ARGV, ...args], {
    env,
    cwd: REPO,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return { stderr, code };
}

describe("stdout fails after the files are written", () => {
  for (const [name, failure] of Object.entries(FAILURES)) {
    for (const json of [false, true]) {
      test(`${name}${json ? ", --json" : ""}: ${failure.reason ? "exit 1, one line naming the files" : "exit 0, quietly"}; the files stay written`, async () => {
        const s = sandbox.serve(() => ({ text: LONG_DOCUMENT }));
        const src = sandbox.source(EXAMPLE);
        const run = await runBroken(failure.shell, ["handoff", src, ...(json ? ["--json"] : [])], sandbox.env(s.url));
        const created = readdirSync(sandbox.dir).filter((f) => f !== "source.jsonl");
        expect(created).toHaveLength(1);
        const sessionFile = join(sandbox.dir, created[0] ?? "");
        expect(readFileSync(sessionFile, "utf8")).toContain("A long paragraph of context.");
        expect(readFileSync(src, "utf8")).toContain("A long paragraph of context.");
        expect(run.stderr).not.toMatch(/^\s+at /m);
        expect(run.stderr).not.toContain("internal error");
        const errors = run.stderr.split("\n").filter((line) => line.startsWith("error:"));
        if (failure.reason === undefined) {
          expect(run.code).toBe(0);
          expect(errors).toEqual([]);
          expect(run.stderr).toContain(`New session started with handoff context: ${sessionFile}`);
        } else {
          expect(run.code).toBe(1);
          expect(errors).toEqual([
            `error: could not print on stdout (${failure.reason}); already written: ${sessionFile} (the new session), ${src} (the handoff recorded)`,
          ]);
          expect(run.stderr).not.toContain("New session started");
        }
      });
    }
  }

  test("with --no-record, only the new session is named", async () => {
    const src = sandbox.source(EXAMPLE);
    const run = await runBroken(
      FAILURES["a full device (>/dev/full)"].shell,
      ["handoff", src, "--engine", "offline", "--no-record"],
      cleanEnv(sandbox.home),
    );
    const created = readdirSync(sandbox.dir).filter((f) => f !== "source.jsonl");
    expect(run.code).toBe(1);
    expect(run.stderr).toEndWith(
      `error: could not print on stdout (no space left on the device); already written: ${join(sandbox.dir, created[0] ?? "")} (the new session)\n`,
    );
  });
});

describe("stdout fails for a command that writes nothing", () => {
  const commands: [string, (src: string) => string[]][] = [
    ["inspect", (src) => ["inspect", src]],
    ["inspect --json", (src) => ["inspect", src, "--json"]],
    ["handoff --dry-run, offline", (src) => ["handoff", src, "--dry-run", "--engine", "offline"]],
    ["handoff --dry-run, llm", (src) => ["handoff", src, "--dry-run", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1"]],
    ["--help", () => ["--help"]],
    ["handoff --help", () => ["handoff", "--help"]],
    ["--version", () => ["--version"]],
  ];
  for (const [label, args] of commands) {
    test.each([
      ["a full device: exit 1", '"$@" >/dev/full', 1, "error: could not print on stdout (no space left on the device)\n"],
      ["a closed descriptor: exit 1", '"$@" >&-', 1, "error: could not print on stdout (stdout is closed)\n"],
      ["a reader that is gone: exit 0", '"$@" | true; exit "${PIPESTATUS[0]}"', 0, ""],
    ])(`${label}, %s`, async (_, shell, code, stderr) => {
      const src = sandbox.source(EXAMPLE);
      const original = readFileSync(src);
      const run = await runBroken(shell, args(src), cleanEnv(sandbox.home));
      expect(run.code).toBe(code);
      // The offline engine's notice and the dry run's summary are fine; the error is the last line, and the only one.
      expect(run.stderr.endsWith(stderr)).toBe(true);
      expect(run.stderr.split("\n").filter((line) => line.startsWith("error:"))).toHaveLength(stderr === "" ? 0 : 1);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      sandbox.expectNothingWritten(src, original);
    });
  }
});
