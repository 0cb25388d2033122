import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentError, FORMATS, type AgentHome, type SessionFormat } from "../core/index.ts";
import { createFolders, destinationFolder, removeCreatedFolders, type DestinationInput } from "./agent-home.ts";

const HOME: AgentHome = { home: "/home/me", env: {}, tmpdir: "/tmp" };
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
  test("Claude Code and Codex do (resume by id, pickers); pi and omp open a file anywhere", () => {
    expect(FORMATS.map((f) => [f.name, f.location.findsSessionsOnlyInItsFolder === true])).toEqual([
      ["pi", false],
      ["omp", false],
      ["claude-code", true],
      ["codex", true],
    ]);
  });
});
