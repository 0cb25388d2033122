/**
 * The rows of the handoff matrix: each agent's real recorded session, and how it is put where
 * that agent keeps it in a sandbox, its working directory moved into the sandbox's project. A
 * session file goes into the agent's folder for the project; opencode's recorded rows go into
 * its database (made from the schema the real opencode left, or the one opencode made when it is
 * the target too), moved into opencode's `global` project as opencode holds a folder outside git.
 * Each row also says how `agent handoff` is told which session to take (a path, an id, the
 * newest of the folder for `--agent`), and what the source's model is.
 */
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { formatNamed } from "../../core/session/formats/table.ts";
import type { SessionPlace } from "../../core/session/formats/types.ts";
import type { AgentName, FileAgentName } from "../agents.ts";
import { SCRATCH_ROOT, type Sandbox } from "../sandbox.ts";
import { opencodeDatabaseIn, readOpencodeDatabase } from "./opencode-setup.ts";
import { REPO } from "./reading.ts";
import { must } from "./report.ts";
import type { SourceFacts } from "./targets.ts";

/** A source put in place in a sandbox. */
export interface PlacedSource {
  /** The file the session is, or the database its rows are in. */
  path: string;
  /**
   * The ways `agent handoff` may be told to take it, used in turn by the cells of the row: its
   * path, its id, or nothing but `--agent <name>` (the newest of the folder).
   */
  ways: readonly (readonly string[])[];
  /**
   * Throws unless the source is as the handoff must leave it: a source that is never recorded
   * into keeps its bytes (when the new session went into the same store, every row it had).
   */
  checkKept(sameStore: boolean): string | undefined;
}

export interface MatrixSource extends SourceFacts {
  /** The recorded session in the repository (shown in the checks' names). */
  fixture: string;
  /** The model its session resumes with in its own agent, as a model request names it. */
  model: string;
  place(sandbox: Sandbox): PlacedSource;
}

/** Where `format`'s agent keeps the sessions of the sandbox's project, as our own location table says. */
export function agentFolder(format: AgentName, sandbox: Sandbox, now: Date): string {
  const place: SessionPlace = {
    home: sandbox.home,
    env: {},
    tmpdir: sandbox.tmp,
    runFolder: sandbox.project,
    cwd: sandbox.project,
    timestamp: now,
    utcOffsetMinutes: -now.getTimezoneOffset(),
  };
  return join(...formatNamed(format).location.sessionFolder(place));
}

/** Each file source: the agent's real transcript (fixtures/real/), recorded in `SCRATCH_ROOT/<agent>-transcript/project`. */
const FILES: Record<FileAgentName, string> = {
  pi: "fixtures/real/pi/session.jsonl",
  omp: "fixtures/real/omp/session.jsonl",
  "claude-code": "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
  codex: "fixtures/real/codex/rollout.jsonl",
  gemini: "fixtures/real/gemini/session-2026-12-03T05-51-ac74b73f.jsonl",
};

/**
 * The name each source's file has where its agent keeps it: Codex's own name for the rollout (it
 * keeps only `rollout-*.jsonl` files as sessions, and so does discovery); the others' names as
 * committed.
 */
function placedName(source: FileAgentName): string {
  return source === "codex" ? "rollout-2026-11-30T12-52-57-01a22c83-ffcf-7703-8435-2c3998d6a9a2.jsonl" : basename(FILES[source]);
}

/** The source transcript, its working directory moved into the sandbox, where its own agent keeps it; its path. */
export function placeSource(source: FileAgentName, sandbox: Sandbox): string {
  const text = readFileSync(join(REPO, FILES[source]), "utf8").replaceAll(`${SCRATCH_ROOT}/${source}-transcript/project`, sandbox.project);
  const folder = agentFolder(source, sandbox, new Date());
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, placedName(source));
  writeFileSync(path, text);
  return path;
}

function fileSource(name: FileAgentName, model: string, provider: string | undefined): MatrixSource {
  return {
    name,
    provider,
    model,
    fixture: FILES[name],
    place: (sandbox) => {
      const path = placeSource(name, sandbox);
      // pi and omp record the handoff into their source, as they do their own; the others are never written.
      if (formatNamed(name).record !== undefined) return { path, ways: [[path]], checkKept: () => undefined };
      const bytes = readFileSync(path);
      return {
        path,
        ways: [[path]],
        checkKept: () => {
          must(readFileSync(path).equals(bytes), `the source ${basename(path)} changed, and it is never recorded into`);
          return "the source kept its bytes";
        },
      };
    },
  };
}

const OPENCODE = "fixtures/real/opencode";
type Row = Record<string, string | number | null>;

/** Every file of the database (it, and its -wal and -shm when present) with a hash of its bytes. */
function databaseFiles(path: string): string {
  const folder = dirname(path);
  return readdirSync(folder)
    .filter((name) => name.startsWith(basename(path)))
    .sort()
    .map(
      (name) =>
        `${name} ${createHash("sha256")
          .update(readFileSync(join(folder, name)))
          .digest("hex")}`,
    )
    .join(", ");
}

function everyRow(path: string): string {
  return readOpencodeDatabase(path, (db) => {
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    return JSON.stringify(tables.map(({ name }) => [name, db.query(`SELECT * FROM "${name}" ORDER BY rowid`).all()]));
  });
}

/**
 * opencode's recorded session (fixtures/real/opencode/session.json), its folder moved to the
 * sandbox's project: outside git, opencode files a folder's sessions under its `global` project
 * (worktree `/`, the session's `path` its folder without the leading slash, each assistant
 * message's `path.root` `/`), as 1.18.33 wrote them for such a folder. The database is opencode's
 * own when it exists (made by opencode as the target), else one made from the schema and
 * migrations the real opencode left (fixtures/real/opencode/schema.sql, migrations.json).
 */
function plantOpencode(sandbox: Sandbox): { path: string; id: string } {
  const recorded = JSON.parse(readFileSync(join(REPO, OPENCODE, "session.json"), "utf8")) as Record<string, Row[]>;
  const from = `${SCRATCH_ROOT}/opencode-transcript/project`;
  const project = recorded.project?.[0];
  const session = recorded.session?.[0];
  must(project !== undefined && session !== undefined, `${OPENCODE}/session.json holds no project or no session`);
  const moved = (value: string | number | null) =>
    typeof value === "string"
      ? value.replaceAll(`"root":"${from}"`, '"root":"/"').replaceAll(from, sandbox.project).replaceAll(String(project.id), "global")
      : value;
  const path = opencodeDatabaseIn(sandbox);
  const fresh = !existsSync(path);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    if (fresh) {
      db.exec(readFileSync(join(REPO, OPENCODE, "schema.sql"), "utf8"));
      for (const id of JSON.parse(readFileSync(join(REPO, OPENCODE, "migrations.json"), "utf8")) as string[])
        db.query("INSERT INTO migration (id, time_completed) VALUES (?, ?)").run(id, Number(project.time_created));
    }
    const insert = (table: string, row: Row) => {
      const columns = Object.keys(row);
      db.query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
        ...Object.values(row).map(moved),
      );
    };
    const global = db.query("SELECT 1 FROM project WHERE id = 'global'").get();
    if (!global) insert("project", { ...project, worktree: "/", vcs: null });
    insert("session", { ...session, path: sandbox.project.replace(/^\/+/, "") });
    for (const table of ["message", "part"]) for (const row of recorded[table] ?? []) insert(table, row);
    if (fresh) db.exec("PRAGMA journal_mode = WAL");
  } finally {
    db.close();
  }
  return { path, id: String(session.id) };
}

const opencodeSource: MatrixSource = {
  name: "opencode",
  provider: "fake",
  model: "fake-model",
  fixture: `${OPENCODE}/session.json`,
  place: (sandbox) => {
    const { path, id } = plantOpencode(sandbox);
    const bytes = databaseFiles(path);
    const rows = everyRow(path);
    return {
      path,
      ways: [[id], ["--agent", "opencode"]],
      checkKept: (sameStore) => {
        if (!sameStore) {
          must(databaseFiles(path) === bytes, `opencode's database changed: ${databaseFiles(path)}, was ${bytes}`);
          return "opencode's database kept its bytes";
        }
        const before: [string, unknown[]][] = JSON.parse(rows);
        const after = new Map<string, unknown[]>(JSON.parse(everyRow(path)));
        for (const [table, list] of before)
          must(
            JSON.stringify(after.get(table)?.slice(0, list.length)) === JSON.stringify(list),
            `a row of ${table} that was there changed`,
          );
        return "every row opencode's database held is unchanged";
      },
    };
  },
};

/** Every pinned agent's row, in compat's table's order. */
export const SOURCES: Record<AgentName, MatrixSource> = {
  pi: fileSource("pi", "gpt-5", "openai"),
  omp: fileSource("omp", "gpt-5", "openai"),
  "claude-code": fileSource("claude-code", "claude-sonnet-4-5", "anthropic"),
  // Its `model_provider` (`fake`) is a key of that Codex configuration, no provider of pi's.
  codex: fileSource("codex", "gpt-5", "fake"),
  // A Gemini session names its model with no provider.
  gemini: fileSource("gemini", "gemini-2.5-flash", undefined),
  opencode: opencodeSource,
};
