import { describe, expect, test } from "bun:test";
import { normalizePath, relativeInText, uniquePaths } from "./paths.ts";

describe("normalizePath: relative to the cwd when inside it, else absolute", () => {
  test.each([
    ["src/a.ts", "/w/app", "src/a.ts"],
    ["./src/a.ts", "/w/app", "src/a.ts"],
    ["/w/app/src/a.ts", "/w/app", "src/a.ts"],
    ["/w/app//src/./a.ts", "/w/app/", "src/a.ts"],
    ["src/../lib/a.ts", "/w/app", "lib/a.ts"],
    ["../other/a.ts", "/w/app", "/w/other/a.ts"],
    ["/w/application/a.ts", "/w/app", "/w/application/a.ts"],
    ["/w/app", "/w/app", "/w/app"],
    ["~/.pi/agent/themes/x.json", "/w/app", "~/.pi/agent/themes/x.json"],
    ["./a.ts", undefined, "a.ts"],
    ["/etc/hosts", "/", "etc/hosts"],
    ["  src/a.ts ", "/w/app", "src/a.ts"],
  ])("%p in %p is %p", (path, cwd, expected) => {
    expect(normalizePath(path, cwd)).toBe(expected);
  });

  test("uniquePaths keeps the first of each spelling, in order", () => {
    expect(uniquePaths(["b.ts", "/w/app/a.ts", "./b.ts", "a.ts", ""], "/w/app")).toEqual(["b.ts", "a.ts"]);
  });
});

describe("relativeInText rewrites whole cwd prefixes only", () => {
  test.each([
    ["grep x /w/app/src/a.ts", "grep x src/a.ts"],
    ["No changes made to /w/app/AGENTS.md.", "No changes made to AGENTS.md."],
    ["cd /w/app && ls", "cd . && ls"],
    ["open /w/application/a.ts", "open /w/application/a.ts"],
    ["\"/w/app/x\" and '/w/app/y'", "\"x\" and 'y'"],
    ["path=/w/app/z", "path=z"],
  ])("%p → %p", (text, expected) => {
    expect(relativeInText(text, "/w/app")).toBe(expected);
  });

  test("leaves text alone without a usable cwd", () => {
    expect(relativeInText("/w/app/a", undefined)).toBe("/w/app/a");
    expect(relativeInText("/w/app/a", "/")).toBe("/w/app/a");
  });

  test("each call uses its own cwd, also when calls for different folders alternate", () => {
    const text = "diff /w/app/a /w/other/b /w/app/./c";
    for (let round = 0; round < 2; round++) {
      expect(relativeInText(text, "/w/app")).toBe("diff a /w/other/b ./c");
      expect(relativeInText(text, "/w/other/")).toBe("diff /w/app/a b /w/app/./c");
      expect(relativeInText(text, "/")).toBe(text);
      expect(relativeInText(text, "/w//app")).toBe("diff a /w/other/b ./c");
    }
  });
});
