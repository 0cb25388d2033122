/**
 * `CLAUDE_CODE_PROJECT_DIR_NAME`: with `CLAUDE_CONFIG_DIR` set, Claude Code 2.1.328 files a cwd's
 * sessions in `projects/<that name>` and still reads the cwd's own folder; a name it does not
 * accept (see core/session/formats/claude-code/location.ts) it ignores. `agent ls`, the newest
 * session of the folder and `handoff`'s new session follow the same rule, as a user runs them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { claudeProjectFolderName } from "../../core/session/formats/claude-code/location.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { assistantLine, jsonl, text, userLine } from "../../fixtures/sessions/claude-code/builders.ts";

const root = realpathSync(mkdtempSync(join(tmpdir(), "agent-cc-project-dir-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = "cccccccc-0000-4000-8000-000000000001";
let homes = 0;

/** A fresh home with a Claude Code config folder and a project folder `app`; one session of `app`, in `projects/<folder>`. */
function homeWithSession(folder: (own: string) => string, configDir: "set" | "default") {
  const home = join(root, `home-${++homes}`);
  const app = join(home, "app");
  mkdirSync(app, { recursive: true });
  const config = configDir === "set" ? join(home, "claude-config") : join(home, ".claude");
  const projects = join(config, "projects");
  const place = { sessionId: ID, cwd: app };
  const lines = [
    userLine(place, `${ID.slice(0, -1)}a`, null, 1, "Add a health check endpoint."),
    assistantLine(place, `${ID.slice(0, -1)}b`, `${ID.slice(0, -1)}a`, 2, [text("Added GET /health.")], {
      messageId: "msg_1",
      stop: "end_turn",
    }),
  ];
  const file = join(projects, folder(claudeProjectFolderName(app)), `${ID}.jsonl`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, jsonl(lines));
  const env = (name: string | undefined) =>
    cleanEnv(home, {
      ...(configDir === "set" ? { CLAUDE_CONFIG_DIR: config } : {}),
      ...(name === undefined ? {} : { CLAUDE_CODE_PROJECT_DIR_NAME: name }),
    });
  return { app, projects, file, env };
}

describe("the sessions of the current folder, with CLAUDE_CODE_PROJECT_DIR_NAME", () => {
  test.each<[string, "set" | "default", string | undefined, (own: string) => string, boolean]>([
    ["unset: the cwd's own folder", "set", undefined, (own) => own, true],
    ["a valid name: the folder it names", "set", "shop_2-x", () => "shop_2-x", true],
    ["a valid name: the cwd's own folder is still read", "set", "shop", (own) => own, true],
    ["an empty name: the cwd's own folder", "set", "", (own) => own, true],
    ["a name with a dot is ignored: its folder is no folder of the cwd", "set", "my.proj", () => "my.proj", false],
    ["a name of 65 characters is ignored", "set", "a".repeat(65), () => "a".repeat(65), false],
    ["a Windows device name is ignored", "set", "aux", () => "aux", false],
    ["without CLAUDE_CONFIG_DIR the name is ignored", "default", "shop", () => "shop", false],
  ])("%s", async (_, configDir, name, folder, found) => {
    const { app, projects, file, env } = homeWithSession(folder, configDir);
    const run = await runAgent(["ls", "--json"], env(name), app);
    expect(run.code).toBe(0);
    const paths = JSON.parse(run.stdout).map((s: { path: string }) => s.path);
    expect(paths).toEqual(found ? [file] : []);
    if (!found) {
      // Where Claude Code itself would look: the cwd's own folder, nothing else of Claude Code's.
      const own = join(projects, claudeProjectFolderName(app));
      expect(run.stderr).toContain(`, ${own}, `);
      expect(run.stderr).not.toContain(dirname(file));
    }
  });

  test("the newest session of the folder is found there, and the new session goes where Claude Code writes: `claude --resume <id>` from the cwd", async () => {
    const { app, projects, env } = homeWithSession(() => "shop", "set");
    const run = await runAgent(["handoff", "--engine", "offline", "--json"], env("shop"), app);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(run.stderr).toContain(`Handing off the newest Claude Code session ${ID}`);
    expect(dirname(out.sessionFile)).toBe(join(projects, "shop"));
    expect(out.resume).toEqual({ argv: ["claude", "--resume", out.sessionId], cwd: app });
    const listed = await runAgent(["ls", "--json"], env("shop"), app);
    expect(JSON.parse(listed.stdout).map((s: { id: string }) => s.id)).toEqual([out.sessionId, ID]);
  });

  test("a name Claude Code ignores: the new session goes in the cwd's own folder", async () => {
    const { app, projects, file, env } = homeWithSession((own) => own, "set");
    const run = await runAgent(["handoff", file, "--engine", "offline", "--json"], env("no/slash"), app);
    expect(run.code).toBe(0);
    expect(dirname(JSON.parse(run.stdout).sessionFile)).toBe(join(projects, claudeProjectFolderName(app)));
  });
});
