import { PrintedFilter } from "../output/printed.ts";
/**
 * `agent handoff --pick`: the list (in process), the usage errors (spawned without a terminal),
 * and the picker itself through a real terminal: tmux runs the CLI, the test types a search,
 * chooses, and reads which session was handed off (the terminal is the subject here, so it is spawned).
 */
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findFormat, type SessionGlance } from "../../core/index.ts";
import { realOpencodeDatabase } from "../../fixtures/opencode-db.ts";
import { writePickHome, type PickSession } from "../../fixtures/pick-home.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import type { FoundSession } from "./found-session.ts";
import { listForPicking, matchesSearch } from "./pick-list.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

let root: string;
let home: string;
let folders: { app: string; web: string };
let sessions: PickSession[];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "agent-pick-")));
  home = join(root, "home");
  folders = { app: join(root, "app"), web: join(root, "web") };
  for (const folder of [home, folders.app, folders.web]) mkdirSync(folder);
  sessions = writePickHome(home, folders);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function found(path: string, glance: Partial<SessionGlance>, mtimeMs: number): FoundSession {
  const format = findFormat("pi");
  if (format === undefined) throw new Error("no pi format");
  return { format, path, bytes: 1, textBytes: 1, mtimeMs, glance: { id: "id", ...glance } as SessionGlance };
}

describe("the list --pick shows", () => {
  const here = (s: FoundSession) => s.glance.cwd === "/p/app";
  const list = [
    found("/s/1", { id: "aaa1", cwd: "/p/web", firstRequest: "Newest, elsewhere" }, 5),
    found("/s/2", { id: "bbb2", cwd: "/p/app", firstRequest: "Older, here" }, 2),
    found("/s/3", { id: "ccc3", cwd: "/p/app", title: "Newer, here" }, 4),
    found("/s/4", { id: "ddd4", cwd: "/p/other", firstRequest: "Oldest, elsewhere" }, 1),
  ];
  const options = { printed: new PrintedFilter(), here, now: 10, home: "/h", width: 200 };

  test("the current folder's sessions first, then the rest, each part newest first", () => {
    expect(listForPicking(list, options).map((c) => c.path)).toEqual(["/s/3", "/s/2", "/s/1", "/s/4"]);
  });

  test.each([
    ["", ["/s/3", "/s/2", "/s/1", "/s/4"]],
    ["here older", ["/s/2"]],
    ["NEWER", ["/s/3"]],
    ["web", ["/s/1"]],
    ["/p/app older", ["/s/2"]],
    ["ddd4", ["/s/4"]],
    ["elsewhere oldest", ["/s/4"]],
    ["nothing like it", []],
  ])("a search for %j keeps %j (every word, in title, folder or id, any case)", (search, kept) => {
    expect(
      listForPicking(list, options)
        .filter((c) => matchesSearch(search, c))
        .map((c) => c.path),
    ).toEqual(kept);
  });

  test("two sessions of one database (opencode's rows) are two choices, each its own session", () => {
    const format = findFormat("opencode");
    if (format === undefined) throw new Error("no opencode format");
    const row = (id: string, title: string, mtimeMs: number): FoundSession => ({
      format,
      path: "/h/opencode.db",
      bytes: 1,
      textBytes: 1,
      mtimeMs,
      glance: { id, cwd: "/p/app", title, firstRequest: undefined },
      rowId: id,
    });
    const choices = listForPicking([row("ses_one", "First", 1), row("ses_two", "Second", 2)], options);
    expect(choices.map((c) => [c.session.rowId, c.path, matchesSearch("second", c)])).toEqual([
      ["ses_two", "/h/opencode.db", true],
      ["ses_one", "/h/opencode.db", false],
    ]);
  });

  test("a title cannot draw on the terminal: its controls are gone, and the line fits the width", () => {
    const [choice] = listForPicking([found("/s/x", { cwd: "/p/app", title: "Evil \u001b[2J\u001b]0;owned\u0007 title\nsecond line" }, 1)], {
      ...options,
      width: 40,
    });
    expect(choice?.label).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(choice?.label.length).toBeLessThanOrEqual(40);
  });
});

describe("the list --pick shows, at a terminal's width: the title gives way first, so the folder shows", () => {
  const long = "Refactor the session discovery so that every agent's folders are walked once";
  const sessionsIn = (cwd: string) => [
    found("/s/1", { id: "aaa1", cwd, title: long }, 5),
    found("/s/2", { id: "bbb2", cwd: "/h/code/web", firstRequest: "Short" }, 4),
  ];
  // The width is the terminal's less the 6 columns @clack/prompts draws before each row.
  test.each<[string, number, string, string]>([
    ["80 columns, a folder under HOME", 74, "/h/code/app", "~/code/app"],
    ["80 columns, a long folder", 74, "/srv/projects/customer-billing/app", "/srv/projects/customer-billing/app"],
    ["120 columns", 114, "/h/code/app", "~/code/app"],
    ["60 columns", 54, "/h/code/app", "~/code/app"],
  ])("%s: the folder whole, the title cut, the line within the width", (_, width, cwd, shown) => {
    const [first, second] = listForPicking(sessionsIn(cwd), { printed: new PrintedFilter(), here: () => true, now: 10, home: "/h", width });
    expect(first?.label).toEndWith(`  ${shown}`);
    expect(second?.label).toEndWith("  ~/code/web");
    expect(first?.label.length).toBeLessThanOrEqual(width);
    // The titles line up: the agent column starts at the same place on every row.
    expect(first?.label.indexOf("pi ")).toBe(second?.label.indexOf("pi "));
    if (width < 100) expect(first?.label).toContain("…");
  });

  test("a folder longer than the room left is cut in its middle: its start and its last folder show", () => {
    const cwd = `/srv/${"deep/".repeat(20)}app`;
    const [choice] = listForPicking([found("/s/1", { id: "a", cwd, title: "Fix it" }, 1)], {
      printed: new PrintedFilter(),
      here: () => true,
      now: 10,
      home: "/h",
      width: 74,
    });
    expect(choice?.label.length).toBeLessThanOrEqual(74);
    expect(choice?.label).toMatch(/ \/srv\/de.*….*\/app$/);
  });
});

describe("--pick is for a terminal, and names no session itself", () => {
  test.each([
    [
      ["--pick"],
      "--pick shows a list on the terminal, and stdin is not one; name the session instead: a path, --session <id>, or nothing for the newest of this folder (see agent handoff --help)",
    ],
    [
      ["--pick", "some.jsonl"],
      "--pick chooses the session from a list, and some.jsonl names one; leave out one of them (see agent handoff --help)",
    ],
    [
      ["--pick", "--session", "0a1b"],
      "--pick chooses the session from a list, and --session 0a1b names one; leave out one of them (see agent handoff --help)",
    ],
  ])("agent handoff %j: a usage error, exit 2, nothing written", async (args, message) => {
    const before = readdirSync(join(home, ".pi", "agent", "sessions"), { recursive: true }).length;
    const run = await runAgent(["handoff", ...args, "--engine", "offline"], cleanEnv(home), folders.app);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `error: ${message}\n`]);
    expect(readdirSync(join(home, ".pi", "agent", "sessions"), { recursive: true }).length).toBe(before);
  });
});

const TMUX = Bun.which("tmux");

/** A tmux server of the test's own (its own socket), running one command in a terminal 140 (or `columns`) by 30. */
function startTerminal(command: string[], cwd: string, columns = 140) {
  const socket = join(root, "tmux.sock");
  const rc = join(root, "rc");
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const env: Record<string, string> = { ...cleanEnv(home), TERM: "xterm-256color" };
  const exports = Object.entries(env)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(" ");
  // An explicit environment: the server starts with only this one, and the command gets only it.
  // The pane stays open after the CLI ends (until stop), so its last screen can be read.
  const shell = `cd ${quote(cwd)} && env -i ${exports} ${command.map(quote).join(" ")} > ${quote(join(root, "out.json"))}; echo $? > ${quote(rc)}; sleep 30`;
  const tmux = (...args: string[]) =>
    Bun.spawnSync([TMUX ?? "tmux", "-S", socket, ...args], {
      env: { PATH: env.PATH ?? "/usr/bin:/bin", HOME: home, TERM: "xterm-256color" },
    });
  tmux("new-session", "-d", "-x", String(columns), "-y", "30", shell);
  const screen = () => tmux("capture-pane", "-p", "-t", "0").stdout.toString();
  /** Waits (at most 10 s) until `ready` holds for the screen. */
  const waitFor = async (ready: (text: string) => boolean, what: string) => {
    for (let i = 0; i < 100; i++) {
      if (ready(screen())) return;
      await Bun.sleep(100);
    }
    throw new Error(`timed out waiting for ${what}; the screen:\n${screen()}`);
  };
  const exited = async (): Promise<number> => {
    for (let i = 0; i < 150; i++) {
      if (existsSync(rc) && readFileSync(rc, "utf8").trim() !== "") return Number(readFileSync(rc, "utf8").trim());
      await Bun.sleep(100);
    }
    throw new Error(`the CLI did not end; the screen:\n${screen()}`);
  };
  return {
    keys: (...keys: string[]) => tmux("send-keys", "-t", "0", ...keys),
    type: (text: string) => tmux("send-keys", "-t", "0", "-l", text),
    screen,
    waitFor,
    exited,
    stop: () => tmux("kill-server"),
  };
}

/** Every session file under the home, with its size and time: what a cancelled pick must leave as it was. */
function sessionFiles(): string[] {
  return readdirSync(home, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => `${f} ${statSync(join(home, f)).size} ${statSync(join(home, f)).mtimeMs}`)
    .sort();
}

const pickArgs = [...CLI_ARGV, "handoff", "--pick", "--engine", "offline", "--no-record", "--json"];

describe(`agent handoff --pick on a real terminal${TMUX ? "" : " (skipped: tmux is not installed; apt-get install tmux)"}`, () => {
  test.skipIf(!TMUX)("lists every agent's sessions, this folder's first; a search narrows it; Enter hands off the one chosen", async () => {
    const terminal = startTerminal(pickArgs, folders.app);
    try {
      await terminal.waitFor((s) => s.includes("Search:") && s.includes("Document the web routes"), "the list");
      // This folder's two first (newest first), then the other folder's.
      const rows = terminal
        .screen()
        .split("\n")
        .filter((line) => /[●○]/.test(line));
      expect(rows.map((row) => sessions.find((s) => row.includes(s.title))?.title)).toEqual([
        "Fix the CSV parser quoting",
        "Write tests for the lexer",
        "Migrate the billing database",
        "Document the web routes",
      ]);
      expect(rows[2]).toContain("Codex");
      terminal.type("billing");
      await terminal.waitFor((s) => s.includes("(1 match)"), "the search to narrow the list");
      terminal.keys("Enter");
      expect(await terminal.exited()).toBe(0);
      const chosen = sessions.find((s) => s.title === "Migrate the billing database");
      const report = JSON.parse(readFileSync(join(root, "out.json"), "utf8"));
      expect(report.sourceFile).toBe(chosen?.path);
      expect(report.sourceFormat).toBe("codex");
      expect(terminal.screen()).toContain(`Handing off the Codex session ${chosen?.id}`);
    } finally {
      terminal.stop();
    }
  });

  test.skipIf(!TMUX)("offers opencode's sessions too, each of one database its own row; Enter hands off the rows chosen", async () => {
    // The session opencode recorded, and a second one beside it in the same database (its rows copied under new ids).
    const database = realOpencodeDatabase(join(home, ".local", "share", "opencode", "opencode.db"));
    const db = new Database(database);
    const [ID, SECOND] = ["ses_dc59a6705ffeTUmLklH2hW4FHH", "ses_dc59a6705ffeSecondSession"];
    db.query("UPDATE session SET directory = ?, time_updated = ?").run(folders.web, Date.now());
    db.exec(
      `INSERT INTO session (id, project_id, slug, directory, path, title, version, time_created, time_updated) SELECT '${SECOND}', project_id, 'second', directory, path, 'Rename the config loader', version, time_created, time_updated - 1000 FROM session WHERE id = '${ID}';
       INSERT INTO message (id, session_id, time_created, time_updated, data) SELECT id || 'b', '${SECOND}', time_created, time_updated, data FROM message WHERE session_id = '${ID}';
       INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) SELECT id || 'b', message_id || 'b', '${SECOND}', time_created, time_updated, data FROM part WHERE session_id = '${ID}';`,
    );
    db.close();
    const before = readFileSync(database);
    const terminal = startTerminal([...pickArgs, "--to", "pi"], folders.web);
    try {
      await terminal.waitFor((s) => s.includes("Search:") && s.includes("Rename the config loader"), "the list");
      const rows = terminal
        .screen()
        .split("\n")
        .filter((line) => /[●○]/.test(line));
      // This folder's first, newest first: the two opencode sessions (newer than its files), then the rest.
      const opencodeRows = rows.filter((row) => row.includes("opencode"));
      expect(opencodeRows.map((row) => /Listing the files|Rename the config loader/.exec(row)?.[0])).toEqual([
        "Listing the files",
        "Rename the config loader",
      ]);
      expect(rows.slice(0, 2)).toEqual(opencodeRows);
      expect(rows.length).toBe(sessions.length + 2);
      terminal.type("rename");
      await terminal.waitFor((s) => s.includes("(1 match)"), "the search to narrow the list");
      terminal.keys("Enter");
      expect(await terminal.exited()).toBe(0);
      const report = JSON.parse(readFileSync(join(root, "out.json"), "utf8"));
      expect([report.sourceFormat, report.sourceFile, report.sessionFormat]).toEqual(["opencode", null, "pi"]);
      expect(terminal.screen()).toContain(`Handing off the opencode session ${SECOND}`);
      // The source is never written to.
      expect(readFileSync(database).equals(before)).toBe(true);
    } finally {
      terminal.stop();
    }
  });

  test.skipIf(!TMUX)("at 80 columns, every row shows its folder", async () => {
    const terminal = startTerminal(pickArgs, folders.app, 80);
    try {
      await terminal.waitFor((s) => s.includes("Search:") && /[●○]/.test(s), "the list");
      const rows = terminal
        .screen()
        .split("\n")
        .filter((line) => /[●○]/.test(line));
      expect(rows.length).toBe(sessions.length);
      // A folder is cut in its middle only where it cannot fit: its last folder shows on every row.
      for (const row of rows) expect(row).toMatch(/(?:\/app|\/web)\s*$/);
      terminal.keys("Escape");
      expect(await terminal.exited()).toBe(130);
    } finally {
      terminal.stop();
    }
  });

  test.skipIf(!TMUX)("Enter at once hands off this folder's newest session", async () => {
    const terminal = startTerminal(pickArgs, folders.app);
    try {
      await terminal.waitFor((s) => s.includes("Search:"), "the list");
      terminal.keys("Enter");
      expect(await terminal.exited()).toBe(0);
      expect(JSON.parse(readFileSync(join(root, "out.json"), "utf8")).sourceFile).toBe(
        sessions.find((s) => s.title === "Fix the CSV parser quoting")?.path,
      );
    } finally {
      terminal.stop();
    }
  });

  test.skipIf(!TMUX).each([
    ["Esc", "Escape"],
    ["Ctrl-C", "C-c"],
  ])("%s cancels: Handoff cancelled, exit 130, nothing written", async (_, key) => {
    const before = sessionFiles();
    const terminal = startTerminal(pickArgs, folders.web);
    try {
      await terminal.waitFor((s) => s.includes("Search:"), "the list");
      terminal.type("web");
      await terminal.waitFor((s) => s.includes("match"), "the search");
      terminal.keys(key);
      expect(await terminal.exited()).toBe(130);
      expect(terminal.screen()).toContain("Handoff cancelled");
      expect(readFileSync(join(root, "out.json"), "utf8")).toBe("");
      expect(sessionFiles()).toEqual(before);
    } finally {
      terminal.stop();
    }
  });
});
