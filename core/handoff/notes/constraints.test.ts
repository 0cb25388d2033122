import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch } from "../../session/analyze.ts";
import { readSession } from "../../session/formats/read.ts";
import { extractNotes } from "../offline/extract.ts";
import { userConstraints } from "./constraints.ts";

// Session Facts read the user's rules without the offline engine; they must be the very rules the
// offline engine notes, for every session we keep (fixtures and the two real ones beside the checkout).
const repo = join(import.meta.dir, "..", "..", "..");
const files = [
  ...[...new Glob("fixtures/**/*.jsonl").scanSync(repo)].sort(),
  ...["large-session.jsonl", "before-compaction.jsonl"].map((name) => join("..", "shared", "sessions", name)),
].filter((file) => existsSync(join(repo, file)));

function contextOf(file: string) {
  try {
    return analyzeBranch(readSession(readFileSync(join(repo, file), "utf8"), file).session).context;
  } catch {
    return undefined; // a fixture that is not a readable session (a hostile or broken one) has no rules to compare
  }
}

describe("userConstraints", () => {
  test("finds the sessions", () => {
    expect(files.length).toBeGreaterThan(30);
  });

  test.each(files)("%s: the same rules as the offline engine's notes, in order", (file) => {
    const context = contextOf(file);
    if (context === undefined) return;
    expect(userConstraints(context)).toEqual([...new Set(extractNotes(context).constraints.map((c) => c.text))]);
  });

  test("some session states rules (the comparison is not of empty lists only)", () => {
    const counts = files.map((file) => {
      const context = contextOf(file);
      return context === undefined ? 0 : userConstraints(context).length;
    });
    expect(counts.filter((n) => n > 0).length).toBeGreaterThan(3);
  });
});
