/**
 * The files a shell step read into the session (`cat f`, `sed -n '1,20p' f`, `< f`), for every agent's shell
 * tool and `!` commands alike. What counts as a read and what does not, with why: docs/design/shell-reads.md.
 */
import { readCommand, type CommandWords } from "./shell-command.ts";

interface Reader {
  /** Short options that take a value (`-n 5`, `-n5`). */
  short: string;
  /** Long options that take a value when given without `=` (`--lines 5`). */
  long: readonly string[];
  /** Words starting with `+` are options (`less +G f`, `tail +5 f`). */
  plus?: boolean;
  /** Its first operand is a script, not a file (`sed`), unless `-e`/`-f` gave one. */
  script?: boolean;
}

const BAT: Reader = {
  short: "lHrm",
  long: [
    "language",
    "highlight-line",
    "line-range",
    "map-syntax",
    "tabs",
    "wrap",
    "terminal-width",
    "color",
    "italic-text",
    "decorations",
    "paging",
    "pager",
    "theme",
    "style",
    "file-name",
    "diff-context",
    "squeeze-limit",
    "nonprintable-notation",
    "binary",
    "strip-ansi",
  ],
};

const READERS: Readonly<Record<string, Reader>> = {
  cat: { short: "", long: [] },
  tac: { short: "s", long: ["separator"] },
  nl: {
    short: "bdfhilnsvw",
    long: [
      "body-numbering",
      "section-delimiter",
      "footer-numbering",
      "header-numbering",
      "line-increment",
      "join-blank-lines",
      "number-format",
      "number-separator",
      "starting-line-number",
      "number-width",
    ],
  },
  head: { short: "nc", long: ["lines", "bytes"], plus: true },
  tail: { short: "ncs", long: ["lines", "bytes", "sleep-interval", "pid", "max-unchanged-stats"], plus: true },
  less: {
    short: "bhjkoOpPtTxyzD#",
    long: ["log-file", "pattern", "tag", "tabs", "window", "max-back-scroll", "max-forw-scroll"],
    plus: true,
  },
  more: { short: "n", long: ["lines"], plus: true },
  bat: BAT,
  batcat: BAT,
  sed: { short: "efl", long: ["expression", "file", "line-length"], script: true },
};

/** The reader a program is, if any: a program named like an object's own property (`constructor`, `toString`) is none. */
function readerOf(program: string | undefined): Reader | undefined {
  return program !== undefined && Object.hasOwn(READERS, program) ? READERS[program] : undefined;
}

/** Whether a program is one of the readers (`cat`, `head`, `sed` …). */
export function isReaderName(program: string): boolean {
  return readerOf(program) !== undefined;
}

/** A `sed` that edits in place writes its files (shell-changes.ts) and shows nothing. */
function editsInPlace(words: readonly string[]): boolean {
  return words.some((w, i) => i > 0 && w.startsWith("-") && (/^-[a-zA-Z]*i/.test(w) || w.startsWith("--in-place")));
}

/** The operands of a reader's words (after the program), its options and their values left out. */
function operandsOf(words: readonly string[], reader: Reader): string[] {
  const operands: string[] = [];
  let scripted = false;
  let options = true;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? "";
    if (!options || word === "-" || !(word.startsWith("-") || (reader.plus === true && word.startsWith("+")))) {
      operands.push(word);
      continue;
    }
    if (word === "--") {
      options = false;
      continue;
    }
    if (word.startsWith("--")) {
      const [name = "", value] = word.slice(2).split(/=(.*)/s, 2);
      if (name === "expression" || name === "file") scripted = true;
      if (value === undefined && reader.long.includes(name)) i++;
      continue;
    }
    if (word.startsWith("+")) continue;
    // A cluster of short options (`-ba`, `-n5`, `-sn`): the first that takes a value takes the rest, or the next word.
    for (let j = 1; j < word.length; j++) {
      const letter = word[j] ?? "";
      if (!reader.short.includes(letter)) continue;
      if (letter === "e" || letter === "f") scripted = reader.script === true || scripted;
      if (j === word.length - 1) i++;
      break;
    }
  }
  return reader.script === true && !scripted ? operands.slice(1) : operands;
}

/** Whether the step's output goes to a file (`> f`, `>> f`, `&> f`), not to the session; `>&2` still reaches it. */
function outputToFile(command: CommandWords): boolean {
  return command.redirections.some((r) => (r.fd === 1 || r.fd === "&") && (r.op === ">" || r.op === ">>" || r.op === ">|"));
}

/** The step's program and its words after any prefixes (`sudo`, `VAR=x`). */
function programOf(command: CommandWords, prefix: RegExp): string[] {
  const words = [...command.words];
  while (words[0] !== undefined && prefix.test(words[0])) words.shift();
  return words;
}

/**
 * Whether a step given text on stdin by a pipe passes it on to its own output (which a pipe or
 * the session takes next): a reader with no file of its own to read (or `-` for stdin), or `tee`;
 * never a step whose output or input is a file.
 */
export function passesInputOn(step: string, prefix: RegExp): boolean {
  const command = readCommand(step);
  if (outputToFile(command) || command.redirections.some((r) => r.fd === 0)) return false;
  const words = programOf(command, prefix);
  if (words[0] === "tee") return true;
  const reader = readerOf(words[0]);
  if (reader === undefined || (reader.script === true && editsInPlace(words))) return false;
  const operands = operandsOf(words, reader);
  return operands.length === 0 || operands.includes("-");
}

/** A step `readCommand` may read apart from its `shellWords`: redirections, and a `"` with a backslash (which the two read differently). */
const REDIRECTION_CHAR = /[<>&]/;
const readApart = (step: string) => REDIRECTION_CHAR.test(step) || (step.includes('"') && step.includes("\\"));
/** Every word `readCommand` reads off a step without quotes or backslashes stands whole in it: a reader's name, for one. */
const READER_OR_QUOTE = /cat|tac|nl|head|tail|less|more|bat|sed|['"\\]/;

/**
 * `readsOfStep(step, prefix)`, given the step's `shellWords` with the prefixes taken off (by
 * `prefix`), as its caller has them: most steps need no second reading. Unless `readApart`,
 * `readCommand` gives those very words and no redirection; with it, a step naming no reader
 * anywhere (and no quotes or backslashes to build one from) reads nothing.
 */
export function readsOfWords(step: string, words: readonly string[], prefix: RegExp): string[] {
  if (readApart(step)) return READER_OR_QUOTE.test(step) ? readsOfStep(step, prefix) : [];
  const reader = readerOf(words[0]);
  if (reader === undefined || (reader.script === true && editsInPlace(words))) return [];
  return operandsOf(words, reader);
}

/** The files one step (no pipes or `&&` in it: see `splitSteps`) read into its output, as written; whether the output reaches the session is the caller's to say. */
export function readsOfStep(step: string, prefix: RegExp): string[] {
  const command = readCommand(step);
  const words = programOf(command, prefix);
  const reader = readerOf(words[0]);
  if (reader === undefined || outputToFile(command)) return [];
  if (reader.script === true && editsInPlace(words)) return [];
  const fromStdin = command.redirections.filter((r) => r.fd === 0 && (r.op === "<" || r.op === "<>")).map((r) => r.target);
  return [...operandsOf(words, reader), ...fromStdin];
}
