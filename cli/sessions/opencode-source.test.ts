/**
 * opencode as a source: its sessions are rows of its SQLite database, found, listed and read
 * through the rows port (cli/sessions/session-rows.ts) by `agent ls`, `agent inspect` and
 * `agent handoff` (by id, by the start of one, as the newest of the folder with `--agent
 * opencode`), beside the other agents' files. The database is never written to, and one that
 * cannot be read is said in one line. The database is the real one opencode 1.18.33 left
 * (fixtures/real/opencode/), its session moved to the test's project folder.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { plantSession } from "../../fixtures/agent-homes.ts";
import { realOpencodeDatabase } from "../../fixtures/opencode-db.ts";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The session opencode recorded (fixtures/real/opencode/session.json). */
const ID = "ses_dc59a6705ffeTUmLklH2hW4FHH";
const PI_ID = "01a22c83-0000-7000-8000-00000000c0de";

interface Home {
  home: string;
  project: string;
  database: string;
  env: Record<string, string>;
}

/** A home whose opencode database holds the real session, worked in `project`; with `pi`, a pi session there too, an hour older. */
function setUp(options: { pi?: boolean } = {}): Home {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "opencode-source-")));
  made.push(home);
  const project = join(home, "work", "app");
  mkdirSync(project, { recursive: true });
  const database = realOpencodeDatabase(join(home, ".local", "share", "opencode", "opencode.db"));
  const db = new Database(database);
  db.query("UPDATE session SET directory = ?").run(project);
  db.close();
  if (options.pi) {
    const mtime = Number(readRow(database).time_updated) / 1000 - 3600;
    plantSession({ home, env: {}, tmpdir: home, runFolder: home }, { agent: "pi", id: PI_ID, cwd: project, mtime });
  }
  return { home, project, database, env: cleanEnv(home) };
}

function readRow(database: string): Record<string, unknown> {
  const db = new Database(database, { readonly: true });
  try {
    return db.query<Record<string, unknown>, [string]>("SELECT * FROM session WHERE id = ?").get(ID) ?? {};
  } finally {
    db.close();
  }
}

/** The bytes of the session's rows, as UTF-8: the JSON of its messages and of their parts. */
function rowBytes(database: string, id = ID): number {
  const db = new Database(database, { readonly: true });
  try {
    const data = db
      .query<{ data: string }, [string, string]>(
        "SELECT data FROM message WHERE session_id = ?1 UNION ALL SELECT data FROM part WHERE session_id = ?2",
      )
      .all(id, id);
    return data.reduce((sum, row) => sum + Buffer.byteLength(row.data), 0);
  } finally {
    db.close();
  }
}

/** A child session opencode's task tool would make: a session whose parent is the recorded one, in the same folder. */
const CHILD = "ses_dc59a6705ffe0TaskChildSess";
function addChild(h: Home): void {
  const db = new Database(h.database);
  db.query(
    "INSERT INTO session (id, project_id, parent_id, slug, directory, path, title, version, time_created, time_updated) SELECT ?, project_id, id, 'task', directory, path, 'Look for the tests (@general subagent)', version, time_created + 1, time_updated + 60000 FROM session WHERE id = ?",
  ).run(CHILD, ID);
  db.close();
}

const agent = (h: Home, ...args: string[]) => runAgent(args, h.env, h.project);
const errorLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("error"));

describe("opencode as a source", () => {
  test("agent ls lists the folder's opencode session beside the other agents', newest first; --long counts its messages", async () => {
    const h = setUp({ pi: true });
    const run = await agent(h, "ls", "--json", "--long");
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const rows = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(rows.map((row) => [row.agent, row.id])).toEqual([
      ["opencode", ID],
      ["pi", PI_ID],
    ]);
    expect(rows[0]).toEqual({
      agent: "opencode",
      id: ID,
      path: h.database,
      cwd: h.project,
      updated: new Date(Number(readRow(h.database).time_updated)).toISOString(),
      bytes: rowBytes(h.database),
      estimatedTokens: Math.ceil(rowBytes(h.database) / 4),
      title: "Listing the files",
      messages: 10,
    });
    expect(rowBytes(h.database)).toBeGreaterThan(1000);
    const only = await agent(h, "ls", "--agent", "opencode", "--ids");
    expect([only.code, only.stdout]).toEqual([0, `${ID}\n`]);
    // Another folder's sessions are not this one's.
    const elsewhere = await runAgent(["ls", "--agent", "opencode", "--json"], h.env, h.home);
    expect([elsewhere.code, elsewhere.stdout]).toEqual([0, "[]\n"]);
  });

  test.each([
    ["the whole id", [ID]],
    ["the start of it", ["ses_dc59"]],
    ["--session", ["--session", ID]],
    ["--agent opencode: the newest of the folder", ["--agent", "opencode"]],
  ])("agent inspect reads it by %s, and the database is left as it was", async (_, how) => {
    const h = setUp({ pi: true });
    const before = readFileSync(h.database);
    const run = await agent(h, "inspect", ...how, "--json");
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`the ${how.includes("--agent") ? "newest " : ""}opencode session ${ID}, updated `);
    expect(run.stderr).toEndWith(`: ${h.database}\n`);
    const report = JSON.parse(run.stdout);
    expect([report.file, report.format, report.sessionId, report.cwd, report.branchMessages]).toEqual([
      h.database,
      "opencode",
      ID,
      h.project,
      10,
    ]);
    expect(readFileSync(h.database).equals(before)).toBe(true);
  });

  test.each([
    ["--to pi, by id", ["--session", ID, "--to", "pi"], "pi"],
    ["--to claude, as the newest of the folder", ["--agent", "opencode", "--to", "claude"], "claude-code"],
  ])("agent handoff %s: a new session from its rows, the source never recorded into", async (_, how, format) => {
    const h = setUp();
    const before = readFileSync(h.database);
    const files = readdirSync(dirname(h.database));
    const run = await agent(h, "handoff", ...how, "--engine", "offline", "--json");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect([json.sessionFormat, json.sourceFile, json.recorded]).toEqual([format, null, false]);
    expect(json.document).toContain("Third, via continue");
    // Session Facts name the session by its id in the database, not as a stream read.
    expect(json.document).toContain(`\n- Source session: \`${ID}\` in opencode's database, \`${h.database}\`\n`);
    expect(readFileSync(json.sessionFile, "utf8")).toContain("Third, via continue");
    expect(run.stderr).toContain(`${h.database}: not recorded in the source`);
    expect(readFileSync(h.database).equals(before)).toBe(true);
    // Nor is anything made beside it (a WAL database read read-only would get a -wal and a -shm).
    expect(readdirSync(dirname(h.database))).toEqual(files);
  });

  test("handed off to opencode itself twice: the second run passes over the session the first wrote, and a dry run writes nothing", async () => {
    const h = setUp();
    const before = readFileSync(h.database);
    const dry = await agent(h, "handoff", "ses_dc59", "--engine", "offline", "--dry-run", "--json");
    expect([dry.code, JSON.parse(dry.stdout).dryRun]).toEqual([0, true]);
    expect(readFileSync(h.database).equals(before)).toBe(true);
    const first = await agent(h, "handoff", "--agent", "opencode", "--engine", "offline", "--json");
    expect(first.code).toBe(0);
    const written = JSON.parse(first.stdout).sessionId;
    expect(written).not.toBe(ID);
    const second = await agent(h, "handoff", "--agent", "opencode", "--engine", "offline", "--json");
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`Handing off the newest opencode session ${ID}, `);
    expect(second.stderr).toContain(`(the newer session ${written} is a handoff session, with nothing after the document yet)`);
  });

  test("a running opencode holding the write lock does not stop the reading", async () => {
    const h = setUp();
    const holder = Bun.spawn([process.execPath, join(REPO, "fixtures/hold-sqlite-lock.ts"), h.database, "4000"], {
      stdout: "pipe",
      stderr: "inherit",
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    try {
      const { value } = await holder.stdout.getReader().read();
      expect(new TextDecoder().decode(value)).toBe("locked\n");
      const started = Date.now();
      const run = await agent(h, "inspect", ID, "--json");
      expect([run.code, JSON.parse(run.stdout).sessionId]).toEqual([0, ID]);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      holder.kill();
      await holder.exited;
    }
  });
});

describe("an opencode database that cannot be read: one line, the other agents' sessions still found", () => {
  const breakings: [string, (h: Home) => void, string][] = [
    [
      "a newer schema",
      (h) => {
        const db = new Database(h.database);
        db.query("INSERT INTO migration (id, time_completed) VALUES ('29990101000000_future', 1)").run();
        db.close();
      },
      "opencode's database is at schema version 29990101000000_future, not one tested",
    ],
    [
      "no migration table",
      (h) => {
        const db = new Database(h.database);
        db.exec("DROP TABLE migration");
        db.close();
      },
      "opencode's database is at schema version unreadable",
    ],
    [
      "not a database",
      (h) => {
        rmSync(h.database);
        writeFileSync(h.database, "not sqlite at all, but long enough to be read as a header of one...".repeat(20));
      },
      "schema version unreadable (file is not a database)",
    ],
    [
      "a folder where the database goes",
      (h) => {
        rmSync(h.database);
        mkdirSync(h.database);
      },
      "opencode's database is not a regular file",
    ],
  ];

  test.each(breakings)("%s", async (_, breakIt, words) => {
    const h = setUp({ pi: true });
    breakIt(h);
    const ls = await agent(h, "ls", "--json");
    expect(ls.code).toBe(0);
    expect(JSON.parse(ls.stdout).map((row: { id: string }) => row.id)).toEqual([PI_ID]);
    expect(ls.stderr.trim().split("\n")).toEqual([expect.stringContaining(`warning: ${h.database}: `)]);
    expect(ls.stderr).toContain(words);
    for (const args of [
      ["inspect", "--agent", "opencode"],
      ["inspect", "--agent", "opencode", "--session", "ses_dc59"],
      ["handoff", "ses_dc59", "--engine", "offline", "--to", "pi"],
    ]) {
      const run = await agent(h, ...args);
      expect([run.code, run.stdout]).toEqual([2, ""]);
      expect(errorLines(run.stderr)).toEqual([expect.stringContaining(words)]);
    }
    // Without --agent the newest of the folder is the pi session, with a warning that opencode's could not be read.
    const newest = await agent(h, "inspect", "--json");
    expect([newest.code, JSON.parse(newest.stdout).sessionId]).toEqual([0, PI_ID]);
    expect(newest.stderr).toContain(`warning: ${h.database} cannot be read (`);
  });

  test("the database named as a session file, and a database kept in memory: one line each", async () => {
    const h = setUp();
    for (const path of [h.database, "../../.local/share/opencode/opencode.db"]) {
      const run = await agent(h, "inspect", path);
      expect([run.code, run.stdout]).toEqual([2, ""]);
      expect(errorLines(run.stderr)).toEqual([
        `error: ${path} is opencode's database, which holds many sessions: name one by its id (agent ls --agent opencode lists them) (see agent inspect --help)`,
      ]);
    }
    const memory = await runAgent(["handoff", "--agent", "opencode"], { ...h.env, OPENCODE_DB: ":memory:" }, h.project);
    expect([memory.code, errorLines(memory.stderr)]).toEqual([
      2,
      [
        `error: no opencode session worked in ${h.project} (looked in opencode's database (kept in memory: OPENCODE_DB=:memory:)); name a session file or use --session <id> (agent ls --all lists them)`,
      ],
    ]);
  });

  test("no database yet: nothing of opencode's listed, and asking for it says where it looked", async () => {
    const h = setUp({ pi: true });
    rmSync(h.database);
    const ls = await agent(h, "ls", "--agent", "opencode", "--json");
    expect([ls.code, ls.stdout]).toEqual([0, "[]\n"]);
    const run = await agent(h, "inspect", "--agent", "opencode");
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(errorLines(run.stderr)).toEqual([
      `error: no opencode session worked in ${h.project} (looked in ${h.database}); name a session file or use --session <id> (agent ls --all lists them)`,
    ]);
    const unknown = await agent(h, "inspect", "ses_ffff");
    expect(errorLines(unknown.stderr)).toEqual([expect.stringContaining("has an id starting with ses_ffff")]);
  });
  test("agent ls in a pipe shows the rows' bytes and tokens, not 0 and nothing", async () => {
    const h = setUp();
    const run = await agent(h, "ls", "--agent", "opencode");
    expect(run.code).toBe(0);
    const [fields] = run.stdout.split("\n").map((line) => line.split("\t"));
    const bytes = rowBytes(h.database);
    expect(fields?.slice(1, 5)).toEqual(["opencode", ID, String(bytes), String(Math.ceil(bytes / 4))]);
  });

  test.each([
    ["--session and the whole id", ["--session", CHILD], `--session ${CHILD}`],
    ["--session and the start of it", ["--session", CHILD.slice(0, 18)], `--session ${CHILD.slice(0, 18)}`],
    ["the id as the session", [CHILD], CHILD],
  ])("a task's child session named by %s: said what it is and whose, not that no session has the id", async (_, how, shown) => {
    const h = setUp();
    addChild(h);
    for (const command of ["inspect", "handoff"]) {
      const run = await agent(h, command, ...how);
      expect([run.code, run.stdout]).toEqual([2, ""]);
      expect(errorLines(run.stderr)).toEqual([
        `error: ${shown}: opencode ${CHILD} is a session opencode ran for a task of session ${ID}, not a session the user worked in; hand off the session it belongs to`,
      ]);
    }
    // Never listed, never the newest of the folder (it is newer than its parent).
    const ls = await agent(h, "ls", "--json");
    expect((JSON.parse(ls.stdout) as { id: string }[]).map((row) => row.id)).toEqual([ID]);
    const newest = await agent(h, "inspect", "--agent", "opencode", "--json");
    expect([newest.code, JSON.parse(newest.stdout).sessionId]).toEqual([0, ID]);
  });

  test("-v names the handoff session passed over by its id in the database, where ls and the newest both pass it over", async () => {
    const h = setUp();
    const first = await agent(h, "handoff", "--agent", "opencode", "--engine", "offline", "--json");
    const written = JSON.parse(first.stdout).sessionId;
    const line = `passed over ${written} in ${h.database}: a handoff session, with nothing after the document yet`;
    const newest = await agent(h, "inspect", "--agent", "opencode", "-v");
    expect([newest.code, newest.stderr]).toEqual([0, expect.stringContaining(line)]);
    expect(newest.stderr).not.toContain(`passed over ${h.database}:`);
  });
});
