/** Where Gemini CLI keeps a cwd's sessions, and the projects.json entry it adds for a cwd it has not seen. */
import { describe, expect, test } from "bun:test";
import type { RegisteredFolder } from "../types.ts";
import { geminiLocation, geminiProjects, projectSlug } from "./location.ts";
import { sha256Hex } from "./sha256.ts";
import { createHash } from "node:crypto";

describe("the project folder's name Gemini gives a new cwd", () => {
  test.each([
    ["/home/me/app", "app"],
    ["/home/me/Shop App", "shop-app"],
    ["/home/me/--x__y--", "x-y"],
    ["/home/me/日本", "project"],
    ["/", "project"],
    ["/home/me/app/", "app"],
  ])("%p → %p", (cwd, slug) => expect(projectSlug(cwd)).toBe(slug));
});

describe("projects.json", () => {
  const folder = (name: string, owner?: string) => ({ name, owner });
  test.each<[string, string | undefined, RegisteredFolder[], string, string | undefined]>([
    ["no file: the name, in a new file", undefined, [], "app", `{\n  "projects": {\n    "/w/app": "app"\n  }\n}`],
    [
      "a folder of that name with no marker: free, Gemini marks it",
      undefined,
      [folder("app")],
      "app",
      `{\n  "projects": {\n    "/w/app": "app"\n  }\n}`,
    ],
    [
      "a folder of that name another path owns: the next",
      undefined,
      [folder("app", "/x/app")],
      "app-1",
      `{\n  "projects": {\n    "/w/app": "app-1"\n  }\n}`,
    ],
    [
      "a folder whose marker names the cwd: that one",
      undefined,
      [folder("old", "/w/app")],
      "old",
      `{\n  "projects": {\n    "/w/app": "old"\n  }\n}`,
    ],
    ["the cwd known: its name, nothing to add", `{"projects":{"/w/app":"mine"}}`, [folder("app", "/x/app")], "mine", undefined],
    [
      "names taken by others: the first free",
      `{"projects":{"/a/app":"app","/b/app":"app-1"}}`,
      [],
      "app-2",
      `{\n  "projects": {\n    "/a/app": "app",\n    "/b/app": "app-1",\n    "/w/app": "app-2"\n  }\n}`,
    ],
  ])("%s", (_, text, folders, name, newText) => {
    expect(geminiProjects.folderFor(text, "/w/app", folders)).toEqual(newText === undefined ? { name } : { name, newText });
  });

  test.each(["", "[]", `{"projects":[]}`, `{"projects":{"/a":1}}`, `{"projects":{"/a":"A"}}`])(
    "%p is not a list Gemini reads: refused",
    (text) => {
      expect(() => geminiProjects.folderFor(text, "/w/app", [])).toThrow("not a Gemini CLI project list");
    },
  );
});

describe("where the sessions are", () => {
  const place = (env: Record<string, string>) => ({
    home: "/home/me",
    env,
    tmpdir: "/tmp",
    runFolder: "/w/app",
    cwd: "/w/app",
    timestamp: new Date(0),
    utcOffsetMinutes: 0,
  });
  test.each<[string, Record<string, string>, string | undefined, string[], string[]]>([
    ["the home's .gemini", {}, undefined, ["/home/me", ".gemini", "tmp"], ["/home/me", ".gemini", "tmp", "app", "chats"]],
    [
      "GEMINI_CLI_HOME moves it",
      { GEMINI_CLI_HOME: "/alt" },
      undefined,
      ["/alt", ".gemini", "tmp"],
      ["/alt", ".gemini", "tmp", "app", "chats"],
    ],
    ["the registry's name wins", {}, "app-3", ["/home/me", ".gemini", "tmp"], ["/home/me", ".gemini", "tmp", "app-3", "chats"]],
  ])("%s", (_, env, registeredFolder, root, folder) => {
    expect(geminiLocation.sessionsRoot(place(env))).toEqual(root);
    expect(geminiLocation.sessionFolder({ ...place(env), registeredFolder })).toEqual(folder);
  });

  // Gemini CLI 0.61 lists `session-*.json` too: sessions from before JSON Lines.
  test.each<[string, boolean]>([
    ["session-2026-12-03T05-51-ac74b73f.jsonl", true],
    ["session-2025-09-18T02-45-3b44bc68.json", true],
    ["session-x.json", true],
    ["ac74b73f.jsonl", false],
    ["logs.json", false],
    ["session-.json", false],
    ["session-x.json.bak", false],
    ["session-x.jsonll", false],
  ])("session files are session-*.jsonl or .json two folders down: %p is %p", (name, is) => {
    const layout = geminiLocation.sessionFiles(place({}));
    expect(layout.folders).toBe(2);
    expect(layout.isSessionName(name)).toBe(is);
  });
});

test.each(["", "abc", "/home/me/app", "é日本🙂".repeat(30), "x".repeat(55), "x".repeat(56), "x".repeat(64), "x".repeat(1000)])(
  "projectHash: SHA-256 as node's, for %#",
  (text) => expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex")),
);

describe("a project folder Gemini named by the SHA-256 of its path (before projects.json)", () => {
  const hash = (path: string) => createHash("sha256").update(path).digest("hex");
  const registry = JSON.stringify({ projects: { "/home/me/api": "api" } });
  test.each<[string, string, string | undefined, string[], string | undefined]>([
    ["the hash of a path projects.json names", hash("/home/me/api"), registry, [], "/home/me/api"],
    ["the hash of a folder asked about", hash("/home/me/web"), registry, ["/home/me/web"], "/home/me/web"],
    ["the hash of neither", hash("/home/me/gone"), registry, ["/home/me/web"], undefined],
    ["a folder with a name of its own", "api", registry, ["/home/me/api"], undefined],
    ["a hash in capitals (Gemini writes lower case)", hash("/home/me/api").toUpperCase(), registry, [], undefined],
    [
      "a projects.json Gemini could not read: the folders asked about still count",
      hash("/home/me/web"),
      "{",
      ["/home/me/web"],
      "/home/me/web",
    ],
    ["no projects.json", hash("/home/me/api"), undefined, [], undefined],
  ])("%s", (_, folder, text, cwds, owner) => {
    expect(geminiProjects.olderFolderOwners?.(text, cwds).get(folder)).toBe(owner);
  });
});
