import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ourHooks } from "../../core/agent-run/integration/hook-trust.ts";
import { hookHash } from "../agents/integration-trust.ts";
import { integrate, integrateHomes } from "./integrate.testing.ts";

/**
 * Codex 0.169.0 trusts each hook by its place in hooks.json and a hash of it, kept in config.toml
 * (`[hooks.state."<hooks.json>:<event>:<entry>:<handler>"] trusted_hash`): after every
 * `integrate codex` the output says, for each hook of ours, whether Codex asks at its next start,
 * judged from both files as Codex judges them; when Codex trusts it already, nothing is said.
 */

const { freshHome } = integrateHomes("integrate-trust");

const NEW_HOOK =
  'Codex asks at its next start to trust the hook, which it has not trusted yet ("Hooks need review"): choose to trust it, or $handoff reaches the model instead.';
const NEW_STOP =
  'Codex asks at its next start to trust the Stop hook of the offer, which it has not trusted yet ("Hooks need review"): choose to trust it, or the offer is not shown.';
const CHANGED_HOOK =
  'Codex asks again at its next start to trust the hook, which changed since it was trusted ("Hooks need review"): choose to trust it, or $handoff reaches the model instead.';
const CHANGED_STOP =
  'Codex asks again at its next start to trust the Stop hook of the offer, which changed since it was trusted ("Hooks need review"): choose to trust it, or the offer is not shown.';
const MAY_HOOK =
  'Codex may ask at its next start to trust the hook: config.toml cannot be read as TOML, or the hook\'s entry has fields whose hash is not known here ("Hooks need review"): choose to trust it, or $handoff reaches the model instead.';
const MAY_STOP =
  'Codex may ask at its next start to trust the Stop hook of the offer: config.toml cannot be read as TOML, or the hook\'s entry has fields whose hash is not known here ("Hooks need review"): choose to trust it, or the offer is not shown.';

const trustLines = (stdout: string) =>
  stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("Codex "));

/** What Codex's "Trust all and continue" writes: a trust entry, for every hook in hooks.json, for its key and hash now. */
function trustAll(home: string): void {
  const codex = realpathSync(join(home, ".codex"));
  const hooks = readFileSync(join(codex, "hooks.json"), "utf8");
  const entries = ourHooks(hooks).map(
    ({ keySuffix, identity }) => `[hooks.state."${join(codex, "hooks.json")}${keySuffix}"]\ntrusted_hash = "${hookHash(identity ?? "")}"\n`,
  );
  writeFileSync(join(codex, "config.toml"), entries.join("\n"));
}

describe("the hash Codex 0.169.0 trusts a hook by", () => {
  // `currentHash` of each hook, as `codex app-server` (`hooks/list`) gave it for this hooks.json.
  const CODEX_SAID: [string, unknown, string][] = [
    [
      "UserPromptSubmit",
      { type: "command", command: "echo hi # agent integrate", timeout: 600 },
      "6f27fa6480f576585f368dfea751b25701f0e4fb600611894f7a18ec430aca47",
    ],
    [
      "UserPromptSubmit",
      { type: "command", command: "echo hi # agent integrate" },
      "6f27fa6480f576585f368dfea751b25701f0e4fb600611894f7a18ec430aca47",
    ],
    [
      "UserPromptSubmit",
      { type: "command", command: "echo hi # agent integrate", timeout: 60 },
      "b1ea5c4cc854fa4501c00df47cf0eb077d4eedbd4d7c1e1e7be18c0939f2eab7",
    ],
    [
      "Stop",
      { type: "command", command: "echo hi # agent integrate", timeout: 600 },
      "9bf3d67ee2c5bd8723974b3cd3b290caa19ebf20bc28099ecba62f9c4b6a2b31",
    ],
  ];
  for (const [event, handler, hash] of CODEX_SAID)
    test(`${event} ${JSON.stringify(handler)}`, () => {
      const [hook] = ourHooks(JSON.stringify({ hooks: { [event]: [{ hooks: [handler] }] } }));
      expect(hookHash(hook?.identity ?? "")).toBe(`sha256:${hash}`);
    });

  test("the key names the hook's place: entry and handler", () => {
    const text = JSON.stringify({
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: "command", command: "mine" }] },
          {
            hooks: [
              { type: "command", command: "x" },
              { type: "command", command: "y # agent integrate" },
            ],
          },
        ],
      },
    });
    expect(ourHooks(text).map((hook) => hook.keySuffix)).toEqual([":user_prompt_submit:1:1"]);
  });
});

/** One `integrate codex …` after another in the same home (`trust`: the user trusts all at a start of Codex before it), and the trust lines each prints. */
const STEPS: { why: string; trust?: true; args: string[]; agent?: string; lines: string[] }[] = [
  { why: "first install", args: [], lines: [NEW_HOOK] },
  { why: "nothing changed, not trusted yet: Codex still asks", args: [], lines: [NEW_HOOK] },
  { why: "nothing changed, trusted", trust: true, args: [], lines: [] },
  { why: "the offer added", args: ["--offer", "80"], lines: [NEW_STOP] },
  { why: "percent changed after the trust", trust: true, args: ["--offer", "90"], lines: [CHANGED_STOP] },
  { why: "back to the percent trusted (90 never was)", args: ["--offer", "80"], lines: [] },
  { why: "uninstall", args: ["--uninstall"], lines: [] },
  { why: "the same again after the uninstall: config.toml still trusts it", args: ["--offer", "80"], lines: [] },
  { why: "agent moved: both commands change", args: ["--offer", "80"], agent: "/usr/local/bin/agent", lines: [CHANGED_HOOK, CHANGED_STOP] },
];

describe("agent integrate codex: says whether Codex will ask to trust each hook of ours", () => {
  test("a sequence of installs in one home", async () => {
    const { home, env } = freshHome();
    for (const [at, { why, trust, args, agent, lines }] of STEPS.entries()) {
      if (trust) trustAll(home);
      const run = await integrate(["codex", ...args], env, agent);
      expect(run.code).toBe(0);
      expect({ step: at + 1, why, lines: trustLines(run.stdout) }).toEqual({ step: at + 1, why, lines });
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

  test("reinstalled behind a hook of the user's: another place, another key, Codex asks again", async () => {
    const { home, env } = freshHome();
    await integrate(["codex"], env);
    trustAll(home);
    await integrate(["codex", "--uninstall"], env);
    const mine = { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "mine" }] }] } };
    writeFileSync(join(home, ".codex", "hooks.json"), JSON.stringify(mine));
    expect(trustLines((await integrate(["codex"], env)).stdout)).toEqual([NEW_HOOK]);
  });

  test("config.toml that is not TOML: Codex may ask, for each hook", async () => {
    const { home, env } = freshHome();
    await integrate(["codex", "--offer", "80"], env);
    trustAll(home);
    writeFileSync(join(home, ".codex", "config.toml"), "x = = 1\n");
    expect(trustLines((await integrate(["codex", "--offer", "80"], env)).stdout)).toEqual([MAY_HOOK, MAY_STOP]);
  });

  test("--uninstall says nothing of trust", async () => {
    const { env } = freshHome();
    await integrate(["codex", "--offer", "80"], env);
    expect(trustLines((await integrate(["codex", "--uninstall"], env)).stdout)).toEqual([]);
  });
});
