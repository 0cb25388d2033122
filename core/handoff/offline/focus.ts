/**
 * `--focus` shapes the document: the goal follows the request closest to it, and the next steps
 * it names come first, while steps about what it says to leave alone are dropped.
 */
import { lazyWordSet } from "../../lazy.ts";

export interface FocusTerms {
  /** Words of what to work on. */
  wanted: Set<string>;
  /** Words of what to leave alone ("leave the build-speed work alone", "skip the docs"). */
  unwanted: Set<string>;
}

const STOP = lazyWordSet(
  "the a an and or but of to in on for with from into at by is are be it its this that these those work working about only just then first also alone leave skip ignore avoid without except not don't dont do",
);

function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => !STOP().has(w) && (w.length >= 3 || /\d/.test(w)));
}

export function focusTerms(focus: string | undefined): FocusTerms | undefined {
  if (focus === undefined || focus.trim() === "") return undefined;
  const wanted = new Set<string>();
  const unwanted = new Set<string>();
  for (const clause of focus.split(/[;,.]|\s(?:but|and then)\s/i)) {
    const negative = /^\s*(?:leave|skip|ignore|avoid|not|don't|dont|do not|without|except|no)\b/i.test(clause);
    for (const word of terms(clause)) (negative ? unwanted : wanted).add(word);
  }
  for (const word of wanted) unwanted.delete(word);
  return { wanted, unwanted };
}

/**
 * How well a text matches the focus: the number of wanted words it holds; -1 when it holds only
 * words of what to leave alone. Word stems of four letters or more match ("flaky" ~ "flake").
 */
export function relevance(text: string, focus: FocusTerms): number {
  const words = new Set(terms(text));
  const hit = (set: Set<string>) =>
    [...set].filter((t) => words.has(t) || (t.length >= 5 && [...words].some((w) => w.length >= 5 && w.slice(0, 4) === t.slice(0, 4))))
      .length;
  const wanted = hit(focus.wanted);
  return wanted === 0 && hit(focus.unwanted) > 0 ? -1 : wanted;
}
