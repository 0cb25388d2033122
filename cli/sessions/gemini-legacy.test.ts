/**
 * A Gemini CLI session from before JSON Lines (`session-*.json`), where Gemini CLI 0.61.0 keeps
 * and still resumes it: `agent ls`, `agent inspect` and `agent handoff` find and read it, in the
 * folder its project folder's `.project_root` names (the file itself names none); once Gemini has
 * resumed it (copying it into `<name>.jsonl` and going on there), the copy is the session.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";

const NAME = "session-2025-09-18T02-45-3b44bc68.json";
const FIXTURE = join(REPO, "fixtures/sessions/gemini", NAME);
const ID = "3b44bc68-1f2e-4d3c-9a8b-7c6d5e4f3a21";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Home {
  home: string;
  app: string;
  empty: string;
  chats: string;
  file: string;
  env: Record<string, string>;
}

/**
 * A home where Gemini kept the session for `app` as its projects.json, folder and marker say
 * (`folder`: the project folder's name, `marker`: whether it has its `.project_root`).
 */
function setUp(options: { folder?: (app: string) => string; marker?: boolean; registered?: boolean } = {}): Home {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "gemini-legacy-")));
  made.push(home);
  const app = join(home, "work", "app");
  const empty = join(home, "work", "empty");
  for (const dir of [app, empty]) mkdirSync(dir, { recursive: true });
  const folder = options.folder?.(app) ?? "app";
  const gemini = join(home, ".gemini");
  const chats = join(gemini, "tmp", folder, "chats");
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(gemini, "projects.json"), JSON.stringify({ projects: options.registered === false ? {} : { [app]: "app" } }, null, 2));
  if (options.marker !== false) writeFileSync(join(gemini, "tmp", folder, ".project_root"), app);
  const file = join(chats, NAME);
  copyFileSync(FIXTURE, file);
  utimesSync(file, 1_790_000_000, 1_790_000_000);
  return { home, app, empty, chats, file, env: cleanEnv(home) };
}

/** The `.jsonl` file Gemini 0.61.0 writes beside a `.json` session when it resumes it, with one more turn. */
function resumeInGemini(h: Home): string {
  const record = JSON.parse(readFileSync(h.file, "utf8"));
  const { messages, ...metadata } = record;
  const more = { id: "m-0100", timestamp: "2026-12-01T10:00:00.000Z", type: "user", content: [{ text: "One more thing." }] };
  const copy = `${h.file}l`;
  writeFileSync(copy, [metadata, ...messages, { $set: { sessionId: ID } }, more].map((line) => `${JSON.stringify(line)}\n`).join(""));
  utimesSync(copy, 1_790_000_100, 1_790_000_100);
  return copy;
}

describe("a Gemini CLI session from before JSON Lines", () => {
  test("agent ls in its project lists it, with the folder its project folder's marker names, its summary and size", async () => {
    const h = setUp();
    const run = await runAgent(["ls", "--json"], h.env, h.app);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const bytes = readFileSync(h.file).length;
    expect(JSON.parse(run.stdout)).toEqual([
      {
        agent: "gemini",
        id: ID,
        path: h.file,
        cwd: h.app,
        updated: new Date(1_790_000_000_000).toISOString(),
        bytes,
        estimatedTokens: Math.ceil(bytes / 4),
        title: "Fix the greeting typo and the failing test",
      },
    ]);
  });

  test.each<[string, string[], (h: Home) => string]>([
    ["the newest of the folder", [], (h) => h.app],
    ["--agent gemini", ["--agent", "gemini"], (h) => h.app],
    ["--session with the start of its id, from another folder", ["--session", "3b44"], (h) => h.empty],
    ["its path", [], (h) => h.empty],
  ])("agent handoff reads it (%s): its turns, and the failed command in Session Facts", async (what, args, where) => {
    const h = setUp();
    const words = what === "its path" ? [h.file] : args;
    const run = await runAgent(["handoff", ...words, "--dry-run", "--engine", "offline"], h.env, where(h));
    expect(run.code).toBe(0);
    // Found, it is named; named by its path, it needs no naming.
    if (what !== "its path") expect(run.stderr).toContain(`Gemini CLI session ${ID}, updated `);
    expect(run.stdout).toContain(`- Source session: \`${h.file}\``);
    expect(run.stdout).toContain("`npm test` → exit 1, failed");
    expect(run.stdout).toContain("Keep the comma and make the test pass.");
  });

  test("handed off to pi from another folder: the new session works in the folder the marker names", async () => {
    const h = setUp();
    const before = readFileSync(h.file);
    const run = await runAgent(["handoff", "--session", ID, "--to", "pi", "--engine", "offline", "--json"], h.env, h.empty);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.resume.cwd).toBe(h.app);
    expect(JSON.parse(readFileSync(out.sessionFile, "utf8").split("\n")[0] ?? "{}").cwd).toBe(h.app);
    expect(readFileSync(h.file).equals(before)).toBe(true);
  });

  test("agent inspect names the format, the id and the folder", async () => {
    const h = setUp();
    const run = await runAgent(["inspect", h.file, "--json"], h.env, h.empty);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect([report.format, report.sessionId, report.cwd]).toEqual(["gemini", ID, h.app]);
  });

  test("agent ls of its chats folder lists it", async () => {
    const h = setUp();
    const run = await runAgent(["ls", "--json", h.chats], h.env, h.empty);
    expect(JSON.parse(run.stdout).map((s: { id: string; path: string }) => [s.id, s.path])).toEqual([[ID, h.file]]);
  });

  test("once Gemini resumed it, the .jsonl copy it went on in is the session: listed once, found by id, read with the new turn", async () => {
    const h = setUp();
    const copy = resumeInGemini(h);
    for (const args of [
      ["ls", "--json"],
      ["ls", "--json", h.chats],
    ]) {
      const run = await runAgent(args, h.env, h.app);
      expect(JSON.parse(run.stdout).map((s: { path: string }) => s.path)).toEqual([copy]);
    }
    const run = await runAgent(["handoff", "--session", "3b44", "--dry-run", "--engine", "offline"], h.env, h.empty);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`: ${copy}\n`);
    expect(run.stdout).toContain("One more thing.");
  });

  test("a project folder without its marker (one Gemini has not opened since it named folders so): found by id, listed in no folder", async () => {
    const h = setUp({ folder: () => "74d183f21dfe12a588e780390a4017d329760d8d925082557e1b71f6d9526876", marker: false });
    const here = await runAgent(["ls", "--json"], h.env, h.app);
    expect(here.stdout).toBe("[]\n");
    const all = await runAgent(["ls", "--json", "--all"], h.env, h.app);
    expect(JSON.parse(all.stdout).map((s: { id: string; cwd: unknown }) => [s.id, s.cwd])).toEqual([[ID, null]]);
    const run = await runAgent(["handoff", "--session", "3b44", "--dry-run", "--engine", "offline"], h.env, h.empty);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`: ${h.file}\n`);
  });

  // Before projects.json Gemini named a project's folder by the SHA-256 of its path (and copies it
  // into the named one when it next starts there): that name says whose it is.
  const sha256 = (path: string) => createHash("sha256").update(path).digest("hex");
  test.each([
    ["projects.json names the path: listed under it from anywhere", true, "empty", ["app"]],
    ["projects.json names the path: listed in its folder", true, "app", ["app"]],
    ["only the folder listed is that path: listed there", false, "app", ["app"]],
    ["no path known has that hash: listed in no folder", false, "empty", [null]],
  ] as const)("a folder named by the hash of its path: %s", async (_, registered, where, cwds) => {
    const h = setUp({ folder: sha256, marker: false, registered });
    const run = await runAgent(["ls", "--json", ...(where === "empty" ? ["--all"] : [])], h.env, where === "empty" ? h.empty : h.app);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).map((s: { id: string; cwd: unknown }) => [s.id, s.cwd === h.app ? "app" : s.cwd])).toEqual(
      cwds.map((cwd) => [ID, cwd]),
    );
  });
});

describe("a Gemini CLI session in a folder named by the hash of its path, handed off", () => {
  const sha256 = (path: string) => createHash("sha256").update(path).digest("hex");
  // The same rule as agent ls: projects.json names the path, or the folder the handoff runs in is that path.
  test.each([
    ["projects.json names the path, run from another folder", true, "empty"],
    ["run in that path, projects.json naming none", false, "app"],
  ] as const)("to pi (%s): the new session works in the path whose hash the folder is", async (_, registered, where) => {
    const h = setUp({ folder: sha256, marker: false, registered });
    const before = readFileSync(h.file);
    const run = await runAgent(
      ["handoff", "--session", ID, "--to", "pi", "--engine", "offline", "--json"],
      h.env,
      where === "app" ? h.app : h.empty,
    );
    expect([run.code, run.stderr]).toEqual([0, expect.any(String)]);
    const out = JSON.parse(run.stdout);
    expect(out.resume.cwd).toBe(h.app);
    expect(JSON.parse(readFileSync(out.sessionFile, "utf8").split("\n")[0] ?? "{}").cwd).toBe(h.app);
    expect(readFileSync(h.file).equals(before)).toBe(true);
  });

  test("agent inspect names the path projects.json gives for the folder's hash", async () => {
    const h = setUp({ folder: sha256, marker: false, registered: true });
    const run = await runAgent(["inspect", h.file, "--json"], h.env, h.empty);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).cwd).toBe(h.app);
  });
});
