import { describe, expect, test } from "bun:test";
import { readCommand } from "./shell-command.ts";
import { shellWords, splitSteps, statusSteps } from "./shell-line.ts";

describe("a command line cut into steps", () => {
  test.each([
    ["npm test", [["npm test", undefined]]],
    [
      "npm run lint || true",
      [
        ["npm run lint", "||"],
        ["true", undefined],
      ],
    ],
    [
      "cd pkg && npm run build 2>&1 | head -30",
      [
        ["cd pkg", "&&"],
        ["npm run build 2>&1", "|"],
        ["head -30", undefined],
      ],
    ],
    [
      "bun run start & sleep 2; curl -s localhost:3000/health",
      [
        ["bun run start", "&"],
        ["sleep 2", ";"],
        ["curl -s localhost:3000/health", undefined],
      ],
    ],
    [
      "make 2>&1 |& tee log",
      [
        ["make 2>&1", "|"],
        ["tee log", undefined],
      ],
    ],
    ["cmd &> out.log", [["cmd &> out.log", undefined]]],
    ['git commit -m "a; b && c | d"', [['git commit -m "a; b && c | d"', undefined]]],
    [
      "echo 'x || y' || true",
      [
        ["echo 'x || y'", "||"],
        ["true", undefined],
      ],
    ],
    ["echo a\\;b", [["echo a\\;b", undefined]]],
    [
      "npm test\nnpm run lint",
      [
        ["npm test", ";"],
        ["npm run lint", undefined],
      ],
    ],
    [
      "npm test &\nsleep 1",
      [
        ["npm test", "&"],
        ["sleep 1", undefined],
      ],
    ],
    [
      "a ;; b",
      [
        ["a", ";"],
        ["b", undefined],
      ],
    ],
    ["", []],
  ])("%p", (command, expected) => {
    expect(splitSteps(command).map((s) => [s.text, s.next])).toEqual(expected);
  });

  test.each([
    ["rm -rf db/migrations", ["rm", "-rf", "db/migrations"]],
    ['git rm "a b.ts" c.ts', ["git", "rm", "a b.ts", "c.ts"]],
    ["rm 'it''s.txt'", ["rm", "its.txt"]],
    ["rm a\\ b.txt", ["rm", "a b.txt"]],
    ['rm ""', ["rm", ""]],
  ])("shellWords(%p) is %p", (step, expected) => {
    expect(shellWords(step)).toEqual(expected);
  });
});

describe("the steps whose status may be the line's (statusSteps)", () => {
  test.each([
    ["test -f x", ["test -f x"]],
    ["a && b", ["a", "b"]],
    ["a || b", ["b"]],
    ["a; b", ["b"]],
    ["a & b", ["b"]],
    ["a && b || c", ["c"]],
    ["a || b && c", ["b", "c"]],
    ["cat log | grep x", ["grep x"]],
    ["set -o pipefail; cat log | grep x", ["cat log", "grep x"]],
    ["cd sub && test -f x", ["test -f x"]],
    ["! grep -q x f", ["!grep -q x f"]],
    ["a | b && ! c | d", ["b", "!d"]],
  ])("%s → %j", (command, expected) => {
    expect(statusSteps(command).map((s) => (s.negated ? "!" : "") + s.text)).toEqual(expected);
  });
});

describe("what is not a step: a heredoc's body and a comment; `>|` is not a pipe", () => {
  test.each([
    ["cat > a <<'EOF'\nx && y\nEOF\nrm b", ["cat > a <<'EOF'", "rm b"]],
    ["cat > a <<EOF\nx\nEOF\ncat > b <<EOF\ny | z\nEOF", ["cat > a <<EOF", "cat > b <<EOF"]],
    ["cat <<-EOF\n\tx; y\n\tEOF\necho z", ["cat <<-EOF", "echo z"]],
    ["a # b; c\nd", ["a", "d"]],
    ["echo a#b; c", ["echo a#b", "c"]],
    ["echo y >| f; g", ["echo y >| f", "g"]],
    ["echo '<<EOF'; ok", ["echo '<<EOF'", "ok"]],
    ["echo $((1<<3))\nrm x", ["echo $((1<<3))", "rm x"]],
  ])("%j → %j", (command, expected) => {
    expect(splitSteps(command).map((s) => s.text)).toEqual(expected);
  });
});

describe("blanks between words", () => {
  test("words split at exactly the characters /\\s/ matches, every UTF-16 code unit tried", () => {
    const differ: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      if (`'"\\`.includes(char)) continue;
      const blank = /\s/.test(char);
      if (shellWords(`a${char}b`).length !== (blank ? 2 : 1)) differ.push(`U+${code.toString(16)} in shellWords`);
      if (`<>&`.includes(char)) continue;
      if (readCommand(`a${char}b`).words.length !== (blank ? 2 : 1)) differ.push(`U+${code.toString(16)} in readCommand`);
    }
    expect(differ).toEqual([]);
  });

  test("a redirection between blanks of any kind", () => {
    for (const blank of ["\t", "\v", "\f", "\r", "\u00a0", "\u2003", "\u3000", "\ufeff"])
      expect(readCommand(`cat${blank}a.txt${blank}>${blank}out`)).toEqual({
        words: ["cat", "a.txt"],
        redirections: [{ fd: 1, op: ">", target: "out" }],
      });
  });
});
