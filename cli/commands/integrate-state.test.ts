import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProcessHost } from "../process/host.ts";
import { runCli } from "../main.ts";
import { cleanEnv, memoryIo, REPO } from "../../fixtures/run-agent.ts";

/** Our own state folder (`~/.local/state/agent/`, `$XDG_STATE_HOME/agent/`): made by integrate, removed by the last --uninstall. */

const root = mkdtempSync(join(tmpdir(), "agent-integrate-state-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HOST = { ...createProcessHost(), program: { executable: "/opt/agent/bin/agent", script: undefined } };

let homes = 0;
function freshHome(): { home: string; env: Record<string, string> } {
  const home = join(root, `home-${++homes}`);
  mkdirSync(home, { recursive: true });
  return { home, env: cleanEnv(home, { PATH: "/nonexistent" }) };
}

async function integrate(args: string[], env: Record<string, string>): Promise<number> {
  return runCli(["integrate", ...args], { ...memoryIo(env, REPO), host: HOST });
}

/** Every folder and file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

// [case, what is there before, where the state goes (XDG_STATE_HOME, relative to the home), what stays after the last --uninstall]
const STARTS: [string, string[], string | undefined, string[]][] = [
  ["no .local at all", [], undefined, []],
  ["an empty ~/.local/state of the user's", [".local/state/"], undefined, [".local", ".local/state"]],
  ["~/.local with the user's files", [".local/bin/tool"], undefined, [".local", ".local/bin", ".local/bin/tool"]],
  [
    "an empty ~/.local/state/agent/ made before integrate",
    [".local/state/agent/"],
    undefined,
    [".local", ".local/state", ".local/state/agent"],
  ],
  ["XDG_STATE_HOME that does not exist yet", [], "xdg/state", []],
  ["XDG_STATE_HOME that exists", ["xdg/state/"], "xdg/state", ["xdg", "xdg/state"]],
];

describe("agent integrate: our state folder", () => {
  test.each(STARTS)("%s: the last --uninstall leaves the home as it was", async (_, start, xdg, after) => {
    const { home, env } = freshHome();
    for (const path of start)
      if (path.endsWith("/")) mkdirSync(join(home, path), { recursive: true });
      else {
        mkdirSync(join(home, path, ".."), { recursive: true });
        writeFileSync(join(home, path), "mine\n");
      }
    const withState = xdg === undefined ? env : { ...env, XDG_STATE_HOME: join(home, xdg) };
    const state = join(home, xdg ?? ".local/state", "agent", "integrations.json");

    expect(await integrate(["claude-code"], withState)).toBe(0);
    expect(await integrate(["codex"], withState)).toBe(0);
    expect(existsSync(state)).toBe(true);
    // One agent still installed: its memory stays.
    expect(await integrate(["claude-code", "--uninstall"], withState)).toBe(0);
    expect(existsSync(state)).toBe(true);
    expect(await integrate(["codex", "--uninstall"], withState)).toBe(0);
    expect(tree(home)).toEqual(after);
  });

  test("a file the user put in our state folder since: the folder stays, with it", async () => {
    const { home, env } = freshHome();
    expect(await integrate(["codex"], env)).toBe(0);
    writeFileSync(join(home, ".local/state/agent/notes.txt"), "mine\n");
    expect(await integrate(["codex", "--uninstall"], env)).toBe(0);
    expect(tree(home)).toEqual([".local", ".local/state", ".local/state/agent", ".local/state/agent/notes.txt"]);
  });
});
