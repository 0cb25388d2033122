import { describe, expect, test } from "bun:test";
import { changesOrChecks } from "./patterns.ts";

describe("commands that changed or checked something (the rest only looked)", () => {
  test.each([
    ["npm test", true],
    ["sed -i 's/a/b/' f.txt", true],
    ["test -f package.json && npm test", true],
    ["cat src/a.ts", false],
    ["find . -name '*.ts'", false],
    ["grep -rn TODO src", false],
    ["[ -f package.json ]", false],
    ["cat log.txt | grep ERROR", false],
  ])("%s → %p", (command, expected) => {
    expect(changesOrChecks(command)).toBe(expected);
  });
});
