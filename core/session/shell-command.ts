/**
 * One step of a shell line (see `splitSteps`) as its words and its redirections, quotes and
 * backslashes honoured: `cat "a b.txt" 2>/dev/null >out` is the words `cat`, `a b.txt` and two
 * redirections. A `>` inside quotes is text, not a redirection. Not a shell: expansions and
 * globs stay as written.
 */

export interface Redirection {
  /** The descriptor redirected: 0 for `<`, 1 for `>`, the digits before the operator, `&` for `&>` (stdout and stderr). */
  fd: number | "&";
  /** `>`, `>>`, `>|`, `<`, `<>`; `dup` for `>&2`, `<&0`; `heredoc` for `<<EOF`, `<<<word`. */
  op: ">" | ">>" | ">|" | "<" | "<>" | "dup" | "heredoc";
  /** The file (or descriptor, or heredoc word) it names, unquoted. */
  target: string;
}

export interface CommandWords {
  words: string[];
  redirections: Redirection[];
}

/** Sticky: matched where the scan stands, so a line of many `>` costs linear time (no slice per operator). */
const OPERATOR = /&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<&|<>|</y;

/** What ends a plain run of a word: a quote, a backslash, a blank (as `/\s/` has it), a redirection's start. */
const SPECIAL = /['"\\<>&\s]/g;

/** Reads `step` into its words and redirections. */
export function readCommand(step: string): CommandWords {
  const words: string[] = [];
  const redirections: Redirection[] = [];
  let word = "";
  let inWord = false;
  /** Whether the word so far was typed bare (digits before `>` name a descriptor only then). */
  let bare = true;
  let pending: { fd: number | "&"; operator: string } | undefined;
  // The characters from `from` to the special one found next are the word's as they are: one slice.
  let from = 0;
  const end = (at: number) => {
    word += step.slice(from, at);
    from = at + 1;
    if (!inWord) return;
    if (pending) {
      redirections.push(redirection(pending.fd, pending.operator, word));
      pending = undefined;
    } else words.push(word);
    [word, inWord, bare] = ["", false, true];
  };
  for (let i = 0; i < step.length; i++) {
    SPECIAL.lastIndex = i;
    // One character long: `test` leaves `lastIndex` just after it, and builds no match array.
    const at = SPECIAL.test(step) ? SPECIAL.lastIndex - 1 : -1;
    if (at === -1) {
      inWord = true;
      break;
    }
    if (at > i) inWord = true;
    i = at;
    const char = step[i];
    if (char === "'" || char === '"') {
      const close = step.indexOf(char, i + 1);
      const stop = close === -1 ? step.length : close;
      const quoted = step.slice(i + 1, stop);
      word += step.slice(from, i) + (char === '"' ? quoted.replace(/\\(["\\$`])/g, "$1") : quoted);
      [inWord, bare, i] = [true, false, stop];
      from = stop + 1;
    } else if (char === "\\") {
      inWord = true;
      // A backslash as the last character stays, as written.
      if (i + 1 < step.length) {
        word += step.slice(from, i);
        from = i + 1;
        i++;
        bare = false;
      }
    } else if ((char === "<" || char === ">" || char === "&") && step[i + 1] !== "(") {
      if (char === "&" && step[i + 1] !== ">") {
        inWord = true;
        continue;
      }
      OPERATOR.lastIndex = i;
      const operator = OPERATOR.exec(step)?.[0] ?? char;
      word += step.slice(from, i);
      from = i;
      // `2>err.log`: the digits just before are its descriptor; `a>b` is the word `a`, then stdout to b.
      const digits = inWord && bare && /^\d+$/.test(word) ? Number(word) : undefined;
      if (digits === undefined) end(i);
      else [word, inWord, bare] = ["", false, true];
      const fd = operator.startsWith("&") ? "&" : (digits ?? (operator.startsWith("<") ? 0 : 1));
      pending = { fd, operator };
      i += operator.length - 1;
      from = i + 1;
    } else if (char === "<" || char === ">" || char === "&") inWord = true;
    else end(i);
  }
  end(step.length);
  return { words, redirections };
}

function redirection(fd: number | "&", operator: string, target: string): Redirection {
  if (operator === ">&" || operator === "<&") return { fd, op: "dup", target };
  if (operator.startsWith("<<")) return { fd, op: "heredoc", target };
  const op = operator.replace(/^&/, "");
  return { fd, op: op === ">>" || op === ">|" || op === "<" || op === "<>" ? op : ">", target };
}
