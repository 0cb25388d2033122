/** `-o` names the new session's file: a folder given there is refused as a folder, in the user's own spelling. */
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { EXAMPLE } from "../../agents/agent-engines.testing.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

test.each<[string, (dir: string) => string, (dir: string) => string]>([
  ["a folder with a trailing slash", (dir) => `${dir}/odd/`, (dir) => `${dir}/odd/`],
  ["a folder without one", (dir) => `${dir}/odd`, (dir) => `${dir}/odd`],
  ["a relative folder", () => "odd/", (dir) => `${dir}/odd/`],
  ["the current folder", () => ".", (dir) => dir],
])("-o %s: exit 2, says it is a folder and what -o takes, nothing written", async (_name, out, shown) => {
  mkdirSync(join(sandbox.dir, "odd"));
  const run = await runAgent(
    ["handoff", EXAMPLE, "--engine", "offline", "--no-record", "-o", out(sandbox.dir)],
    cleanEnv(sandbox.home),
    sandbox.dir,
  );
  expect(run.code).toBe(2);
  const folder = shown(sandbox.dir).replace(/\/$/, "");
  expect(run.stderr).toBe(
    `error: ${shown(sandbox.dir)}: is a folder; -o takes the new session's file name (e.g. ${folder}/handoff.jsonl)\n`,
  );
  expect(readdirSync(join(sandbox.dir, "odd"))).toEqual([]);
});
