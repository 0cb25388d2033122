import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TempFiles } from "../io/temp-file.ts";
import { AgentError, FORMATS, type AgentHome, type SessionFormat } from "../../core/index.ts";
import {
  createFolders,
  destinationFolder,
  idNamingOf,
  listedByAgent,
  newSessionPlace,
  removeCreatedFolders,
  writeNewSession,
  type DestinationInput,
  type NewSessionPlace,
} from "./new-session-place.ts";

const HOME: AgentHome = { home: "/home/me", env: {}, tmpdir: "/tmp", runFolder: "/home/me" };
const NOW = new Date("2026-11-30T08:00:00.000Z");

/** A format whose folder for a cwd is `/agents/<name>/<cwd's last name>`. */
const format = (name: "pi" | "omp" | "claude-code" | "codex"): SessionFormat => {
  const real = FORMATS.find((f) => f.name === name) ?? FORMATS[0];
  if (!real) throw new Error("the table is empty");
  return {
    ...real,
    name,
    label: `Agent ${name}`,
    location: {
      ...real.location,
      sessionsRoot: () => ["/agents", name],
      sessionFolder: (p) => ["/agents", name, p.cwd.split("/").at(-1) ?? ""],
    },
  };
};

/** The same, for an agent that finds a session by id only in its own folder (Claude Code, Codex). */
const onlyInItsFolder = (name: "claude-code" | "codex"): SessionFormat => {
  const stand = format(name);
  return { ...stand, location: { ...stand.location, findsSessionsOnlyInItsFolder: true } };
};

const input = (overrides: Partial<DestinationInput>): DestinationInput => ({
  sourcePath: "/home/me/.pi/agent/sessions/--w--/s.jsonl",
  sourceFormat: format("pi"),
  target: format("pi"),
  cwd: "/work/app",
  home: HOME,
  currentFolder: "/somewhere",
  ...overrides,
});

describe("destinationFolder: where the new session goes when -o does not say", () => {
  test.each<[string, Partial<DestinationInput>, string]>([
    ["the same agent: beside the source", {}, "/home/me/.pi/agent/sessions/--w--"],
    ["the same agent, read from a stream: the current folder", { sourcePath: undefined }, "/somewhere"],
    ["another agent: its own folder for the source's cwd", { target: format("omp") }, "/agents/omp/app"],
    ["another agent, from a stream: its folder too", { target: format("codex"), sourcePath: undefined }, "/agents/codex/app"],
    ["the same agent with no cwd: beside the source still", { cwd: undefined }, "/home/me/.pi/agent/sessions/--w--"],
    [
      "the same agent, one that finds sessions only in its folder: that folder, wherever the source lies",
      { sourcePath: "/tmp/export/s.jsonl", sourceFormat: onlyInItsFolder("claude-code"), target: onlyInItsFolder("claude-code") },
      "/agents/claude-code/app",
    ],
    [
      "the same, from a stream",
      { sourcePath: undefined, sourceFormat: onlyInItsFolder("codex"), target: onlyInItsFolder("codex") },
      "/agents/codex/app",
    ],
  ])("%s", (_, overrides, folder) => {
    expect(destinationFolder(input(overrides), NOW)).toBe(folder);
  });

  test.each([undefined, ""])("another agent and a cwd of %p: a usage error saying to use -o", (cwd) => {
    expect(() => destinationFolder(input({ target: format("claude-code"), cwd }), NOW)).toThrow(
      new AgentError(
        "USAGE",
        "the session records no working directory (or not an absolute one), so there is no Agent claude-code folder for it; say where the new session goes with -o",
      ),
    );
  });

  test("a folder name no file system takes (a deep cwd, named whole) is refused before anything is asked", () => {
    const deep = `/work/${"deep/".repeat(60)}x`;
    const long = {
      ...format("omp"),
      location: {
        ...format("omp").location,
        sessionsRoot: () => ["/a"],
        sessionFolder: (p: { cwd: string }) => ["/a", p.cwd.replaceAll("/", "-")],
      },
    };
    expect(() => destinationFolder(input({ target: long, cwd: deep }), NOW)).toThrow(
      "Agent omp would name a folder after the cwd with more than 255 bytes, which no file system takes; say where the new session goes with -o",
    );
    expect(() => destinationFolder(input({ target: long, cwd: "/w/a\u0000b" }), NOW)).toThrow(
      "Agent omp would name a folder after the cwd with a NUL character, which no file system takes; say where the new session goes with -o",
    );
  });

  test("the real formats' folders, with the user's time zone for the date", () => {
    // From a Codex source, every other agent's own folder (Codex to Codex goes beside the source).
    for (const target of FORMATS.filter((f) => f.name !== "codex")) {
      const folder = destinationFolder(input({ sourceFormat: format("codex"), target }), NOW);
      expect(folder).toBe(
        join(...target.location.sessionFolder({ ...HOME, cwd: "/work/app", timestamp: NOW, utcOffsetMinutes: -NOW.getTimezoneOffset() })),
      );
    }
  });
});

describe("createFolders: the agent's missing folders, for the user only", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "agent-folders-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("creates every missing folder with mode 0700 and says which was first; an existing one is left as it is", () => {
    mkdirSync(join(dir, "a"), { mode: 0o755 });
    const first = createFolders(join(dir, "a", "b", "c"));
    expect(first).toBe(join(dir, "a", "b"));
    for (const folder of [join(dir, "a", "b"), join(dir, "a", "b", "c")]) expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "a")).mode & 0o777).toBe(0o755);
    expect(createFolders(join(dir, "a", "b", "c"))).toBeUndefined();
  });

  test("a file in the way: an error naming the folder", () => {
    writeFileSync(join(dir, "f"), "");
    expect(() => createFolders(join(dir, "f", "x"))).toThrow(`${join(dir, "f", "x")}: a part of the path is not a folder`);
  });

  test("removeCreatedFolders takes back what was created, and only that", () => {
    mkdirSync(join(dir, "a"));
    const first = createFolders(join(dir, "a", "b", "c"));
    removeCreatedFolders(join(dir, "a", "b", "c"), first);
    expect(() => statSync(join(dir, "a", "b"))).toThrow();
    expect(statSync(join(dir, "a")).isDirectory()).toBe(true);
  });

  test("removeCreatedFolders leaves a folder someone wrote into", () => {
    const first = createFolders(join(dir, "a", "b"));
    writeFileSync(join(dir, "a", "other"), "");
    removeCreatedFolders(join(dir, "a", "b"), first);
    expect(() => statSync(join(dir, "a", "b"))).toThrow();
    expect(statSync(join(dir, "a", "other")).isFile()).toBe(true);
  });
});

describe("which agents find a session only in their own folder", () => {
  test("Claude Code, Codex and Gemini CLI do (resume by id, pickers); pi and omp open a file anywhere; opencode keeps rows, no files", () => {
    expect(FORMATS.map((f) => [f.name, f.location.findsSessionsOnlyInItsFolder === true])).toEqual([
      ["pi", false],
      ["omp", false],
      ["claude-code", true],
      ["codex", true],
      ["gemini", true],
      ["opencode", false],
    ]);
  });
});

describe("newSessionPlace: the one decision, with the id the file's name gives", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "new-session-place-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const real = (name: string): SessionFormat => {
    const found = FORMATS.find((f) => f.name === name);
    if (!found) throw new Error(`no ${name} in the table`);
    return found;
  };
  const UUID = "0190e7a0-3c4d-7e8f-9a0b-1c2d3e4f5a6b";
  /** The place, with the folder function called at NOW, so the table compares plain values. */
  const settle = (place: NewSessionPlace) => ("folder" in place ? { ...place, folder: place.folder(NOW) } : place);
  const byName = (nameNeeded: string) => ({ byName: true, nameNeeded });

  test.each<[string, string | undefined, string, unknown]>([
    ["-o -: stdout", "-", "pi", { stdout: true }],
    [
      "-o a pi file: the file; pi reads the id inside",
      "new.jsonl",
      "pi",
      { path: "new.jsonl", namedId: undefined, naming: { byName: false } },
    ],
    [
      "-o a Claude Code file named by a uuid: the uuid is its id",
      `${UUID}.jsonl`,
      "claude-code",
      { path: `${UUID}.jsonl`, namedId: UUID, naming: byName("<uuid>.jsonl") },
    ],
    [
      "-o a Claude Code file of another name: no id from it",
      "handoff.jsonl",
      "claude-code",
      { path: "handoff.jsonl", namedId: undefined, naming: byName("<uuid>.jsonl") },
    ],
    [
      "-o a Codex rollout name: the uuid at its end",
      `rollout-2026-11-30T08-00-00-${UUID}.jsonl`,
      "codex",
      { path: `rollout-2026-11-30T08-00-00-${UUID}.jsonl`, namedId: UUID, naming: byName("rollout-<time>-<uuid>.jsonl") },
    ],
    ["no -o, pi to pi: beside the source", undefined, "pi", { folder: "/home/me/.pi/agent/sessions/--w--", naming: { byName: false } }],
    [
      "no -o, pi to Claude Code: its project folder for the cwd",
      undefined,
      "claude-code",
      { folder: "/home/me/.claude/projects/-work-app", naming: byName("<uuid>.jsonl") },
    ],
  ])("%s", (_, out, target, expected) => {
    const typed = out === undefined || out === "-" ? out : join(dir, out);
    const place = newSessionPlace(
      { ...input({ sourceFormat: real("pi"), target: real(target) }), sourcePath: "/home/me/.pi/agent/sessions/--w--/s.jsonl", out: typed },
      NOW,
    );
    const want =
      expected && typeof expected === "object" && "path" in expected ? { ...expected, path: join(dir, String(expected.path)) } : expected;
    expect<unknown>(settle(place)).toEqual(want);
  });

  test.each([
    ["an existing file", (p: string) => writeFileSync(p, "x"), "already exists; refusing to overwrite it"],
    ["a folder", (p: string) => mkdirSync(p), "is a folder; -o takes the new session's file name"],
  ])("-o naming %s: refused before anything is asked", (_, make, words) => {
    const path = join(dir, "taken.jsonl");
    make(path);
    expect(() => newSessionPlace({ ...input({}), out: path }, NOW)).toThrow(words);
  });

  test("no -o and no cwd for another agent's folder: the usage error, before anything is asked", () => {
    expect(() => newSessionPlace({ ...input({ target: real("codex"), cwd: undefined }), out: undefined }, NOW)).toThrow(
      "say where the new session goes with -o",
    );
  });

  test("how each agent in the table knows the id: from the name exactly when its layout reads one there", () => {
    for (const format of FORMATS) {
      const layout = format.location.sessionFiles(HOME);
      expect(idNamingOf(format, HOME).byName).toBe(layout.idInName !== undefined);
    }
  });

  test("writeNewSession: into the folder, creating it; the folders it made are taken back when the file cannot be written", () => {
    const folder = join(dir, "a", "b");
    const session = { content: "x\n", fileName: "s.jsonl", sessionId: "s", timestamp: NOW };
    expect(writeNewSession(new TempFiles(process.pid), session, { folder: () => folder, naming: { byName: false } })).toBe(
      join(folder, "s.jsonl"),
    );
    expect(readFileSync(join(folder, "s.jsonl"), "utf8")).toBe("x\n");
    // A name no file system takes fails after the folders are made: they go again, the one that was there stays.
    const tooLong = { ...session, fileName: `${"n".repeat(300)}.jsonl` };
    expect(() =>
      writeNewSession(new TempFiles(process.pid), tooLong, { folder: () => join(dir, "a", "c", "d"), naming: { byName: false } }),
    ).toThrow("could not write the new session");
    expect(existsSync(join(dir, "a", "c"))).toBe(false);
    expect(existsSync(folder)).toBe(true);
  });
});

describe("listedByAgent: whether the agent's own scan takes the new file as that session (then it gets a row in the agent's index)", () => {
  const UUID = "0190e7a0-3c4d-7e8f-9a0b-1c2d3e4f5a6b";
  const OTHER = "0190e7a0-3c4d-7e8f-9a0b-000000000000";
  const real = (name: string): SessionFormat => FORMATS.find((f) => f.name === name) ?? format("pi");
  const rollout = `rollout-2026-11-30T08-00-00-${UUID}.jsonl`;
  test.each<[string, string, string, string, boolean]>([
    ["Codex, in its dated folder, named by the id", "codex", `/home/me/.codex/sessions/2026/11/30/${rollout}`, UUID, true],
    ["Codex, named by another id", "codex", `/home/me/.codex/sessions/2026/11/30/${rollout}`, OTHER, false],
    ["Codex, one folder too shallow", "codex", `/home/me/.codex/sessions/2026/11/${rollout}`, UUID, false],
    ["Codex, outside its sessions", "codex", `/tmp/${rollout}`, UUID, false],
    ["Codex, a name it does not resume by", "codex", "/home/me/.codex/sessions/2026/11/30/handoff.jsonl", UUID, false],
    ["Claude Code, in a project folder", "claude-code", `/home/me/.claude/projects/-work-app/${UUID}.jsonl`, UUID, true],
    ["pi, any name in a cwd's folder", "pi", "/home/me/.pi/agent/sessions/--work-app--/new.jsonl", UUID, true],
  ])("%s: %p", (_, name, path, id, listed) => {
    expect(listedByAgent(real(name), path, id, HOME)).toBe(listed);
  });
});
