/**
 * `--json`'s `resume` names our own new session and the command that continues it: a script runs
 * it as it is. A key that is also a word (Ollama's dummy key `ollama`,
 * `model`) in a folder's name must not blank them; the document keeps every withheld value out.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { piSessionIn, useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

interface Report {
  document: string;
  resume: { argv: string[]; cwd: string | null } | null;
}

describe("--json's resume is exact, whatever the key", () => {
  test.each([
    ["ollama", "ollama-app"],
    ["ollama", "ollama"],
    ["model", "my model"],
    ["lmstudio", "projects/lmstudio/api"],
  ])("key %p, the session's folder %p", async (key, folder) => {
    const cwd = join(sandbox.dir, folder);
    mkdirSync(cwd, { recursive: true });
    const src = join(cwd, `${key}-session.jsonl`);
    writeFileSync(src, piSessionIn(cwd));
    // The model quotes the key: the document must not show it.
    const s = sandbox.serve(() => ({ text: `${CANNED_DOCUMENT}\nThe key was ${key}.` }));
    const env = cleanEnv(sandbox.home, { OPENAI_API_KEY: key, OPENAI_BASE_URL: s.url, AGENT_MODEL: "m" });
    const run = await runAgent(["handoff", src, "--json", "--no-record"], env, cwd);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.resume?.cwd).toBe(cwd);
    // pi resumes by the file's path: the argv names the file written, exactly.
    const file = report.resume?.argv.at(-1) ?? "";
    expect(existsSync(file)).toBe(true);
    expect(file).toContain(key);
    expect(report.document).not.toContain(`The key was ${key}.`);
    expect(report.document).toContain("The key was [withheld].");
  });
});
