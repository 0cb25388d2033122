import { describe, expect, test } from "bun:test";
import { type FileEvent, foldFileEvents } from "./file-changes.ts";
import { shellFileEvents } from "./shell-changes.ts";

const paths = (events: FileEvent[]) => events.map((e) => (e.op === "delete" ? `${e.path}${e.named ? " (named)" : ""}` : e.path));

describe("what a shell command deletes", () => {
  test.each([
    ["rm -rf db/migrations", ["db/migrations"]],
    ["rm a.ts b.ts", ["a.ts", "b.ts"]],
    ["git rm -q src/old.ts", ["src/old.ts (named)"]],
    ["git rm --cached secrets.env", []],
    ["sudo rm /etc/app.conf", ["/etc/app.conf"]],
    ["cd pkg/src && rm main.ts cli.ts && rmdir tui 2>/dev/null; echo done", ["pkg/src/main.ts", "pkg/src/cli.ts", "pkg/src/tui"]],
    ["rm docs/refactor.md 2>/dev/null", ["docs/refactor.md"]],
    ["rm x.log > out.txt", ["x.log"]],
    ["rm -- -weird-name", ["-weird-name"]],
    ["rm dist/*.js", []],
    ["rm $TMPFILE", []],
    ["cd - && rm a.ts", []],
    ["unlink link.txt", ["link.txt"]],
    ['rm "my file.txt"', ["my file.txt"]],
    ['echo "rm -rf /" && git commit -m "rm a.ts"', []],
    ["npm rm left-pad", []],
  ])("%p deletes %p", (command, expected) => {
    expect(paths(shellFileEvents(command).filter((e) => e.op === "delete"))).toEqual(expected);
  });
});

describe("files read, modified and deleted, in the order it happened", () => {
  const w = (path: string): FileEvent => ({ op: "write", path });
  const r = (path: string): FileEvent => ({ op: "read", path });
  const d = (path: string, named = false): FileEvent => ({ op: "delete", path, named });
  test.each([
    {
      name: "a folder deleted after its file was written",
      events: [w("db/migrations/001_init.sql"), w("src/store.ts"), d("db/migrations")],
      modified: ["src/store.ts"],
      deleted: ["db/migrations/001_init.sql"],
    },
    {
      name: "a file written again after its deletion is modified",
      events: [w("a.ts"), d("a.ts"), w("a.ts")],
      modified: ["a.ts"],
      deleted: [],
    },
    { name: "a file only read, then deleted", events: [r("/w/app/old.md"), d("old.md")], modified: [], deleted: ["old.md"] },
    { name: "an unknown file deleted by rm is not listed", events: [w("a.ts"), d("node_modules")], modified: ["a.ts"], deleted: [] },
    { name: "an unknown file deleted by git rm is listed", events: [d("src/legacy.ts", true)], modified: [], deleted: ["src/legacy.ts"] },
    {
      name: "a similar prefix is not under the folder",
      events: [w("db/migrations-old/a.sql"), d("db/migrations")],
      modified: ["db/migrations-old/a.sql"],
      deleted: [],
    },
    { name: "one file under three spellings", events: [w("./src/a.ts"), d("/w/app/src/a.ts")], modified: [], deleted: ["src/a.ts"] },
    {
      name: "rm -rf . takes every file inside the cwd",
      events: [w("src/a.ts"), w("/etc/x.conf"), d(".")],
      modified: ["/etc/x.conf"],
      deleted: ["src/a.ts"],
    },
    { name: "rm -rf .. takes the cwd's files too", events: [w("src/a.ts"), d("..")], modified: [], deleted: ["src/a.ts"] },
    {
      name: "rm -rf / takes everything",
      events: [w("src/a.ts"), w("/etc/x.conf"), d("/")],
      modified: [],
      deleted: ["src/a.ts", "/etc/x.conf"],
    },
  ])("$name", ({ events, modified, deleted }) => {
    const lists = foldFileEvents(events, "/w/app");
    expect({ modified: lists.modified, deleted: lists.deleted }).toEqual({ modified: [...modified], deleted: [...deleted] });
  });
});
