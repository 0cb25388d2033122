/**
 * Where each agent keeps sessions. The folder names for each cwd below were checked against the
 * agents' own functions, run on the same cwds: pi 0.73.1's getDefaultSessionDir, omp 18.2.3's
 * computeDefaultSessionDir (HOME=/home/me, TMPDIR=/tmp, run from /), and the project-folder
 * function in Claude Code 2.1.328's bundle (its cli code inside the native binary).
 */
import { describe, expect, test } from "bun:test";
import { posix, win32 } from "node:path";
import { claudeCodeLocation, claudeProjectFolderName, claudeProjectFolders } from "./claude-code/location.ts";
import { codexLocation, localDateFolders } from "./codex/location.ts";
import { codexThreadIndex } from "./codex/thread-index.ts";
import { ompBlobFolder, ompFolderName, ompLocation } from "./omp/location.ts";
import { piFolderName, piLocation } from "./pi/location.ts";
import type { AgentHome, AgentLocation, SessionPlace } from "./types.ts";

const HOME: AgentHome = { home: "/home/me", env: {}, tmpdir: "/tmp", runFolder: "/home/me" };
const NOW = new Date("2026-11-30T08:00:00.000Z");
const place = (cwd: string, home: AgentHome = HOME, timestamp = NOW, utcOffsetMinutes = 0): SessionPlace => ({
  ...home,
  cwd,
  timestamp,
  utcOffsetMinutes,
});
const DEEP = `/home/me/${"deep/".repeat(60)}end`;

describe("the folder name each agent gives a cwd", () => {
  test.each([
    // cwd, pi, omp, Claude Code
    ["/home/me/my app", "--home-me-my app--", "-my app", "-home-me-my-app"],
    ["/home/me/projets/café-日本語🚀", "--home-me-projets-café-日本語🚀--", "-projets-café-日本語🚀", "-home-me-projets-caf-------"],
    ["/srv/data:2024/x", "--srv-data-2024-x--", "--srv-data-2024-x--", "-srv-data-2024-x"],
    ["/", "----", "----", "-"],
    ["/home/me", "--home-me--", "-", "-home-me"],
    ["/home/me/app/", "--home-me-app---", "-app", "-home-me-app-"],
    ["/tmp/scratch/x", "--tmp-scratch-x--", "-tmp-scratch-x", "-tmp-scratch-x"],
    ["/home/meadow/app", "--home-meadow-app--", "--home-meadow-app--", "-home-meadow-app"],
    ["C:\\Users\\me\\app", "--C--Users-me-app--", "--C--Users-me-app--", "C--Users-me-app"],
  ])("%p: pi %p, omp %p, Claude Code %p", (cwd, pi, omp, claude) => {
    expect(piFolderName(cwd)).toBe(pi);
    expect(ompFolderName(cwd, HOME.home, HOME.tmpdir)).toBe(omp);
    expect(claudeProjectFolderName(cwd)).toBe(claude);
  });

  test("omp on Windows: a cwd inside a Windows home is home-relative too", () => {
    expect(ompFolderName("C:\\Users\\me\\src\\app", "C:\\Users\\me", "C:\\Temp")).toBe("-src-app");
    expect(ompFolderName("C:\\Temp\\x", "C:\\Users\\me", "C:\\Temp")).toBe("-tmp-x");
  });

  test("a very long cwd: pi and omp keep every character; Claude Code cuts at 200 and adds a hash of the whole cwd", () => {
    expect(piFolderName(DEEP)).toBe(`--home-me-${"deep-".repeat(60)}end--`);
    expect(ompFolderName(DEEP, HOME.home, HOME.tmpdir)).toBe(`-${"deep-".repeat(60)}end`);
    expect(claudeProjectFolderName(DEEP)).toBe(`${`-home-me-${"deep-".repeat(60)}`.slice(0, 200)}-mmbgw5`);
  });

  test.each([
    ["200 characters: kept whole", `/${"z".repeat(199)}`, `-${"z".repeat(199)}`],
    ["201: cut, and the hash added", `/${"z".repeat(200)}`, `-${"z".repeat(199)}-6zubpt`],
    ["ASCII", `/tmp/${"x".repeat(300)}`, `-tmp-${"x".repeat(195)}-uqvuhz`],
    ["CJK and an emoji (two code units, two dashes)", `/home/me/${"日本語🚀".repeat(60)}`, `${"-home-me-"}${"-".repeat(191)}-quptka`],
    ["Windows, with spaces", `C:\\Users\\me\\${"a b".repeat(90)}`, `${`C--Users-me-${"a-b".repeat(90)}`.slice(0, 200)}-lcaihh`],
  ])("Claude Code, %s", (_, cwd, expected) => {
    expect(claudeProjectFolderName(cwd)).toBe(expected);
    expect(claudeProjectFolderName(cwd).length).toBeLessThanOrEqual(207);
  });
});

describe("the folders, with each agent's overrides", () => {
  test.each<[string, AgentLocation, Record<string, string>, string[], string[]]>([
    ["pi", piLocation, {}, ["/home/me", ".pi", "agent", "sessions"], ["/home/me", ".pi", "agent", "sessions", "--w--"]],
    ["pi, PI_CODING_AGENT_DIR", piLocation, { PI_CODING_AGENT_DIR: "/opt/pi" }, ["/opt/pi", "sessions"], ["/opt/pi", "sessions", "--w--"]],
    [
      "pi, PI_CODING_AGENT_DIR with ~",
      piLocation,
      { PI_CODING_AGENT_DIR: "~/pi-agent" },
      ["/home/me/pi-agent", "sessions"],
      ["/home/me/pi-agent", "sessions", "--w--"],
    ],
    ["pi, PI_CODING_AGENT_DIR=~", piLocation, { PI_CODING_AGENT_DIR: "~" }, ["/home/me", "sessions"], ["/home/me", "sessions", "--w--"]],
    [
      "pi, PI_CODING_AGENT_SESSION_DIR: one folder for every cwd",
      piLocation,
      { PI_CODING_AGENT_DIR: "/opt/pi", PI_CODING_AGENT_SESSION_DIR: "~/s" },
      ["/home/me/s"],
      ["/home/me/s"],
    ],
    [
      "pi, empty variables count as unset",
      piLocation,
      { PI_CODING_AGENT_DIR: "", PI_CODING_AGENT_SESSION_DIR: "" },
      ["/home/me", ".pi", "agent", "sessions"],
      ["/home/me", ".pi", "agent", "sessions", "--w--"],
    ],
    ["omp", ompLocation, {}, ["/home/me", ".omp", "agent", "sessions"], ["/home/me", ".omp", "agent", "sessions", "--w--"]],
    [
      "omp, PI_CODING_AGENT_DIR (no ~ expansion in omp)",
      ompLocation,
      { PI_CODING_AGENT_DIR: "~/o" },
      ["~/o", "sessions"],
      ["~/o", "sessions", "--w--"],
    ],
    [
      "omp, PI_CONFIG_DIR",
      ompLocation,
      { PI_CONFIG_DIR: ".config/omp" },
      ["/home/me", ".config/omp", "agent", "sessions"],
      ["/home/me", ".config/omp", "agent", "sessions", "--w--"],
    ],
    [
      "omp, OMP_PROFILE: the profile's folder, PI_CODING_AGENT_DIR ignored",
      ompLocation,
      { OMP_PROFILE: "work", PI_CODING_AGENT_DIR: "/opt/o" },
      ["/home/me", ".omp", "profiles", "work", "agent", "sessions"],
      ["/home/me", ".omp", "profiles", "work", "agent", "sessions", "--w--"],
    ],
    [
      "omp, PI_PROFILE when OMP_PROFILE is unset",
      ompLocation,
      { PI_PROFILE: " work " },
      ["/home/me", ".omp", "profiles", "work", "agent", "sessions"],
      ["/home/me", ".omp", "profiles", "work", "agent", "sessions", "--w--"],
    ],
    [
      "omp, an empty OMP_PROFILE is the default profile, whatever PI_PROFILE says",
      ompLocation,
      { OMP_PROFILE: "", PI_PROFILE: "work" },
      ["/home/me", ".omp", "agent", "sessions"],
      ["/home/me", ".omp", "agent", "sessions", "--w--"],
    ],
    [
      "omp, OMP_PROFILE=default",
      ompLocation,
      { OMP_PROFILE: "default" },
      ["/home/me", ".omp", "agent", "sessions"],
      ["/home/me", ".omp", "agent", "sessions", "--w--"],
    ],
    [
      "omp, a profile name omp refuses",
      ompLocation,
      { OMP_PROFILE: "../etc" },
      ["/home/me", ".omp", "agent", "sessions"],
      ["/home/me", ".omp", "agent", "sessions", "--w--"],
    ],
    ["Claude Code", claudeCodeLocation, {}, ["/home/me", ".claude", "projects"], ["/home/me", ".claude", "projects", "-w"]],
    [
      "Claude Code, CLAUDE_CONFIG_DIR",
      claudeCodeLocation,
      { CLAUDE_CONFIG_DIR: "/etc/claude" },
      ["/etc/claude", "projects"],
      ["/etc/claude", "projects", "-w"],
    ],
    ["Codex", codexLocation, {}, ["/home/me", ".codex", "sessions"], ["/home/me", ".codex", "sessions", "2026", "11", "30"]],
    [
      "Codex, CODEX_HOME",
      codexLocation,
      { CODEX_HOME: "/srv/codex" },
      ["/srv/codex", "sessions"],
      ["/srv/codex", "sessions", "2026", "11", "30"],
    ],
    [
      "Codex, an empty CODEX_HOME",
      codexLocation,
      { CODEX_HOME: "" },
      ["/home/me", ".codex", "sessions"],
      ["/home/me", ".codex", "sessions", "2026", "11", "30"],
    ],
  ])("%s", (_, location, env, root, folder) => {
    const home = { ...HOME, env };
    expect(location.sessionsRoot(home)).toEqual(root);
    expect(location.sessionFolder(place("/w", home))).toEqual(folder);
  });

  test.each<[Record<string, string>, string[]]>([
    [{}, ["/home/me", ".omp", "agent", "blobs"]],
    [{ PI_CODING_AGENT_DIR: "/opt/o" }, ["/opt/o", "blobs"]],
    [{ OMP_PROFILE: "work" }, ["/home/me", ".omp", "profiles", "work", "agent", "blobs"]],
  ])("omp's blobs sit in its agent folder: %p", (env, folder) => {
    expect(ompBlobFolder({ ...HOME, env })).toEqual(folder);
  });
});

/**
 * `CLAUDE_CODE_PROJECT_DIR_NAME`, by Claude Code 2.1.328's own rule (its bundle: the name counts
 * only while CLAUDE_CONFIG_DIR is set, and must match /^[A-Za-z0-9_-]{1,64}$/ and be no Windows
 * device name; otherwise the cwd's folder is used, silently). The named folder is where a new
 * session goes; the cwd's own folder is still read.
 */
describe("Claude Code's project folder for a cwd follows CLAUDE_CODE_PROJECT_DIR_NAME", () => {
  const OWN = "-home-me-app";
  const CFG = "/srv/claude";
  test.each<[string, Record<string, string>, string, string[]]>([
    ["unset", { CLAUDE_CONFIG_DIR: CFG }, OWN, []],
    ["a valid name", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "shop_2-x" }, "shop_2-x", [OWN]],
    ["64 characters", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "a".repeat(64) }, "a".repeat(64), [OWN]],
    ["65 characters: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "a".repeat(65) }, OWN, []],
    ["empty: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "" }, OWN, []],
    ["a dot: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "my.proj" }, OWN, []],
    ["a slash: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "a/b" }, OWN, []],
    ["a step up: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: ".." }, OWN, []],
    ["a space around it: ignored (not trimmed)", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: " shop" }, OWN, []],
    ["a letter outside ASCII: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "café" }, OWN, []],
    ["a Windows device name: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "NUL" }, OWN, []],
    ["com1: ignored", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "com1" }, OWN, []],
    ["a device name with more after it is a name", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: "console" }, "console", [OWN]],
    ["without CLAUDE_CONFIG_DIR: ignored", { CLAUDE_CODE_PROJECT_DIR_NAME: "shop" }, OWN, []],
    ["with an empty CLAUDE_CONFIG_DIR: ignored", { CLAUDE_CONFIG_DIR: "", CLAUDE_CODE_PROJECT_DIR_NAME: "shop" }, OWN, []],
    ["the cwd's own folder name: one folder", { CLAUDE_CONFIG_DIR: CFG, CLAUDE_CODE_PROJECT_DIR_NAME: OWN }, OWN, []],
  ])("%s", (_, env, writes, alsoReads) => {
    expect(claudeProjectFolders("/home/me/app", env)).toEqual({ writes, alsoReads });
    const where = place("/home/me/app", { ...HOME, env });
    const root = env.CLAUDE_CONFIG_DIR ? [CFG, "projects"] : ["/home/me", ".claude", "projects"];
    expect(claudeCodeLocation.sessionFolder(where)).toEqual([...root, writes]);
    expect(claudeCodeLocation.alsoFindsSessionsIn?.(where)).toEqual(alsoReads.map((name) => [...root, name]));
  });
});

describe("Codex files a session under the user's local date", () => {
  test.each<[string, string, number, [string, string, string]]>([
    ["UTC", "2026-11-30T08:00:00.000Z", 0, ["2026", "11", "30"]],
    ["late evening in New York is the next day in UTC", "2026-12-01T03:30:00.000Z", -300, ["2026", "11", "30"]],
    ["early morning in Kiritimati (+14) is the previous day in UTC", "2026-11-30T12:00:00.000Z", 840, ["2026", "12", "01"]],
    ["Baker Island (-12)", "2026-01-01T11:59:59.999Z", -720, ["2025", "12", "31"]],
    ["India (+5:30), across midnight", "2028-02-28T18:30:00.000Z", 330, ["2028", "02", "29"]],
    ["the year 900", "0900-03-04T00:00:00.000Z", 0, ["0900", "03", "04"]],
  ])("%s", (_, iso, offset, expected) => {
    expect(localDateFolders(new Date(iso), offset)).toEqual(expected);
    expect(codexLocation.sessionFolder(place("/w", HOME, new Date(iso), offset)).slice(-3)).toEqual(expected);
  });
});

describe("what a cwd makes is always one folder name", () => {
  // (An empty cwd names no folder at all: cli refuses it before asking, see cli/sessions/agent-home.ts.)
  const ODD = [
    "/home/me/my app",
    "/home/me/a/../b",
    "..",
    ".",
    "/a//b///",
    "C:\\Users\\me",
    "\\\\server\\share\\x",
    "/home/me/\u0000x",
    "/x/\u202eevil",
    DEEP,
    "relative/dir",
    "/home/me/日本語",
  ];
  const LOCATIONS: [string, AgentLocation][] = [
    ["pi", piLocation],
    ["omp", ompLocation],
    ["Claude Code", claudeCodeLocation],
    ["Codex", codexLocation],
  ];
  test.each(LOCATIONS.flatMap(([name, location]) => ODD.map((cwd) => [name, cwd, location] as const)))("%s, cwd %p", (_, cwd, location) => {
    const root = location.sessionsRoot(HOME);
    const folder = location.sessionFolder(place(cwd));
    // The agent's root, then names the cwd or the date gave: none empty, none a separator or a step up.
    expect(folder.slice(0, root.length)).toEqual([...root]);
    for (const name of folder.slice(root.length)) {
      expect(name).not.toMatch(/[/\\]/);
      expect(["", ".", ".."]).not.toContain(name);
    }
  });
});

/**
 * Windows paths, by the rules above (the agents were not run on Windows): every separator and
 * the drive's colon become `-`, and the folders are segments that node:path joins with the
 * platform's separator, so nothing here assumes `/`.
 */
describe("Windows paths: separators and drive letters", () => {
  test.each([
    // cwd, pi, omp (home /home/me), Claude Code
    ["D:\\", "--D----", "--D----", "D--"],
    ["c:\\Users\\me\\app", "--c--Users-me-app--", "--c--Users-me-app--", "c--Users-me-app"],
    ["C:/Users/me/app", "--C--Users-me-app--", "--C--Users-me-app--", "C--Users-me-app"],
    ["\\\\server\\share\\x", "---server-share-x--", "---server-share-x--", "--server-share-x"],
  ])("%p: pi %p, omp %p, Claude Code %p", (cwd, pi, omp, claude) => {
    expect(piFolderName(cwd)).toBe(pi);
    expect(ompFolderName(cwd, HOME.home, HOME.tmpdir)).toBe(omp);
    expect(claudeProjectFolderName(cwd)).toBe(claude);
  });

  const windowsHome: AgentHome = {
    home: "C:\\Users\\me",
    env: {},
    tmpdir: "C:\\Users\\me\\AppData\\Local\\Temp",
    runFolder: "C:\\Users\\me",
  };
  test.each<[string, AgentLocation, string]>([
    ["pi", piLocation, "C:\\Users\\me\\.pi\\agent\\sessions\\--C--Users-me-src-app--"],
    ["omp", ompLocation, "C:\\Users\\me\\.omp\\agent\\sessions\\-src-app"],
    ["Claude Code", claudeCodeLocation, "C:\\Users\\me\\.claude\\projects\\C--Users-me-src-app"],
    ["Codex", codexLocation, "C:\\Users\\me\\.codex\\sessions\\2026\\11\\30"],
  ])("%s: a session of C:\\Users\\me\\src\\app goes in %p", (_, location, folder) => {
    expect(win32.join(...location.sessionFolder(place("C:\\Users\\me\\src\\app", windowsHome)))).toBe(folder);
  });
});

describe("Codex's folder, as Codex 0.169's find_codex_home takes CODEX_HOME", () => {
  // Run from /work/app, home /home/me: where Codex keeps sessions, its config and (by default) its thread index.
  const RUN: AgentHome = { home: "/home/me", env: {}, tmpdir: "/tmp", runFolder: "/work/app" };
  test.each<[string, string | undefined, string]>([
    ["not set: ~/.codex", undefined, "/home/me/.codex"],
    ["empty: not set", "", "/home/me/.codex"],
    ["absolute: as it is", "/srv/codex", "/srv/codex"],
    ["relative: in the folder the run works in", "state/codex", "/work/app/state/codex"],
    ["relative with . and ..", "./a/../codex", "/work/app/codex"],
    ["~/…: no ~ expansion, a folder named ~", "~/.codex", "/work/app/~/.codex"],
    ["~ alone: a folder named ~", "~", "/work/app/~"],
    ["one blank: not trimmed", " ", "/work/app/ "],
  ])("%s", (_what, value, folder) => {
    const home: AgentHome = { ...RUN, env: value === undefined ? {} : { CODEX_HOME: value } };
    expect(posix.join(...codexLocation.sessionsRoot(home))).toBe(`${folder}/sessions`);
    expect(posix.join(...codexLocation.sessionFolder({ ...home, cwd: "/elsewhere", timestamp: NOW, utcOffsetMinutes: 0 }))).toBe(
      `${folder}/sessions/2026/11/30`,
    );
    const index = codexThreadIndex;
    expect(posix.join(...index.configFile(home))).toBe(`${folder}/config.toml`);
    expect(posix.join(...index.database(home, undefined, { content: "", currentFolder: "/x" }))).toBe(`${folder}/state_5.sqlite`);
  });

  test("a Windows CODEX_HOME is absolute too", () => {
    const home: AgentHome = { home: "C:\\Users\\me", env: { CODEX_HOME: "D:\\codex" }, tmpdir: "C:\\Temp", runFolder: "C:\\work" };
    expect(win32.join(...codexLocation.sessionsRoot(home))).toBe("D:\\codex\\sessions");
  });
});

describe("the name an agent reads a session's id from, as messages spell it", () => {
  const UUID = "0190e7a0-3c4d-7e8f-9a0b-1c2d3e4f5a6b";
  test.each<[string, AgentLocation, string | undefined]>([
    ["pi", piLocation, undefined],
    ["omp", ompLocation, undefined],
    ["Claude Code", claudeCodeLocation, "<uuid>.jsonl"],
    ["Codex", codexLocation, "rollout-<time>-<uuid>.jsonl"],
  ])("%s: %p, and a name made by it gives the uuid as the id", (_, location, nameWithId) => {
    const layout = location.sessionFiles(HOME);
    expect(layout.nameWithId).toBe(nameWithId);
    // Present exactly with idInName, and true to it: the name filled in reads back as the id.
    expect(layout.idInName === undefined).toBe(nameWithId === undefined);
    if (nameWithId === undefined) return;
    const name = nameWithId.replace("<uuid>", UUID).replace("<time>", "2026-11-30T08-00-00");
    expect(layout.idInName?.(name)).toBe(UUID);
    expect(layout.isSessionName(name)).toBe(true);
  });
});
