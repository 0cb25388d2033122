import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { folderChain, nearestExisting, whyNotPrivate, type FolderFacts } from "./private-folder.ts";

const ME = { uid: 1000, gid: 1000 };
const folder = (path: string, mode: number, uid = ME.uid, gid = ME.gid): FolderFacts => ({ path, uid, gid, mode });
/** The folders above a run's: HOME and the system's, as they usually are. */
const ABOVE = [folder("/home/me", 0o40755), folder("/home", 0o40755, 0, 0), folder("/", 0o40755, 0, 0)];

describe("whether another user could change a folder or one above it", () => {
  test.each<[string, FolderFacts, string | undefined]>([
    ["ours, 0700", folder("/home/me/.cache", 0o40700), undefined],
    ["ours, 0755", folder("/home/me/.cache", 0o40755), undefined],
    ["root's, 0755", folder("/home/me/.cache", 0o40755, 0, 0), undefined],
    [
      "writable by our own primary group (umask 002): a primary group may be shared",
      folder("/home/me/.cache", 0o40775),
      "/home/me/.cache can be written by its group (gid 1000, mode 0775)",
    ],
    [
      "writable by our primary group when it is a shared one (users)",
      folder("/home/me/.cache", 0o40770, ME.uid, 100),
      "/home/me/.cache can be written by its group (gid 100, mode 0770)",
    ],
    [
      "root's, writable by root's group",
      folder("/home/me/.cache", 0o40775, 0, 0),
      "/home/me/.cache can be written by its group (gid 0, mode 0775)",
    ],
    [
      "writable by another group",
      folder("/home/me/.cache", 0o40775, ME.uid, 100),
      "/home/me/.cache can be written by its group (gid 100, mode 0775)",
    ],
    ["writable by anyone", folder("/home/me/.cache", 0o40777), "/home/me/.cache can be written by any user (mode 0777)"],
    ["writable by anyone, the sticky bit set (/tmp)", folder("/home/me/.cache", 0o41777, 0, 0), undefined],
    ["writable by its group, the sticky bit set", folder("/home/me/.cache", 0o41775, 0, 100), undefined],
    ["another user's", folder("/home/me/.cache", 0o40700, 1001, 1001), "/home/me/.cache belongs to another user (uid 1001)"],
    ["another user's, even 0755", folder("/home/me/.cache", 0o40755, 1001, ME.gid), "/home/me/.cache belongs to another user (uid 1001)"],
  ])("%s", (_, first, reason) => {
    expect(whyNotPrivate([first, ...ABOVE], ME)).toBe(reason);
    // Whichever group we are in: our primary group makes no folder private.
    expect(whyNotPrivate([first, ...ABOVE], { uid: ME.uid, gid: first.gid })).toBe(reason);
  });

  test("the first folder of the chain that fails is named, however high it is", () => {
    const chain = [
      folder("/srv/x/me/cache", 0o40700),
      folder("/srv/x/me", 0o40700),
      folder("/srv/x", 0o40777, 0, 0),
      folder("/srv", 0o40755, 0, 0),
    ];
    expect(whyNotPrivate(chain, ME)).toBe("/srv/x can be written by any user (mode 0777)");
  });

  test("as root, root's folders are ours", () => {
    expect(whyNotPrivate([folder("/root/.cache", 0o40700, 0, 0), folder("/", 0o40755, 0, 0)], { uid: 0, gid: 0 })).toBeUndefined();
  });
});

describe("the chain as the system has it", () => {
  test("a symbolic link is followed: the folders above its target are the ones checked", () => {
    const root = mkdtempSync(join(tmpdir(), "private-folder-"));
    try {
      mkdirSync(join(root, "open", "target"), { recursive: true });
      chmodSync(join(root, "open"), 0o777);
      symlinkSync(join(root, "open", "target"), join(root, "link"));
      const chain = folderChain(join(root, "link"));
      expect(chain.map((f) => f.path).slice(0, 3)).toEqual([join(root, "open", "target"), join(root, "open"), root]);
      expect(chain.at(-1)?.path).toBe("/");
      expect(chain[1]?.mode ?? 0).toBe(0o40777);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("the nearest folder that exists stands for the ones a run would make", () => {
    const root = mkdtempSync(join(tmpdir(), "private-folder-"));
    try {
      expect(nearestExisting(join(root, "a", "b", "c"))).toBe(root);
      expect(nearestExisting(root)).toBe(root);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
