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

/** The characters that start a quote, an escape or an operator: every other one is skipped at once. */
const SPECIAL = new Set(["\\", "'", '"', "`", "|", "&", ";", "\n", "<", "#"]);

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
    const char = command[i] ?? "";
    if (quote === undefined && !SPECIAL.has(char)) continue;
    if (quote !== undefined) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = undefined;
      continue;
    }
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

/**
 * Whether a UTF-16 code is what `/\s/` matches (JavaScript's white space and line terminators),
 * told by its code: the shell readers look at every character of a command, and a pattern per
 * character cost more than the rest of their work.
 */
export function isBlankCode(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const QUOTE = 39; // '
const DOUBLE_QUOTE = 34; // "
const BACKSLASH = 92;

/** A step's words, with quotes removed (`git rm "a b.ts"` → git, rm, a b.ts). */
export function shellWords(step: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote = 0;
  // The characters from `from` to the one looked at belong to the word as they are: taken as one slice.
  let from = 0;
  for (let i = 0; i < step.length; i++) {
    const code = step.charCodeAt(i);
    if (quote !== 0) {
      if (code === quote) {
        word += step.slice(from, i);
        from = i + 1;
        quote = 0;
      } else if (code === BACKSLASH && quote === DOUBLE_QUOTE && i + 1 < step.length) {
        word += step.slice(from, i);
        from = i + 1;
        i++;
      }
    } else if (code === QUOTE || code === DOUBLE_QUOTE) {
      word += step.slice(from, i);
      from = i + 1;
      quote = code;
      inWord = true;
    } else if (code === BACKSLASH && i + 1 < step.length) {
      word += step.slice(from, i);
      from = i + 1;
      i++;
      inWord = true;
    } else if (isBlankCode(code)) {
      if (inWord) words.push(word + step.slice(from, i));
      word = "";
      from = i + 1;
      inWord = false;
    } else inWord = true;
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
  const pipefail = /\bpipefail\b/.test(command);
  const found: StatusStep[] = [];
  let end = steps.length - 1;
  while (end >= 0) {
    // The pipeline ending at `end`: the steps joined to it by `|`.
    let begin = end;
    while (begin > 0 && steps[begin - 1]?.next === "|") begin--;
    const negated = /^!\s/.test(steps[begin]?.text ?? "");
    for (let i = end; i >= (pipefail ? begin : end); i--) {
      const text = (steps[i]?.text ?? "").replace(i === begin ? /^!\s+/ : /^$/, "");
      if (!/^cd(?:\s|$)/.test(text)) found.push({ text, index: i, negated });
    }
    if (steps[begin - 1]?.next !== "&&") break;
    end = begin - 1;
  }
  return found.reverse();
}
