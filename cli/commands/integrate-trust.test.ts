import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { integrate, integrateHomes } from "./integrate.testing.ts";

/**
 * Codex trusts each hook by a hash of its command ("Hooks need review"): after every `integrate
 * codex` that adds a hook of ours or changes its command, the output says Codex will ask, and for
 * which hook; when nothing of ours changed, it says nothing of trust.
 */

const { freshHome } = integrateHomes("integrate-trust");

const NEW_HOOK =
  'Codex asks once, at its next start, to trust the new hook ("Hooks need review"): choose to trust it, or $handoff reaches the model instead.';
const NEW_STOP =
  'Codex asks once, at its next start, to trust the new Stop hook of the offer ("Hooks need review"): choose to trust it, or the offer is not shown.';
const CHANGED_HOOK =
  'Codex asks again, at its next start, to trust the hook, whose command changed ("Hooks need review"): choose to trust it, or $handoff reaches the model instead.';
const CHANGED_STOP =
  'Codex asks again, at its next start, to trust the Stop hook of the offer, whose command changed ("Hooks need review"): choose to trust it, or the offer is not shown.';

/** One `integrate codex …` after another in the same home, and the trust lines each prints. */
const STEPS: [string[], string[]][] = [
  [[], [NEW_HOOK]],
  [[], []],
  [["--offer", "80"], [NEW_STOP]],
  [["--offer", "80"], []],
  [["--offer", "90"], [CHANGED_STOP]],
  [[], []],
  [["--offer", "70"], [NEW_STOP]],
];

const trustLines = (stdout: string) =>
  stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("Codex asks"));

describe("agent integrate codex: says when Codex will ask to trust a hook again", () => {
  test("a sequence of installs in one home", async () => {
    const { env } = freshHome();
    for (const [at, [args, expected]] of STEPS.entries()) {
      const run = await integrate(["codex", ...args], env);
      expect(run.code).toBe(0);
      expect({ step: at + 1, args, lines: trustLines(run.stdout) }).toEqual({ step: at + 1, args, lines: expected });
    }
  });

  test("first install with the offer: both hooks are new, one line each", async () => {
    const { env } = freshHome();
    expect(trustLines((await integrate(["codex", "--offer", "80"], env)).stdout)).toEqual([NEW_HOOK, NEW_STOP]);
  });

  test("--all finds Codex by its home: the same line under codex", async () => {
    const { home, env } = freshHome();
    mkdirSync(join(home, ".codex"));
    const run = await integrate(["--all"], env);
    expect(run.stdout).toStartWith("codex:");
    expect(trustLines(run.stdout)).toEqual([NEW_HOOK]);
  });

  test("agent moved since: both hooks' commands change, Codex asks again for each", async () => {
    const { env } = freshHome();
    await integrate(["codex", "--offer", "80"], env);
    const run = await integrate(["codex", "--offer", "80"], env, "/usr/local/bin/agent");
    expect(trustLines(run.stdout)).toEqual([CHANGED_HOOK, CHANGED_STOP]);
  });

  test("--uninstall, then install again: the hooks are new again, one line each, as at a first install", async () => {
    const { env } = freshHome();
    await integrate(["codex", "--offer", "80"], env);
    await integrate(["codex", "--uninstall"], env);
    expect(trustLines((await integrate(["codex", "--offer", "80"], env)).stdout)).toEqual([NEW_HOOK, NEW_STOP]);
  });

  test("--uninstall says nothing of trust", async () => {
    const { env } = freshHome();
    await integrate(["codex", "--offer", "80"], env);
    expect(trustLines((await integrate(["codex", "--uninstall"], env)).stdout)).toEqual([]);
  });
});
