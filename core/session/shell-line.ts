/**
 * A shell command line cut into its steps and the operators between them: enough to tell whose
 * exit status reaches the end of a line and what each step runs. Not a shell parser: quotes and
 * backslashes are honoured, a heredoc's body (up to its terminator line) and a `# comment` are no
 * steps; subshells and expansions are read as plain words.
 */

/** What joins two steps: `&&` and `||` run the next step on success or failure, `|` pipes, `;` (or a line break) sequences, `&` backgrounds. */
export type Operator = "&&" | "||" | "|" | ";" | "&";

export interface ShellStep {
  /** The step as written, trimmed. */
  text: string;
  /** The operator after the step; `undefined` for the last one. */
  next: Operator | undefined;
}

/**
 * The characters that start a quote, an escape or an operator, and those that end a double-quoted
 * run: the scans jump from one to the next (a native search), never looking at the others.
 */
const SPECIAL = /[\\'"`|&;\n<#]/g;
const IN_DOUBLE_QUOTES = /["\\]/g;

/**
 * Where the next match of the global `pattern` (one character long: each here is a class) starts
 * from `from`, or -1. `test` leaves `lastIndex` just after the match and builds no match array.
 */
function nextAt(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.test(text) ? pattern.lastIndex - 1 : -1;
}

/** The operator starting at `i`, with its length; a `&` that is part of a redirection (`2>&1`, `&>`, `>&2`) is none. */
function operatorAt(line: string, i: number): [Operator, number] | undefined {
  const two = line.slice(i, i + 2);
  if (two === "&&" || two === "||") return [two, 2];
  if (two === "|&") return ["|", 2];
  const char = line[i];
  // `>|` forces a redirection over an existing file: no pipe.
  if (char === "|" && line[i - 1] !== ">") return ["|", 1];
  if (char === ";" || char === "\n") return [";", 1];
  if (char === "&" && line[i - 1] !== ">" && line[i - 1] !== "<" && line[i + 1] !== ">") return ["&", 1];
  return undefined;
}

/** Splits a command line at its operators, outside quotes. Empty steps (`a;;b`, a trailing `&`) are dropped. */
export function splitSteps(command: string): ShellStep[] {
  const steps: ShellStep[] = [];
  let start = 0;
  let quote: string | undefined;
  const push = (end: number, next: Operator | undefined) => {
    const text = command.slice(start, end).trim();
    // An empty step (`a &\nb`, `a;;b`) keeps the operator before it: `a` still ran in the background.
    if (text !== "") steps.push({ text, next });
  };
  // Heredocs opened on the current line: their bodies start at the next line break.
  const heredocs: { word: string; tabs: boolean }[] = [];
  for (let i = 0; i < command.length; i++) {
    if (quote !== undefined) {
      // Inside single quotes and backticks only the closing one counts; inside double quotes, a backslash escapes.
      i = quote === '"' ? nextAt(IN_DOUBLE_QUOTES, command, i) : command.indexOf(quote, i);
      if (i === -1) break;
      if (command[i] === "\\") i++;
      else quote = undefined;
      continue;
    }
    i = nextAt(SPECIAL, command, i);
    if (i === -1) break;
    const char = command[i] ?? "";
    if (char === "\\") {
      i++;
      continue;
    }
    if (char === "'" || char === '"' || char === "`") {
      quote = char;
      continue;
    }
    if (char === "#") {
      // A `#` that starts a word starts a comment, to the end of the line.
      if (i === 0 || /[\s;&|(]/.test(command[i - 1] ?? "")) {
        const end = command.indexOf("\n", i);
        push(i, end === -1 ? undefined : ";");
        start = end === -1 ? command.length : end;
        i = start - 1;
      }
      continue;
    }
    if (char === "<") {
      const opened = heredocAt(command, i);
      if (opened !== undefined) {
        heredocs.push(opened.heredoc);
        i = opened.end - 1;
      }
      continue;
    }
    if (char === "\n" && heredocs.length > 0) {
      push(i, ";");
      i = skipHeredocBodies(command, i + 1, heredocs.splice(0)) - 1;
      start = i + 1;
      continue;
    }
    const operator = operatorAt(command, i);
    if (operator === undefined) continue;
    push(i, operator[0]);
    start = i + operator[1];
    i += operator[1] - 1;
  }
  push(command.length, undefined);
  const last = steps[steps.length - 1];
  if (last) last.next = undefined;
  return steps;
}

/** A heredoc opened at `i` (`<<EOF`, `<<'EOF'`, `<<-"EOF"`; not `<<<`): its terminator word and where the operator ends. */
function heredocAt(line: string, i: number): { heredoc: { word: string; tabs: boolean }; end: number } | undefined {
  const match = /^<<(-?)[ \t]*(?:'([^'\n]*)'|"([^"\n]*)"|\\?([\w.-]+))/.exec(line.slice(i, i + 200));
  if (match === null || line[i - 1] === "<") return undefined;
  // `$((1<<3))` shifts: an unquoted number is not a heredoc word anyone writes.
  if (match[4] !== undefined && /^\d+$/.test(match[4])) return undefined;
  const word = match[2] ?? match[3] ?? match[4] ?? "";
  return { heredoc: { word, tabs: match[1] === "-" }, end: i + match[0].length };
}

/** Skips each heredoc's body (the lines up to its terminator line) from `from`; returns where the commands resume. */
function skipHeredocBodies(line: string, from: number, heredocs: readonly { word: string; tabs: boolean }[]): number {
  let at = from;
  for (const { word, tabs } of heredocs) {
    while (at < line.length) {
      const end = line.indexOf("\n", at);
      const text = line.slice(at, end === -1 ? line.length : end);
      at = end === -1 ? line.length : end + 1;
      if ((tabs ? text.replace(/^\t+/, "") : text) === word) break;
    }
  }
  return at;
}

/** What ends a plain run of a word: a quote, a backslash, a blank (as `/\s/` has it). */
const WORD_SPECIAL = /['"\\\s]/g;

/**
 * The quoted text from `open` (a `"`) on, backslashes taken off what they escape, and where the
 * closing quote is (the text's end when none closes it).
 */
export function doubleQuoted(text: string, open: number): { inner: string; close: number } {
  let inner = "";
  let from = open + 1;
  for (;;) {
    const at = nextAt(IN_DOUBLE_QUOTES, text, from);
    if (at === -1) return { inner: inner + text.slice(from), close: text.length };
    if (text[at] === '"') return { inner: inner + text.slice(from, at), close: at };
    // A backslash as the last character stays, as written.
    if (at + 1 >= text.length) return { inner: inner + text.slice(from), close: text.length };
    inner += text.slice(from, at) + text[at + 1];
    from = at + 2;
  }
}

const QUOTE_OR_ESCAPE = /['"\\]/;
const BLANKS = /\s+/;

/** The runs between blanks (as `/\s/` has them): `shellWords` of a step without quotes or backslashes. */
function plainWords(step: string): string[] {
  const words = step.split(BLANKS);
  // Only a blank at either end leaves an empty run, there.
  if (words[words.length - 1] === "") words.pop();
  if (words[0] === "") words.shift();
  return words;
}

/** A step's words, with quotes removed (`git rm "a b.ts"` → git, rm, a b.ts). */
export function shellWords(step: string): string[] {
  // Most steps hold no quote or backslash: their words are the runs between blanks, cut natively.
  if (!QUOTE_OR_ESCAPE.test(step)) return plainWords(step);
  const words: string[] = [];
  let word = "";
  let inWord = false;
  // The characters from `from` to the special one found next belong to the word as they are: one slice.
  let from = 0;
  for (let i = 0; i < step.length; i++) {
    const at = nextAt(WORD_SPECIAL, step, i);
    if (at === -1) {
      inWord = true;
      break;
    }
    if (at > i) inWord = true;
    i = at;
    const char = step[at];
    if (char === "'") {
      const close = step.indexOf("'", at + 1);
      word += step.slice(from, at) + step.slice(at + 1, close === -1 ? step.length : close);
      i = close === -1 ? step.length : close;
      from = i + 1;
      inWord = true;
    } else if (char === '"') {
      const { inner, close } = doubleQuoted(step, at);
      word += step.slice(from, at) + inner;
      i = close;
      from = close + 1;
      inWord = true;
    } else if (char === "\\") {
      inWord = true;
      if (at + 1 < step.length) {
        word += step.slice(from, at);
        from = at + 1;
        i = at + 1;
      }
    } else {
      if (inWord) words.push(word + step.slice(from, at));
      word = "";
      from = at + 1;
      inWord = false;
    }
  }
  if (inWord) words.push(word + step.slice(from));
  return words;
}

/** A step whose exit status may be the line's: `negated` when a `!` before its pipeline turns the status round. */
export interface StatusStep {
  /** The step's text without the `!`. */
  text: string;
  /** Its place in `splitSteps(command)`: the steps before it (a `cd`) set where it ran. */
  index: number;
  negated: boolean;
}

/**
 * The steps whose exit status may be the line's non-zero status: the last pipeline's last step
 * (every step of it under `set -o pipefail`), and, through each `&&` before it, the pipelines a
 * failure there would have stopped at (`a && b` exiting 1: `a` or `b`; `a || b`, `a; b`: only
 * `b`). A `cd` is taken to have worked: it is where the steps after it ran, not what they did.
 */
export function statusSteps(command: string): StatusStep[] {
  const steps = splitSteps(command);
  const pipefail = command.includes("pipefail") && /\bpipefail\b/.test(command);
  const found: StatusStep[] = [];
  let end = steps.length - 1;
  while (end >= 0) {
    // The pipeline ending at `end`: the steps joined to it by `|`.
    let begin = end;
    while (begin > 0 && steps[begin - 1]?.next === "|") begin--;
    // The patterns below start with a literal: most steps do not, and are not searched.
    const first = steps[begin]?.text ?? "";
    const negated = first.startsWith("!") && /^!\s/.test(first);
    for (let i = end; i >= (pipefail ? begin : end); i--) {
      const step = steps[i]?.text ?? "";
      const text = i === begin && step.startsWith("!") ? step.replace(/^!\s+/, "") : step;
      if (!(text.startsWith("cd") && /^cd(?:\s|$)/.test(text))) found.push({ text, index: i, negated });
    }
    if (steps[begin - 1]?.next !== "&&") break;
    end = begin - 1;
  }
  return found.reverse();
}
