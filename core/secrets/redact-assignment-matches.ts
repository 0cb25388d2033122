/**
 * The assignments of one line (redact-assignments.ts's pattern), found where they can start
 * only: every assignment holds a key word, and between its start and the first key word in it
 * stand only quotes, backslashes and a key's characters. So the pattern is tried at the places
 * of that run before each key word, not at every place of the line: the same matches, in the
 * same order (a scan tries the places in order, and no match starts elsewhere), for a fraction
 * of the work, as most key words on a line start no assignment (`token count`, `the key`).
 */
import { ASSIGNMENT_HINT, ASSIGNMENT_PATTERN, MAY_HOLD_ESCAPE, PLAIN_ASSIGNMENT_PATTERN } from "./redact-assignments.ts";

/** The two patterns tried at one place each (sticky). */
const ASSIGNMENT_AT = new RegExp(ASSIGNMENT_PATTERN.source, "iy");
const PLAIN_ASSIGNMENT_AT = new RegExp(PLAIN_ASSIGNMENT_PATTERN.source, "iy");
const KEY_WORDS = new RegExp(ASSIGNMENT_HINT.source, "gi");

/**
 * Past this many key words on one line, the rest of it is left to the pattern's own scan, which
 * finds the same matches: a line made of key words (hostile text) costs no more than it did.
 */
const KEY_WORDS_TRIED = 32;

/** What may stand between an assignment's start and its first key word: `A-Za-z0-9_.-`, a backslash, a quote (the lead and flag of ASSIGNMENT_PATTERN). */
function mayLeadKeyWord(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 95 ||
    c === 46 ||
    c === 45 ||
    c === 92 ||
    c === 34 ||
    c === 39
  );
}

/** The matches of ASSIGNMENT_PATTERN in `line` (PLAIN_ASSIGNMENT_PATTERN where no escape can be), as `line.matchAll` gives them. */
export function assignmentMatches(line: string): RegExpExecArray[] {
  const escapes = MAY_HOLD_ESCAPE.test(line);
  const at = escapes ? ASSIGNMENT_AT : PLAIN_ASSIGNMENT_AT;
  const matches: RegExpExecArray[] = [];
  const keyWords = new RegExp(KEY_WORDS);
  // Places before `next` are tried (or inside a match); the next match starts at `next` or after.
  let next = 0;
  let seen = 0;
  for (let word = keyWords.exec(line); word !== null; word = keyWords.exec(line)) {
    if (++seen > KEY_WORDS_TRIED) {
      const rest = new RegExp(escapes ? ASSIGNMENT_PATTERN : PLAIN_ASSIGNMENT_PATTERN);
      rest.lastIndex = next;
      for (let match = rest.exec(line); match !== null; match = rest.exec(line)) matches.push(match);
      return matches;
    }
    let start = word.index;
    while (start > next && mayLeadKeyWord(line.charCodeAt(start - 1))) start--;
    for (let place = Math.max(start, next); place <= word.index; place++) {
      at.lastIndex = place;
      const match = at.exec(line);
      if (match === null) continue;
      matches.push(match);
      next = place + match[0].length;
      break;
    }
    next = Math.max(next, word.index + 1);
    // Every key word is looked at (the next may start inside this one's run), none before `next`.
    keyWords.lastIndex = next;
  }
  return matches;
}
