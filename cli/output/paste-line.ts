/**
 * Commands a person pastes, for bash and zsh: each word quoted so the shell reads back exactly
 * that word, and the line built from them printed as it is or not at all (see PasteLine).
 */
import { AgentError, type ErrorCode } from "../../core/index.ts";
import { PasteLine } from "./printed.ts";
import { NOT_AS_ITSELF } from "./terminal.ts";

/** A word no shell changes: nothing to quote. `=` may not lead it: zsh expands `=ls` to the program's path. */
const PLAIN = /^(?!=)[A-Za-z0-9_@%+=:,./-]+$/;

const UTF8 = new TextEncoder();

/** One character as `$'…'` writes it: `\n`, `\r`, `\t` by name, the rest of NOT_AS_ITSELF as its UTF-8 bytes (`\xc2\x85`). */
function escaped(c: string): string {
  if (c === "'" || c === "\\") return `\\${c}`;
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  if (!NOT_AS_ITSELF.test(c)) return c;
  // A lone surrogate encodes as U+FFFD's bytes: the name the system is given for it (by --exec's chdir too).
  return [...UTF8.encode(c)].map((byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join("");
}

/**
 * One word as bash and zsh read it back: as it is when nothing in it is special, `'…'` when
 * every character shows as itself, else `$'…'` with each one that does not (a control, a line
 * break, a bidirectional override, a zero-width or a no-break space: NOT_AS_ITSELF) written as
 * an escape. So the command stays on its one line, no part of a path can start a line that
 * looks like ours, and what a person reads is what the shell runs.
 */
export function shellQuote(word: string): string {
  if (PLAIN.test(word)) return word;
  if (!NOT_AS_ITSELF.test(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  // By code point: a character outside the BMP is one escape of its four bytes, not two of U+FFFD.
  return `$'${Array.from(word, escaped).join("")}'`;
}

/**
 * `argv` as a line to paste, with `cd <cwd> &&` first when it runs elsewhere than `here`;
 * `instead` says where the exact command is when the line cannot be printed (see PasteLine).
 */
export function commandToPaste(
  argv: readonly string[],
  cwd: string | undefined,
  here: string | undefined,
  instead: (why: string) => string,
): PasteLine {
  const line = argv.map(shellQuote).join(" ");
  const elsewhere = cwd !== undefined && cwd !== here;
  return new PasteLine(elsewhere ? `cd ${shellQuote(cwd)} && ${line}` : line, elsewhere ? [cwd, ...argv] : [...argv], instead);
}

/**
 * An expected failure whose message ends with a command to paste (`…; continue with: <command>`):
 * the command is printed as a PasteLine, never filtered as part of the text.
 */
export class FailureWithCommand extends AgentError {
  constructor(
    code: ErrorCode,
    readonly lead: string,
    readonly command: PasteLine,
    location?: { file?: string; line?: number },
  ) {
    super(code, `${lead} ${command.command}`, location);
  }
}
