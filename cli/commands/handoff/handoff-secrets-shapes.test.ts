/**
 * Issue 22's shapes, end to end: tokens glued into URL-encoded text or a name (A11) and a bare
 * word under a secret's key (D) never reach a request. `--dry-run` prints exactly what would be
 * sent; the session holds them in a user message, a tool's name, its arguments and its output.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { assistant, call, chain, toolResult, user } from "../../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

const GITHUB = "ghp_Zq7Xw2Rt9Yp4Lm6Nc3Vb8Hd1Jf5Gk0Ts2Ua7";
const PROJECT = "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc";
const GITHUB_2 = "ghp_9Zx8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Qw0Er9Ty8Ui";
const GITHUB_3 = "ghp_3Jd8Kf2Lq9Wm4Xn7Zp1Rt6Vb0Yc5Hs8Ge3Ua";
const GITHUB_4 = "ghp_8Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2Vb";
const GITHUB_5 = "ghp_1Mn3Bv5Cx7Za9Sd1Fg3Hj5Kl7Qw9Er1Ty3Ui";
const OPENAI_2 = "sk-proj-Lm4Nq8Rt2Vx6Zb0Cd4Fg8Hj2Kl6Mn0Pq4St8Uv2Wx6";
const OPENAI_3 = "sk-proj-Zx1Cv3Bn5Ml7Kj9Hg1Fd3Sa5Qw7Er9Ty1Ui3Op5As7";
const LONG_PASSWORD = "Pw9".repeat(70);
/** [the text, the secrets in it]. */
const SHAPES: [string, string[]][] = [
  [`GET /login?next=%2Fapi%3Fauth%3D${GITHUB}%26page%3D2`, [GITHUB]],
  [`curl "https://x.io/h?v=Authorization%3A%20Bearer%20${PROJECT}"`, [PROJECT]],
  [`git remote -v  # https://x-access-token%3A${GITHUB_2}%40github.com/o/r.git`, [GITHUB_2]],
  ["api_key: abcdefghijklmnopqrstuvwxyzLEAKtwo", ["abcdefghijklmnopqrstuvwxyzLEAKtwo"]],
  ["[auth]\nsecret = qwertyuiopLEAKthree", ["qwertyuiopLEAKthree"]],
  ["password: swordfishLEAKfour", ["swordfishLEAKfour"]],
  // Issue 22's outside review: a token after a terminal escape or a control character (F1), after
  // a JSON/JS escape, a long URL password (F17), values once taken for stand-ins (F6), and a value
  // read as a name that recurs without its key (F5).
  [`\x1b[31m${GITHUB_3}\x1b[0m and \x1b]0;t\x07${OPENAI_2}`, [GITHUB_3, OPENAI_2]],
  [String.raw`{"out":"\u003d${GITHUB_4}\f${GITHUB_5}","js":"key\x3d${OPENAI_3}"}`, [GITHUB_4, GITHUB_5, OPENAI_3]],
  [`git clone https://user:${LONG_PASSWORD}@example.com/r.git`, [LONG_PASSWORD]],
  ["PASSWORD=$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW", ["R9h/cIPz0gi.URNNX3kh2OPST9"]],
  ["password=%Xk9p2Lq7WmLEAK -- db_password=mysecretpassLEAK -- pass=-Xk9p2Lq7WmLEAKsix", ["Xk9p2Lq7WmLEAK", "mysecretpassLEAK"]],
  ['token: "Zq7Xw2Rt9Yp4LEAK..."', ["Zq7Xw2Rt9Yp4LEAK"]],
  ["secret = generatedSecretLEAK\nlater: generatedSecretLEAK is what the server checks", ["generatedSecretLEAK"]],
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
