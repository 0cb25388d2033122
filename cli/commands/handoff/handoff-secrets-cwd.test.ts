/**
 * A session whose cwd holds a secret: the folder the target agent names after it, the path of
 * the new session and the `cd` line are all made from the cwd, each changing its punctuation in
 * its own way (`/` → `-`, every non-letter → `-`, `//` → `/`, a long name cut short). No
 * message may print any 12 of the secret's letters and digits in a row, whether the run ends in
 * a new session or in the error that no file system takes such a folder (which writes nothing).
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { partsOf, piSessionIn, useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

const PEM = [
  "-----BEGIN PRIVATE KEY-----",
  "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
  "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu",
  "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ",
  "qXk1Rz7Tb3Wd9Fh5Lm2Np8Qs4Vu6Xy0Za2Cb4De6Fg8Hi0Jk2Lm4No6Pq8Rs0Tu2",
  "-----END PRIVATE KEY-----",
].join("\n");

const SECRETS: [string, string][] = [
  ["a private key", PEM],
  ["a Slack webhook", "https://hooks.slack.com/services/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"],
  ["a GitHub token", "ghp_Zx9Kq2Lm4Np6Rs8Tv0Wy1Ab3Cd5Ef7Gh9Ij1K"],
  ["a URL's password", "postgres://app:Qv7_Lk2-Zp9.Xw4Rt8Mn3@db/app"],
];

function leaked(secret: string, stderr: string): string[] {
  const printed = new Set(partsOf(stderr));
  return partsOf(secret).filter((part) => printed.has(part));
}

describe("a secret in the cwd never reaches stderr through a name made from the cwd", () => {
  for (const [what, secret] of SECRETS) {
    const cwd = `/home/dev/${secret}/app`;

    test.each(["claude-code", "codex", "pi"])(`${what}: a new %s session`, async (to) => {
      const source = join(sandbox.dir, "source.jsonl");
      writeFileSync(source, piSessionIn(cwd));
      // From pi to pi the session goes beside the source; -o is not given, so the others go where their agent looks.
      const run = await runAgent(["handoff", source, "--engine", "offline", "--to", to], cleanEnv(sandbox.home), sandbox.dir);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain("New session started with handoff context:");
      expect(leaked(secret, run.stderr)).toEqual([]);
    });
  }

  test("the error for a folder name no file system takes (omp's, made from a cwd holding a key) names no part of the key, and nothing is written", async () => {
    const source = join(sandbox.dir, "source.jsonl");
    writeFileSync(source, piSessionIn(`/home/dev/${PEM}/app`));
    const run = await runAgent(["handoff", source, "--engine", "offline", "--to", "omp"], cleanEnv(sandbox.home), sandbox.dir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("more than 255 bytes");
    expect(leaked(PEM, run.stderr)).toEqual([]);
    expect(readdirSync(sandbox.dir)).toEqual(["source.jsonl"]);
    expect(readdirSync(sandbox.home).filter((name) => name !== ".bun")).toEqual([]);
  });
});
