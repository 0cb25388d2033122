/**
 * `agent handoff --to opencode`: a target whose sessions are rows in its database. The new
 * session is written through the rows port (cli/sessions/session-rows.ts) into the database the
 * agent's environment names, `--json` names the database and the session, and the resume
 * command is opencode's by id; every refusal is one line, before the model is asked, with
 * nothing written.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatNamed } from "../../../core/index.ts";
import { transcriptAs } from "../../../fixtures/agent-homes.ts";
import { everyRow, realOpencodeDatabase } from "../../../fixtures/opencode-db.ts";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";
import { readRowSession } from "../../sessions/session-rows.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const store = formatNamed("opencode").rows;
if (!store) throw new Error("opencode's format keeps no rows");

interface Home {
  home: string;
  project: string;
  source: string;
  database: string;
}

/** A home with pi's real transcript recorded in `project` (a git repository opencode opened when `cached` is given). */
function setUp(options: { git?: "opened" | "unopened"; database?: "default" | "elsewhere" | "none" } = {}): Home {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "handoff-rows-")));
  made.push(home);
  const project = join(home, "work", "app");
  mkdirSync(project, { recursive: true });
  if (options.git) mkdirSync(join(project, ".git"));
  if (options.git === "opened") writeFileSync(join(project, ".git", "opencode"), "67dd51a524d9a559099071d70383b57051b47472");
  const source = join(home, "source.jsonl");
  writeFileSync(source, transcriptAs("pi", "01a22c83-0000-7000-8000-00000000c0de", project));
  const where = options.database ?? "default";
  const database = where === "elsewhere" ? join(home, "db", "oc.db") : join(home, ".local", "share", "opencode", "opencode.db");
  if (where !== "none") realOpencodeDatabase(database);
  return { home, project, source, database };
}

const env = (h: Home) => cleanEnv(h.home, h.database.endsWith("oc.db") ? { OPENCODE_DB: h.database } : {});
const handoff = (h: Home, ...extra: string[]) =>
  runAgent(["handoff", h.source, "--to", "opencode", "--engine", "offline", ...extra], env(h), h.project);

describe("agent handoff --to opencode", () => {
  test.each([
    ["outside git: opencode's global project", {}, "global", "work/app"],
    ["in a git project opencode opened: its cached id", { git: "opened" as const }, "67dd51a524d9a559099071d70383b57051b47472", ""],
    ["OPENCODE_DB elsewhere", { database: "elsewhere" as const }, "global", "work/app"],
  ])("%s: the rows in the database, --json naming it, the session and opencode's command", async (_, options, projectId, path) => {
    const h = setUp(options);
    const before = everyRow(h.database);
    const run = await handoff(h, "--json");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect([json.sessionFile, json.sessionFormat, store.isSessionId(json.sessionId), json.recorded]).toEqual([
      h.database,
      "opencode",
      true,
      // The source is pi's, which records its handoffs; an opencode source never is recorded into.
      true,
    ]);
    expect(json.resume).toEqual({ argv: ["opencode", "-s", json.sessionId], cwd: h.project });
    const after = everyRow(h.database);
    for (const [table, rows] of Object.entries(before)) expect(after[table]?.slice(0, rows.length)).toEqual(rows);
    const session = after.session?.find((row) => (row as { id: string }).id === json.sessionId) as Record<string, unknown>;
    expect([session.project_id, session.directory, session.path]).toEqual([
      projectId,
      h.project,
      path.replace("work/app", h.project.slice(1)),
    ]);
    const read = readRowSession(h.database, store, json.sessionId);
    expect(read.entries[0]?.data.content).toContain(json.document);
  });

  test.each([
    ["-o", {}, ["-o", "x.jsonl"], 2, "-o: opencode keeps a session as rows in opencode's database, not as a file of its own; leave -o out"],
    [
      "no database yet",
      { database: "none" as const },
      [],
      2,
      "opencode's database does not exist yet (it is made the first time the agent runs): run opencode once",
    ],
    ["a git repository opencode never opened", { git: "unopened" as const }, [], 2, "opencode has not opened the git repository"],
  ])("refused (%s): one line, nothing written", async (_, options, extra, code, words) => {
    const h = setUp(options);
    const before = "database" in options ? undefined : everyRow(h.database);
    const run = await handoff(h, ...extra);
    expect([run.code, run.stdout]).toEqual([code, ""]);
    expect(run.stderr).toContain(words);
    expect(
      run.stderr
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("error")),
    ).toHaveLength(1);
    if (before) expect(everyRow(h.database)).toEqual(before);
  });

  test("the line that continues it is opencode's by id, with a cd to the session's folder when run elsewhere", async () => {
    const h = setUp();
    const here = await handoff(h);
    expect(here.code).toBe(0);
    expect(here.stderr).toMatch(/\nContinue with: opencode -s ses_[0-9a-f]{12}[0-9A-Za-z]{14}\n$/);
    const elsewhere = await runAgent(["handoff", h.source, "--to", "opencode", "--engine", "offline"], env(h), h.home);
    expect(elsewhere.stderr).toMatch(new RegExp(`\nContinue with: cd ${h.project} && opencode -s ses_[0-9a-f]{12}[0-9A-Za-z]{14}\n$`));
  });
});
