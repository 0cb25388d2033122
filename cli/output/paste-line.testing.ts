/** What the tests of lines to paste share: the shells to read them back with, and the bytes to compare with. */
import { expect } from "bun:test";

/** The shells the lines are written for, as far as this machine has them. */
export const SHELLS = ["bash", "zsh"].filter((shell) => Bun.which(shell) !== null);

/** What `shell` writes on stdout running `script` as typed lines (no startup files); it must complain of nothing. */
export function runInShell(shell: string, script: string): Buffer {
  const args = shell === "zsh" ? ["-f", "-s"] : ["--norc", "--noprofile", "-s"];
  const run = Bun.spawnSync([shell, ...args], { stdin: Buffer.from(script) });
  expect(run.stderr.toString()).toBe("");
  return Buffer.from(run.stdout);
}

/** The bytes a program gives the system for `words` (a lone surrogate as U+FFFD, as Bun and Node encode it), NUL after each. */
export function bytesOf(words: readonly string[]): Buffer {
  return Buffer.concat(words.map((word) => Buffer.from(`${word}\0`, "utf8")));
}
