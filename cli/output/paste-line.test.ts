/**
 * A command to paste is printed exactly as the command it stands for (bash and zsh read back
 * each word as it was), or not at all: the quoting, over every code point, and the output
 * boundary, which prints a line unfiltered only once no filter would change it.
 */
import { describe, expect, test } from "bun:test";
import { memoryRun } from "../../fixtures/run-agent.ts";
import { reportError } from "./stderr.ts";
import { commandToPaste, FailureWithCommand, shellQuote } from "./paste-line.ts";
import { PasteLine, PrintedFilter, type Said } from "./printed.ts";
import { NOT_AS_ITSELF, stripControls } from "./terminal.ts";
import { bytesOf, runInShell, SHELLS } from "./paste-line.testing.ts";

const filter = new PrintedFilter();
const forPeopleSaid = (parts: readonly Said[]) => filter.forPeopleSaid(parts);

/** What `shell` reads `quoted` (one word each) back as: each word's bytes, NUL after each. */
function readBack(shell: string, quoted: readonly string[]): Buffer {
  return runInShell(shell, `printf '%s\\0' ${quoted.join(" ")}\n`);
}

/**
 * Every code point of the BMP but NUL (no argument holds one), a lone surrogate for each
 * surrogate; beyond it, the emoji and symbol planes, the tags and variation selectors
 * (invisible), and every 61st of the rest.
 */
function codePoints(): string[] {
  const all: string[] = [];
  for (let c = 1; c <= 0x10ffff; c++) {
    const whole = c <= 0xffff || (c >= 0x1d000 && c <= 0x1faff) || (c >= 0xe0000 && c <= 0xe01ef);
    if (whole || c % 61 === 0) all.push(String.fromCodePoint(c));
  }
  return all;
}

describe("shellQuote: one word as bash and zsh read it back", () => {
  // zsh is read back with where it is installed; bash always, or nothing here would be checked.
  test("bash is here to read the words back", () => {
    expect(SHELLS).toContain("bash");
  });

  const chars = codePoints();

  test("each of them, in a word: the quoted word shows every character as itself, and no output filter would change it", () => {
    const changed = chars.filter((c) => {
      const quoted = shellQuote(`a${c}b`);
      return NOT_AS_ITSELF.test(quoted) || stripControls(quoted) !== quoted || !quoted.isWellFormed();
    });
    expect(changed).toEqual([]);
  });

  // Read back in batches: one shell per 8,192 words.
  test.each(SHELLS)("%s reads each of them back as the bytes of the word", (shell) => {
    for (let from = 0; from < chars.length; from += 8192) {
      const words = chars.slice(from, from + 8192).map((c) => `a${c}b`);
      expect(readBack(shell, words.map(shellQuote)).equals(bytesOf(words))).toBe(true);
    }
  });

  test.each<[string, string, string]>([
    ["a path with nothing to quote", "/home/me/app", "/home/me/app"],
    ["a space", "/home/me/my app", "'/home/me/my app'"],
    ["quotes, $, backquotes and a backslash", `it's "$HOME" \`id\` a\\b`, `'it'\\''s "$HOME" \`id\` a\\b'`],
    ["letters of any script show as themselves", "/srv/café/日本語/Ωmega/🎉", "'/srv/café/日本語/Ωmega/🎉'"],
    ["a combining mark shows (on the letter before it)", "/srv/e\u0301", "'/srv/e\u0301'"],
    ["U+0085 (next line), which the output filter strips", "/srv/shared/app\u0085", "$'/srv/shared/app\\xc2\\x85'"],
    ["a right-to-left override", "/srv/a\u202eb", "$'/srv/a\\xe2\\x80\\xaeb'"],
    ["the line separator", "/srv/a\u2028b", "$'/srv/a\\xe2\\x80\\xa8b'"],
    ["an escape sequence", "/srv/\x1b]0;T\x07", "$'/srv/\\x1b]0;T\\x07'"],
    ["DEL", "/srv/a\x7f", "$'/srv/a\\x7f'"],
    ["C1 controls", "/srv/\u0080\u009b\u009f", "$'/srv/\\xc2\\x80\\xc2\\x9b\\xc2\\x9f'"],
    ["a lone surrogate: the bytes of U+FFFD, the name the system is given", "/srv/x\ud800y", "$'/srv/x\\xef\\xbf\\xbdy'"],
    ["zero-width space, joiner and BOM", "/srv/a\u200bb\u200dc\ufeff", "$'/srv/a\\xe2\\x80\\x8bb\\xe2\\x80\\x8dc\\xef\\xbb\\xbf'"],
    ["a no-break space", "/srv/a\u00a0b", "$'/srv/a\\xc2\\xa0b'"],
    ["a line break, a tab and a quote in one", "a\nb\tc'd\\", "$'a\\nb\\tc\\'d\\\\'"],
    ["a leading = (zsh would expand =ls to a path)", "=ls", "'=ls'"],
    ["the empty word", "", "''"],
  ])("%s", (_, word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
    for (const shell of SHELLS) expect(readBack(shell, [quoted]).equals(bytesOf([word]))).toBe(true);
  });
});

describe("the output boundary prints a command to paste as it is, or says where it is", () => {
  const line = (command: string, words: string[]) =>
    new PasteLine(command, words, (why) => `the command in --json's "resume" (not printed here: ${why})`);

  test("a line every filter keeps: printed as it is, the text around it filtered", () => {
    expect(forPeopleSaid(["Continue with: \x1b[2J", line("cd '/srv/my app' && pi", ["/srv/my app", "pi"]), "\n"])).toBe(
      "Continue with: cd '/srv/my app' && pi\n",
    );
  });

  test.each<[string, string, string[], string]>([
    // Built by hand, not by shellQuote: the boundary does not trust its caller.
    ["a raw U+0085", "cd '/srv/app\u0085' && pi", ["/srv/app\u0085", "pi"], "it holds characters that cannot be shown as they are"],
    ["a raw tab", "cd '/srv/a\tb' && pi", ["/srv/a\tb", "pi"], "it holds characters that cannot be shown as they are"],
    ["a lone surrogate", "cd '/srv/\ud800' && pi", ["/srv/\ud800", "pi"], "it holds characters that cannot be shown as they are"],
    [
      "an AWS key id",
      "cd /srv/AKIAIOSFODNN7EXAMPLE && pi",
      ["/srv/AKIAIOSFODNN7EXAMPLE", "pi"],
      "it names a path that looks like a secret",
    ],
    [
      "a NUL, which no shell passes on",
      "cd $'/srv/a\\x00b' && pi",
      ["/srv/a\0b", "pi"],
      "it names a path holding a NUL character, which no command can pass on",
    ],
    [
      "a token split by a zero-width space, escaped",
      "cd $'/srv/ghp_Zx9Kq2Lm4Np6\\xe2\\x80\\x8bRs8Tv0Wy1Ab3Cd5Ef7Gh9Ij1K' && pi",
      ["/srv/ghp_Zx9Kq2Lm4Np6\u200bRs8Tv0Wy1Ab3Cd5Ef7Gh9Ij1K", "pi"],
      "it names a path that looks like a secret",
    ],
  ])("%s: not printed, the exact command's place named", (_, command, words, why) => {
    expect(forPeopleSaid(["Continue with: ", line(command, words)])).toBe(
      `Continue with: the command in --json's "resume" (not printed here: ${why})`,
    );
  });
});

describe("a failure whose message ends with a command to paste (--exec's)", () => {
  // What reaches stderr, byte for byte, through the one logger and reportError.
  const failWith = async (cwd: string) => {
    const { run, stderr } = memoryRun({ PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" });
    const line = commandToPaste(
      ["claude", "--resume", "0c1d"],
      cwd,
      "/",
      (why) => `the command in --json's "resume" (not printed here: ${why})`,
    );
    const code = reportError(
      new FailureWithCommand("HANDOFF_FAILED", "claude is no longer on the PATH; continue with:", line),
      run.logger(),
    );
    await run.stderr.written();
    return { code, stderr: stderr.text() };
  };

  test.each<[string, string, string]>([
    ["U+0085 in the folder", "/srv/app\u0085", "cd $'/srv/app\\xc2\\x85' && claude --resume 0c1d"],
    [
      "an AWS key id as the folder",
      "/srv/AKIAIOSFODNN7EXAMPLE",
      `the command in --json's "resume" (not printed here: it names a path that looks like a secret)`,
    ],
  ])("%s: the message filtered, the command as it is or not at all", async (_, cwd, shown) => {
    expect(await failWith(cwd)).toEqual({ code: 1, stderr: `Handoff failed: claude is no longer on the PATH; continue with: ${shown}\n` });
  });
});
