import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent } from "../../fixtures/run-agent.ts";

/**
 * How tool calls ended, as a user sees it: `inspect --json` and the offline handoff document
 * (its body and its Session Facts) on the Codex and Claude Code fixtures built for it
 * (fixtures/sessions/*\/generate.ts: execOutcomes, outcomes). Real processes, explicit env.
 */
const REPO = join(import.meta.dir, "../..");
const scratch = mkdtempSync(join(tmpdir(), "agent-outcomes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(args: readonly string[]) {
  const result = await runAgent([...args], { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch, NO_COLOR: "1" }, REPO);
  return { exitCode: result.code, stdout: result.stdout, stderr: result.stderr };
}

async function inspect(file: string): Promise<Record<string, unknown>> {
  const result = await run(["inspect", file, "--json"]);
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout);
}

async function offlineDocument(file: string, name: string): Promise<string> {
  const result = await run(["handoff", file, "--engine", "offline", "--no-record", "-o", join(scratch, `${name}.jsonl`), "-q"]);
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

/** The lines of one `- Heading (n):` list in Session Facts. */
function factsList(document: string, heading: string): string[] {
  const facts = document.slice(document.indexOf("## Session Facts"));
  const at = facts.indexOf(`- ${heading}`);
  if (at === -1) return [];
  const lines = facts.slice(at).split("\n").slice(1);
  return lines
    .slice(
      0,
      lines.findIndex((line) => !line.startsWith("  - ")),
    )
    .map((line) => line.slice(4));
}

describe("Codex: what its tool results state (fixtures/sessions/codex/exec-outcomes.jsonl)", () => {
  const file = "fixtures/sessions/codex/exec-outcomes.jsonl";

  test("inspect --json: codes from polls and shortened outputs, none without a statement, no declined command, the patches' files", async () => {
    const facts = await inspect(file);
    expect(facts.commands).toEqual([
      { command: "npm run test:slow", exitCode: 1, by: "tool", failed: true }, // "Process running…", then the poll's "Process exited with code 1"
      { command: "npm run lint", exitCode: 2, by: "tool", failed: true }, // "Total output lines: 250" before the header
      { command: "make watch", exitCode: null, by: "tool", failed: false }, // a header without a code
      { command: "rm lib/new.ts", exitCode: 0, by: "tool", failed: false }, // in workdir packages/api; `rm -rf build` was declined
    ]);
    // The failed patch (bad/…) is nowhere; the moved files' old names are deleted; paths lie in the workdir.
    expect(facts.filesModified).toEqual(["src/new.ts", "src/moved.ts", "packages/api/lib/moved.ts"]);
    expect(facts.filesDeleted).toEqual([
      "src/old.ts",
      "src/gone.ts",
      "packages/api/lib/new.ts",
      "packages/api/lib/old.ts",
      "packages/api/lib/gone.ts",
    ]);
  });

  test("handoff --engine offline: the body and Session Facts say the same; the tail quotes the calls with how each ended", async () => {
    const [document = "", tail = ""] = (await offlineDocument(file, "codex")).split("\n## Last Exchanges\n");
    expect(factsList(document, "Commands run (4; 2 failed):")).toEqual([
      "`npm run test:slow` — exit 1, failed",
      "`npm run lint` — exit 2, failed",
      "`make watch` — no exit code recorded (cancelled, still running, or no result)",
      "`rm lib/new.ts` — exit 0",
    ]);
    expect(document).toContain("- Commands: 4 run, 2 failed (Session Facts lists them)");
    expect(document).toContain("- Latest result of each check: `npm run test:slow` (exit 1, failed); `npm run lint` (exit 2, failed)");
    // What failed is quoted from the output, not from Codex's header.
    expect(document).toContain("`npm run test:slow` → exit 1, failed: `FAIL test/slow.test.ts`");
    expect(document).not.toContain("Process exited");
    expect(factsList(document, "Files modified (3):")).toEqual(["`src/new.ts`", "`src/moved.ts`", "`packages/api/lib/moved.ts`"]);
    expect(document).toContain("- Files modified, most recent last: `src/new.ts`, `src/moved.ts`, `packages/api/lib/moved.ts`");
    expect(document).not.toContain("bad/");
    expect(document).not.toContain("rm -rf build");
    expect(document).not.toContain("*** Begin Patch");
    // The verbatim tail shows what was asked and how it went: the patch that failed, the command the user refused.
    expect(tail).toContain("**Result** (`bad/new.ts`, `bad/moved.ts`, `bad/old.ts`, `bad/gone.ts`: failed):");
    expect(tail).toContain("**Result** (`rm -rf build`: refused: it never ran):");
    expect(tail).not.toContain("*** Begin Patch");
  });
});

describe("Claude Code: calls that never ran or took no effect (fixtures/sessions/claude-code/outcomes.jsonl)", () => {
  const file = "fixtures/sessions/claude-code/outcomes.jsonl";

  test("inspect --json: a printed 'Exit code 5' is exit 0; denied and rejected commands are no runs; failed edits and reads count nothing", async () => {
    const facts = await inspect(file);
    expect(facts.commands).toEqual([
      { command: "echo 'Exit code 5'", exitCode: 0, by: "tool", failed: false },
      { command: "npm test", exitCode: 1, by: "tool", failed: true },
    ]);
    expect({ read: facts.filesRead, modified: facts.filesModified, deleted: facts.filesDeleted }).toEqual({
      read: ["src/cart.ts"],
      modified: ["src/cart.ts"],
      deleted: [],
    });
  });

  test("handoff --engine offline: the body and Session Facts say the same; the tail says which calls never ran", async () => {
    const [document = "", tail = ""] = (await offlineDocument(file, "claude-code")).split("\n## Last Exchanges\n");
    expect(factsList(document, "Commands run (2; 1 failed):")).toEqual(["`echo 'Exit code 5'` — exit 0", "`npm test` — exit 1, failed"]);
    expect(document).toContain("- Commands: 2 run, 1 failed (Session Facts lists them)");
    expect(document).toContain("`npm test` → exit 1, failed: `2 fail`");
    expect(factsList(document, "Files modified (1):")).toEqual(["`src/cart.ts`"]);
    for (const never of ["/etc/hosts", "missing.ts", "rm -rf /tmp/cache", "git push --force"]) expect(document).not.toContain(never);
    expect(tail).toContain("**Result** (`rm -rf /tmp/cache`: refused: it never ran):");
    expect(tail).toContain("**Result** (`git push --force`: refused: it never ran):");
    expect(tail).toContain("**Result** (`/etc/hosts`: failed: no effect):");
    expect(tail).toContain("**Result** (`echo 'Exit code 5'`: exit 0):");
  });
});
