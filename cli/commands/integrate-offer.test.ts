import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readExtensionSetup } from "../../core/session/formats/pi/extension/setup.ts";
import { AGENT, integrate, integrateHomes } from "./integrate.testing.ts";

/** `agent integrate <agent> --offer <percent>` and `--before-compact`: installed, updated in place, taken out byte for byte. */

const { freshHome } = integrateHomes("integrate-offer");

/** Every file and folder under `dir` but our own state's, path → bytes. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (path.startsWith(join(dir, ".local"))) continue;
      if (entry.isDirectory()) {
        out[`${path.slice(dir.length)}/`] = "";
        walk(path);
      } else out[path.slice(dir.length)] = readFileSync(path, "latin1");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

interface Hooked {
  hooks: { command: string; timeout: number }[];
  matcher?: string;
}

/** Our entries of `event` in a hooks file. */
function ours(path: string, event: string): Hooked[] {
  const settings = JSON.parse(readFileSync(path, "utf8"));
  const list = (settings.hooks?.[event] ?? []) as Hooked[];
  return list.filter((entry) => entry.hooks.some((hook) => hook.command.includes(`'${AGENT}' hook`)));
}

const HOOK_AGENTS = [
  { agent: "claude-code", settings: ".claude/settings.json" },
  { agent: "codex", settings: ".codex/hooks.json" },
] as const;

const USERS_STOP = `${JSON.stringify({ theme: "dark", hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } }, null, 2)}\n`;

const STARTS: [string, string | undefined][] = [
  ["no file", undefined],
  ["{}", "{}\n"],
  ["one line", '{"model":"x"}'],
  ["the user's own Stop hook", USERS_STOP],
];

describe.each(HOOK_AGENTS)("agent integrate $agent --offer", ({ agent, settings }) => {
  test.each(STARTS)(
    "%s: installed once, the percent changed in place, the offer taken out, --uninstall byte-identical",
    async (_, start) => {
      const { home, env } = freshHome();
      const path = join(home, settings);
      if (start !== undefined) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, start);
      }
      const before = files(home);

      const first = await integrate([agent, "--offer", "80"], env);
      expect(first).toMatchObject({ code: 0, stderr: "" });
      expect(first.stdout).toContain("  offer: at 80% of the model's window\n");
      const [stop, ...more] = ours(path, "Stop");
      expect(more).toEqual([]);
      expect(stop?.hooks).toEqual([
        { type: "command", command: expect.stringContaining(`'${AGENT}' hook ${agent} '--stop' '--offer' '80';`), timeout: 30 } as never,
      ]);
      if (start === USERS_STOP) expect(JSON.parse(readFileSync(path, "utf8")).hooks.Stop[0].hooks[0].command).toBe("say done");

      const again = await integrate([agent, "--offer", "80"], env);
      expect(again.stdout).toStartWith(`${agent}: nothing to change (installed, current)\n`);
      const status = await integrate(["--status", agent], env);
      expect(status.stdout).toContain(`${agent}: installed, current\n`);
      expect(status.stdout).toContain("  offer: at 80% of the model's window\n");

      // Another percent: the same entry, changed where it stands.
      const changed = await integrate([agent, "--offer", "65"], env);
      expect(changed.stdout).toContain(`  changed ${path}\n`);
      expect(ours(path, "Stop").map((entry) => entry.hooks[0]?.command.includes("'--offer' '65'"))).toEqual([true]);
      expect((await integrate(["--status", agent], env)).stdout).toContain("  offer: at 65% of the model's window\n");
      const uninstalled = await integrate([agent, "--uninstall"], env);
      expect(uninstalled.code).toBe(0);
      expect(files(home)).toEqual(before);

      // Installed with the offer, then again without it: the offer goes, /handoff stays, and --uninstall still gives the bytes back.
      await integrate([agent, "--offer", "80"], env);
      const plain = await integrate([agent], env);
      expect(plain.stdout).toContain(`  changed ${path}\n`);
      expect(ours(path, "Stop")).toEqual([]);
      expect((await integrate(["--status", agent], env)).stdout).not.toContain("offer:");
      await integrate([agent, "--uninstall"], env);
      expect(files(home)).toEqual(before);
    },
  );

  test("an offer installed: --uninstall takes it out with the rest", async () => {
    const { home, env } = freshHome();
    await integrate([agent, "--offer", "90"], env);
    await integrate([agent, "--uninstall"], env);
    expect(files(home)).toEqual({});
  });
});

describe("agent integrate claude-code --before-compact", () => {
  test("a PreCompact entry on auto and the Stop entry that names the session; both go with --uninstall", async () => {
    const { home, env } = freshHome();
    const path = join(home, ".claude/settings.json");
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, USERS_STOP);
    const before = files(home);
    const run = await integrate(["claude-code", "--before-compact"], env);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("  before an automatic compaction: writes the handoff session first\n");
    const [pre] = ours(path, "PreCompact");
    expect(pre?.matcher).toBe("auto");
    expect(pre?.hooks[0]?.timeout).toBe(600);
    // When agent is gone it prints nothing: a PreCompact's output is added to the compaction prompt.
    expect(pre?.hooks[0]?.command).toEndWith("'--before-compact'; else :; exit 0; fi # agent integrate");
    expect(ours(path, "Stop").map((entry) => entry.hooks[0]?.command.includes("'--stop';"))).toEqual([true]);
    expect((await integrate(["claude-code", "--before-compact"], env)).stdout).toStartWith("claude-code: nothing to change");
    expect((await integrate(["--status", "claude-code"], env)).stdout).toContain(
      "  before an automatic compaction: writes the handoff session first\n",
    );
    await integrate(["claude-code", "--uninstall"], env);
    expect(files(home)).toEqual(before);
  });

  test.each(["codex", "pi", "omp"])("%s: refused in one line, nothing written", async (agent) => {
    const { home, env } = freshHome();
    const run = await integrate([agent, "--before-compact"], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith(
      `error: --before-compact is not for ${agent === "codex" ? "Codex" : agent}: only Claude Code has it so far`,
    );
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(files(home)).toEqual({});
  });

  test("--all --before-compact: Claude Code gets it, the others say why not", async () => {
    const { home, env } = freshHome();
    for (const dir of [".claude", ".codex"]) mkdirSync(join(home, dir));
    const run = await integrate(["--all", "--before-compact"], env);
    expect(run.code).toBe(0);
    expect(ours(join(home, ".claude/settings.json"), "PreCompact")).toHaveLength(1);
    expect(run.stdout).toContain("  --before-compact: not for Codex: only Claude Code has it so far");
  });
});

describe("agent integrate pi|omp --offer", () => {
  test.each([
    ["pi", ".pi/agent/extensions/agent-handoff.ts"],
    ["omp", ".omp/agent/extensions/agent-handoff.ts"],
  ])("%s: the extension's SETUP line holds the percent; changed, taken out, uninstalled", async (agent, file) => {
    const { home, env } = freshHome();
    const path = join(home, file);
    expect((await integrate([agent, "--offer", "75"], env)).code).toBe(0);
    expect(readExtensionSetup(readFileSync(path, "utf8"))?.offer).toBe(75);
    expect((await integrate([agent, "--offer", "75"], env)).stdout).toStartWith(`${agent}: nothing to change`);
    expect((await integrate(["--status", agent], env)).stdout).toContain("  offer: at 75% of the model's window\n");
    await integrate([agent, "--offer", "60"], env);
    expect(readExtensionSetup(readFileSync(path, "utf8"))?.offer).toBe(60);
    await integrate([agent], env);
    expect(readExtensionSetup(readFileSync(path, "utf8"))?.offer).toBeUndefined();
    await integrate([agent, "--offer", "60"], env);
    await integrate([agent, "--uninstall"], env);
    expect(files(home)).toEqual({});
  });
});

describe("--offer takes a whole percent from 1 to 99", () => {
  test.each(["0", "100", "80.5", "-5", "eighty", "8O", "1e1", " "])("%p: exit 2, one line, nothing written", async (value) => {
    const { home, env } = freshHome();
    const run = await integrate(["claude-code", "--offer", value], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("--offer");
    expect(files(home)).toEqual({});
  });

  test.each(["1", "99", "80%"])("%p is taken", async (value) => {
    const { env } = freshHome();
    expect((await integrate(["claude-code", "--offer", value], env)).code).toBe(0);
  });

  test.each([["--status"], ["--uninstall"]])("with %s: refused, since --offer is what integrate installs", async (flag) => {
    const { env } = freshHome();
    const run = await integrate(["claude-code", flag, "--offer", "80"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--offer is what integrate installs: not with ${flag}`);
  });
});
