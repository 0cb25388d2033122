/**
 * Issue 22's shapes, end to end: tokens glued into URL-encoded text or a name (A11) and a bare
 * word under a secret's key (D) never reach a request. `--dry-run` prints exactly what would be
 * sent; the session holds them in a user message, a tool's name, its arguments and its output.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../fixtures/run-agent.ts";
import { assistant, call, chain, toolResult, user } from "../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

const GITHUB = "ghp_Zq7Xw2Rt9Yp4Lm6Nc3Vb8Hd1Jf5Gk0Ts2Ua7";
const PROJECT = "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc";
const GITHUB_2 = "ghp_9Zx8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Qw0Er9Ty8Ui";
/** [the text, the secrets in it]. */
const SHAPES: [string, string[]][] = [
  [`GET /login?next=%2Fapi%3Fauth%3D${GITHUB}%26page%3D2`, [GITHUB]],
  [`curl "https://x.io/h?v=Authorization%3A%20Bearer%20${PROJECT}"`, [PROJECT]],
  [`git remote -v  # https://x-access-token%3A${GITHUB_2}%40github.com/o/r.git`, [GITHUB_2]],
  ["api_key: abcdefghijklmnopqrstuvwxyzLEAKtwo", ["abcdefghijklmnopqrstuvwxyzLEAKtwo"]],
  ["[auth]\nsecret = qwertyuiopLEAKthree", ["qwertyuiopLEAKthree"]],
  ["password: swordfishLEAKfour", ["swordfishLEAKfour"]],
];
const TOOL_TOKEN = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";

describe("glued tokens and bare words under a secret's key are never sent", () => {
  test("in a user message, a tool's name, its arguments and its output (--dry-run)", async () => {
    const src = join(sandbox.dir, "source.jsonl");
    const text = SHAPES.map(([line]) => line).join("\n");
    writeFileSync(
      src,
      chain([
        user(1, text),
        assistant(2, [call("c1", `exec_command_${TOOL_TOKEN}`, { command: "env", note: text })], "toolUse"),
        toolResult(3, "c1", `exec_command_${TOOL_TOKEN}`, text),
        assistant(4, [{ type: "text", text: "Done." }]),
      ]),
    );
    const run = await runAgent(["handoff", src, "--dry-run", "--base-url", "http://127.0.0.1:9/v1"], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    const never = [...SHAPES.flatMap(([, secrets]) => secrets), TOOL_TOKEN];
    // Not even their starts: a prefix of a token is most of it.
    const leaks = never.filter((secret) => run.stdout.includes(secret.slice(0, 12)) || run.stderr.includes(secret.slice(0, 12)));
    expect(leaks).toEqual([]);
    expect(run.stdout).toContain("[REDACTED:github-token:");
    expect(run.stdout).toContain("exec_command__REDACTED_github-token_");
  });
});
