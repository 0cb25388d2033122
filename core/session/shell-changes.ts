/**
 * The files a shell command read and changed, read off its words: what it reads into the session
 * (`cat`, `sed -n`, `head` on a file: the table is in shell-reads.ts), what it deletes (`rm`, `rmdir`,
 * `unlink`, `git rm`) and what it writes (`sed -i`, `perl -pi -e`, a redirection `>`/`>>`, `tee`,
 * the target of `mv`, `git mv` and `cp`; `mv` also deletes its sources), also inside `bash -c '…'`. Relative paths lie in the folder a
 * `cd` earlier in the line moved to (inside a subshell `( … )`, only there). Not a shell: globs and
 * `$VARIABLES` are not expanded (such a path is skipped); a heredoc's body is not a command, but the
 * lines after its terminator are; a `# comment` is not read.
 */
import type { FileEvent } from "./file-changes.ts";
import { shellWords, splitSteps } from "./shell-line.ts";
import { isReaderName, passesInputOn, readsOfWords } from "./shell-reads.ts";

/** A cheap first look: most commands name no program that reads or changes files, and redirect nowhere. */
const MAY_TOUCH = /\b(?:rm|rmdir|unlink|sed|perl|tee|mv|cp|cat|tac|nl|head|tail|less|more|bat|batcat)\b|[<>]/;
/** Programs that delete the files they name. */
const DELETERS = new Set(["rm", "unlink", "rmdir"]);
/** Words before the program that do not change what it does: `sudo rm`, `command rm`, `FORCE=1 rm`. */
const PREFIX = /^(?:sudo|command|builtin|env|time|nice|nohup|\w+=.*)$/;
/** `PREFIX`'s names: a word without `=` is a prefix only as one of them, found without running the pattern. */
const PREFIX_NAMES: ReadonlySet<string> = new Set(["sudo", "command", "builtin", "env", "time", "nice", "nohup"]);
const isPrefix = (word: string) => (word.includes("=") ? PREFIX.test(word) : PREFIX_NAMES.has(word));
/** The shells whose `-c` script is read as a line of its own. */
const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash"]);
/** A redirection that names its target in the next word (`>`, `2>>`, `&>`, `>|`), or in the same word (`>out.txt`). */
const REDIRECT_ALONE = /^(?:\d*>>?|&>>?|\d*>\|)$/;
const REDIRECT_JOINED = /^(?:\d*>>?|&>>?|\d*>\|)([^&].*)$/;
/** Input redirections and descriptor copies name no file written: `<`, `2>&1`, `>&2`, `<<EOF`. */
const OTHER_REDIRECT = /^\d*(?:<|>&|<&)/;

/** A path we can name: not a glob, not a variable, not a device. */
function nameable(word: string): boolean {
  return word !== "" && word !== "-" && !/[*?[\]$`]/.test(word) && !word.startsWith("/dev/");
}

/** The words that are operands (not options, not redirections) of a step, from `from` on; `--` ends the options. */
function operands(words: readonly string[], from: number): string[] {
  const found: string[] = [];
  let options = true;
  let skipNext = false;
  for (const word of words.slice(from)) {
    // Each redirection pattern needs a `<` or a `>`: most words hold neither.
    const redirects = word.includes(">") || word.includes("<");
    if (skipNext) skipNext = false;
    else if (redirects && (REDIRECT_ALONE.test(word) || /^\d*<$/.test(word))) skipNext = true;
    else if (redirects && (REDIRECT_JOINED.test(word) || OTHER_REDIRECT.test(word))) continue;
    else if (options && word === "--") options = false;
    else if (options && word.startsWith("-") && word !== "-") continue;
    else found.push(word);
  }
  return found;
}

/**
 * Whether `redirectTargets` may find a file: a `>` that is not a descriptor copy (`2>&1`, `>&2`;
 * its target cannot start with `&`, and hiding quoted text never puts a `&` after a `>`).
 */
function mayRedirectToFile(step: string): boolean {
  return step.includes(">") && step.replaceAll(">&", "").includes(">");
}

/**
 * The files a redirection in the step writes (`> out.txt`, `2>>err.log`, `&>all.log`), read from
 * the step as written, so a quoted `>` (`grep ">" file`) is not a redirection.
 */
function redirectTargets(step: string): string[] {
  // Hidden first, each as one placeholder: quoted text and escapes (a quoted or escaped `>` is no
  // redirection; `my\ file` is one word), arithmetic `$((3 > 2))` and `[[ $a > $b ]]` (comparisons;
  // one longer than 400 characters is read as written, so an unclosed one costs linear time).
  const hidden: string[] = [];
  const masked = step.replace(/'[^']*'|"(?:[^"\\]|\\.)*"|\\.|\$\(\([\s\S]{0,400}?\)\)|\[\[[\s\S]{0,400}?\]\]/g, (part) => {
    const text = part.startsWith("'") || part.startsWith('"') ? part.slice(1, -1) : part.startsWith("\\") ? part.slice(1) : part;
    return `\u0000${hidden.push(text) - 1}\u0000`;
  });
  const targets: string[] = [];
  // `>`, `>>`, `>|`, `&>`, `2>`, also glued to the word before it (`echo x>out.txt`); not `2>&1`, `<>`.
  for (const match of masked.matchAll(/(?:^|[^<>&])(?:&>>?|>>?|>\|)[ \t]*([^\s&|;<>()]+)/g)) {
    const target = match[1]?.replace(/\u0000(\d+)\u0000/g, (_, i: string) => hidden[Number(i)] ?? "");
    if (target !== undefined) targets.push(target);
  }
  return targets;
}

/** `sed -i` (GNU `-i`, `-i.bak`, `--in-place`; BSD `-i ''`) edits the files after its script. */
function sedTargets(words: readonly string[]): string[] {
  const inPlace = words.some((w, i) => i > 0 && w.startsWith("-") && (/^-[a-zA-Z]*i/.test(w) || w.startsWith("--in-place")));
  if (!inPlace) return [];
  // A script given with -e/-f is not an operand; otherwise the first operand is the script.
  const scripted = words.some((w) => w === "-e" || w === "-f" || w.startsWith("--expression") || w.startsWith("--file"));
  const rest = operands(
    words.filter((_, i) => !(i > 0 && (words[i - 1] === "-e" || words[i - 1] === "-f"))),
    1,
  ).filter((w) => w !== "");
  // BSD's `-i .bak` puts the suffix where the script would be: a word that reads as a script is none of the files.
  return (scripted ? rest : rest.slice(1)).filter((w) => !looksLikeSedScript(w));
}

/** `s/a/b/g`, `s|a|b|`, `y/abc/xyz/`, `1d`, `/re/d`: a sed script, not a file name. */
function looksLikeSedScript(word: string): boolean {
  const delimiter = /^[sy]([^\w\s\\])/.exec(word)?.[1];
  if (delimiter !== undefined && word.split(delimiter).length >= 4) return true;
  return /^(?:\d+(?:,\d+)?|\$|\/[^/]*\/)[dpi]$/.test(word);
}

/** `perl -pi -e '…' files` (also `-i.bak`, `-0pi`): the files after the `-e` script. */
function perlTargets(words: readonly string[]): string[] {
  const inPlace = words.some((w, i) => i > 0 && /^-[a-zA-Z0-9]*i/.test(w));
  const scripted = words.some((w) => /^-[a-zA-Z0-9]*[eE]$/.test(w));
  if (!inPlace || !scripted) return [];
  return operands(
    words.filter((_, i) => !(i > 0 && /^-[a-zA-Z0-9]*[eE]$/.test(words[i - 1] ?? ""))),
    1,
  );
}

const baseName = (path: string) => path.replace(/\/+$/, "").replace(/^.*\//, "");

/** `mv`/`cp`: the target (or, into a folder, each source's name there); `mv` deletes the sources. */
function moveOrCopy(words: readonly string[], move: boolean): { written: string[]; deleted: string[] } {
  // `-t DIR` names the target first: too rare to read; nothing is guessed.
  if (words.some((w) => w === "-t" || w.startsWith("--target-directory"))) return { written: [], deleted: [] };
  const paths = operands(words, 1);
  const target = paths.at(-1);
  const sources = paths.slice(0, -1);
  if (target === undefined || sources.length === 0) return { written: [], deleted: [] };
  // `.`, `..`, `dir/` and several sources name a folder: each source keeps its name there.
  const intoFolder = /(?:^|\/)\.{1,2}$|\/$/.test(target) || sources.length > 1;
  const written = intoFolder ? sources.map((s) => `${target.replace(/\/+$/, "")}/${baseName(s)}`) : [target];
  return { written, deleted: move ? sources : [] };
}

type StepChanges = { written: readonly string[]; deleted: readonly string[]; named: boolean };

/** The programs `changesOfStep` reads the changes of (`git` for `git rm`, `git mv`). */
const CHANGERS: ReadonlySet<string> = new Set(["git", "rm", "unlink", "rmdir", "mv", "cp", "sed", "perl", "tee"]);
const NO_CHANGES: StepChanges = Object.freeze({ written: Object.freeze([]), deleted: Object.freeze([]), named: false });

/** What one step writes and deletes, in the order it happens (sources go before the target is written). */
function changesOfStep(step: string, words: readonly string[]): StepChanges {
  const [program, sub] = words;
  // Most steps (`grep`, `ls`, `npm test 2>&1`) run no program below and redirect to no file.
  const toFile = mayRedirectToFile(step);
  if (!toFile && !CHANGERS.has(program ?? "")) return NO_CHANGES;
  const redirected = toFile ? redirectTargets(step) : [];
  const gitRm = program === "git" && sub === "rm";
  if (gitRm || DELETERS.has(program ?? "")) {
    const deleted = gitRm && words.includes("--cached") ? [] : operands(words, gitRm ? 2 : 1);
    return { written: redirected, deleted, named: gitRm };
  }
  // `git mv` is `mv` for the file lists. A moved file is gone under its old name whether or not
  // the branch touched it before (`named`), else the new name would appear from nowhere.
  const gitMv = program === "git" && sub === "mv";
  if (program === "mv" || program === "cp" || gitMv) {
    const { written, deleted } = moveOrCopy(gitMv ? words.slice(1) : words, program !== "cp");
    return { written: [...written, ...redirected], deleted, named: true };
  }
  const written =
    program === "sed" ? sedTargets(words) : program === "perl" ? perlTargets(words) : program === "tee" ? operands(words, 1) : [];
  return { written: [...written, ...redirected], deleted: [], named: false };
}

const SUBSHELL_SPECIAL = /['"\\()]/g;

/** Where the next quote, backslash or parenthesis of `text` is from `from`, or -1. */
function nextSpecial(text: string, from: number): number {
  SUBSHELL_SPECIAL.lastIndex = from;
  // One character long: `test` leaves `lastIndex` just after it, and builds no match array.
  return SUBSHELL_SPECIAL.test(text) ? SUBSHELL_SPECIAL.lastIndex - 1 : -1;
}

/**
 * A step with the subshell parentheses around it taken off: `(cd sub` opens one, `x > y)` closes
 * one; a `)` that closes a `(` of the step itself (`$(date)`, `$((3 > 2))`) is part of the text.
 */
function subshellParts(step: string): { opened: number; text: string; closed: number } {
  // Most steps hold no parenthesis: nothing to take off (a step comes trimmed from `splitSteps`).
  if (!step.includes("(") && !step.includes(")")) return { opened: 0, text: step.trim(), closed: 0 };
  const lead = /^[(\s]*/.exec(step)?.[0] ?? "";
  const rest = step.slice(lead.length);
  let depth = 0;
  let closed = 0;
  let quote: number | undefined;
  // The text is kept in slices between the closing parentheses left out, not a character at a time.
  let kept = "";
  let from = 0;
  for (let i = 0; i < rest.length; i++) {
    // Inside quotes only the closing quote counts; outside, only quotes, backslashes and parentheses.
    i = quote === undefined ? nextSpecial(rest, i) : rest.indexOf(quote === 39 ? "'" : '"', i);
    if (i === -1) break;
    const code = rest.charCodeAt(i);
    if (quote !== undefined) quote = undefined;
    else if (code === 39 /* ' */ || code === 34 /* " */) quote = code;
    else if (code === 92 /* \ */)
      i++; // an escaped character is kept with its backslash, whatever it is
    else if (code === 40 /* ( */) depth++;
    else if (code === 41 /* ) */ && depth > 0) depth--;
    else if (code === 41) {
      closed++;
      kept += rest.slice(from, i);
      from = i + 1;
    }
  }
  kept += rest.slice(from);
  return { opened: lead.replace(/\s/g, "").length, text: kept.trim(), closed };
}

/** A step's first word when it is plain (no quote, backslash or redirection in it, a blank or the end after it). */
const PLAIN_FIRST_WORD = /^[^\s'"\\<>&]+(?=\s|$)/g;

/**
 * Whether a step reads and changes nothing by its first word alone, its other words unread: a
 * plain first word is the first of its `shellWords` and of `readCommand`'s words, and one that is
 * no prefix, `cd`, shell, reader or program `changesOfStep` reads, with no redirection to a file,
 * leaves every branch below with nothing to do (`grep -n "a\.b" f`).
 */
function touchesNothing(step: string): boolean {
  // Global, so that `test` leaves `lastIndex` at the word's end (the lookahead takes nothing): no match array.
  PLAIN_FIRST_WORD.lastIndex = 0;
  const first = PLAIN_FIRST_WORD.test(step) ? step.slice(0, PLAIN_FIRST_WORD.lastIndex) : undefined;
  if (first === undefined || isPrefix(first) || first === "cd" || SHELLS.has(first)) return false;
  return !isReaderName(first) && !CHANGERS.has(first) && !mayRedirectToFile(step);
}

/** The files a shell command reads, deletes and writes, as file events in order (see the top of this file). */
export function shellFileEvents(command: string): FileEvent[] {
  const events: FileEvent[] = [];
  if (!MAY_TOUCH.test(command)) return events;
  // `undefined`: the working directory; `null`: somewhere we cannot name (`cd -`, `cd $X`).
  let dir: string | null | undefined;
  const place = (word: string): string | undefined => {
    if (!nameable(word)) return undefined;
    const absolute = word.startsWith("/") || word.startsWith("~");
    if (absolute || dir === undefined) return word;
    return dir === null ? undefined : `${dir}/${word}`;
  };
  // The folders to return to when a subshell `( … )` ends: a `cd` inside one holds only there.
  const outer: (string | null | undefined)[] = [];
  const steps = splitSteps(command);
  // Each step's parts once: a step is looked at again for every pipe before it.
  const parts = steps.map((step) => subshellParts(step.text));
  // Whether what step `i` writes to its pipe reaches the session: every step after it passes it on (see shell-reads.ts).
  const reachesSession = (i: number): boolean => {
    for (let j = i + 1; j < steps.length; j++) {
      const next = steps[j];
      const text = parts[j]?.text;
      if (next === undefined || text === undefined || !passesInputOn(text, PREFIX)) return false;
      if (next.next !== "|") return true;
    }
    return true;
  };
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const part = parts[i];
    if (step === undefined || part === undefined) continue;
    const { opened, text, closed } = part;
    for (let k = 0; k < opened; k++) outer.push(dir);
    const idle = touchesNothing(text);
    const words = idle ? [] : shellWords(text);
    while (words[0] !== undefined && isPrefix(words[0])) words.shift();
    if (idle) {
      // Its program reads and changes nothing (see `touchesNothing`).
    } else if (words[0] === "cd") {
      const to = words[1];
      dir =
        to === undefined || to === "-" || to.includes("$")
          ? null
          : to.startsWith("/") || to.startsWith("~") || dir === undefined
            ? to
            : dir === null
              ? null
              : `${dir}/${to}`;
    } else if (SHELLS.has(words[0] ?? "") && /^-[a-z]*c$/.test(words[1] ?? "") && words[2] !== undefined) {
      // `bash -c '…'`: the script's own changes, from the folder this step ran in.
      for (const event of shellFileEvents(words[2])) {
        const path = place(event.path);
        if (path !== undefined) events.push({ ...event, path });
      }
    } else {
      // Whether what it read reaches the session is asked only of a step that read something (most read nothing).
      const reads = readsOfWords(text, words, PREFIX);
      if (reads.length > 0 && (step.next !== "|" || reachesSession(i)))
        for (const word of reads) {
          const path = place(word);
          if (path !== undefined) events.push({ op: "read", path });
        }
      const { written, deleted, named } = changesOfStep(text, words);
      for (const word of deleted) {
        const path = place(word);
        if (path !== undefined) events.push({ op: "delete", path, named });
      }
      for (const word of written) {
        const path = place(word);
        if (path !== undefined) events.push({ op: "write", path });
      }
    }
    for (let k = 0; k < closed && outer.length > 0; k++) dir = outer.pop();
  }
  return events;
}
