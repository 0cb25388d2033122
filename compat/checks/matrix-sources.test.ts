/**
 * The matrix's opencode row without the real agents: its recorded rows planted where opencode
 * keeps them for a folder outside git, read by our CLI as the session it is, and the check that
 * the database kept its bytes holding through a handoff from it and failing on a change.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import type { Sandbox } from "../sandbox.ts";
import { SOURCES } from "./matrix-sources.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A sandbox as compat makes one, in a temporary folder (compat's own lies in its namespace's tmpfs). */
function sandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "matrix-sources-")));
  made.push(root);
  const home = join(root, "home");
  const tmp = join(root, "tmp");
  const project = join(root, "project");
  for (const dir of [home, tmp, project]) mkdirSync(dir);
  return { name: "test", home, tmp, project, env: (extra = {}) => cleanEnv(home, extra) };
}

const ID = "ses_dc59a6705ffeTUmLklH2hW4FHH";

describe("the matrix's opencode row", () => {
  test("plants the recorded session as opencode holds one of a folder outside git, named by id and as the newest", () => {
    const box = sandbox();
    const placed = SOURCES.opencode.place(box);
    expect(placed.path).toBe(join(box.home, ".local", "share", "opencode", "opencode.db"));
    expect(placed.ways).toEqual([[ID], ["--agent", "opencode"]]);
    const db = new Database(placed.path, { readonly: true });
    try {
      expect(db.query("SELECT id, worktree, vcs FROM project").all()).toEqual([{ id: "global", worktree: "/", vcs: null }]);
      expect(db.query("SELECT id, project_id, directory, path FROM session").all()).toEqual([
        { id: ID, project_id: "global", directory: box.project, path: box.project.slice(1) },
      ]);
      const texts = db.query<{ data: string }, []>("SELECT data FROM message UNION ALL SELECT data FROM part").all();
      expect(texts.filter((row) => row.data.includes("opencode-transcript"))).toEqual([]);
      expect(texts.filter((row) => row.data.includes(`"root":"/"`)).length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  test.each([
    ["by id", [ID]],
    ["as the newest of the folder", ["--agent", "opencode"]],
  ])("handed off %s, the database keeps its bytes and nothing is made beside it; a change to it is caught", async (_, way) => {
    const box = sandbox();
    const placed = SOURCES.opencode.place(box);
    const files = readdirSync(dirname(placed.path));
    const run = await runAgent(["handoff", ...way, "--to", "pi", "--engine", "offline", "--json"], box.env(), box.project);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).sourceFormat).toBe("opencode");
    expect(placed.checkKept(false)).toBe("opencode's database kept its bytes");
    expect(readdirSync(dirname(placed.path))).toEqual(files);
    const db = new Database(placed.path);
    db.exec("UPDATE session SET title = 'changed'");
    db.close();
    expect(() => placed.checkKept(false)).toThrow("opencode's database changed");
    expect(() => placed.checkKept(true)).toThrow("a row of session that was there changed");
  });
});
