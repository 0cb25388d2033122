/**
 * The notes (the user's rules for Session Facts, the offline engine's reading) are read in
 * English. This file says when a text is plainly in another language, so the engine can say it
 * did not read it rather than guess: a reply it cannot read is never
 * called a completion, and a user it cannot read is never said to have stated no rules. It also
 * knows the words a few languages use for "never", "always" and "must", so the plainest rules
 * are still quoted. Everything else stays English-first.
 */
import { lazyWordSet } from "../../lazy.ts";
import { hints, hintsIn } from "./hints.ts";

/** Common English words; a text with more words of another language than these is not English. */
const ENGLISH = lazyWordSet(
  "the a an and or but of to in on at for with from by is are was were be been it its this that these those i you we they not yes do does did have has had will would can could should now all some any as if so then than what which who when where why how there here just also",
);

/**
 * Common words of German, French, Spanish, Portuguese, Italian and Dutch that are not English
 * words too (so "die", "in", "no", "a" are missing).
 */
const OTHER = lazyWordSet(
  "der das und ist nicht ich noch wird mit auf für eine einen einem einer dem den des sich auch nach bei wir zu von bitte dafür schon jetzt wurde werden kann muss sind habe aber oder wenn dann weil ohne nur sehr mehr wieder kein keine",
  "le la les et est pas je une des du que qui dans pour sur avec ce cette sont ai été fait mais très aussi maintenant encore",
  "el los las y es una por para con del lo está son ya pero muy también ahora todavía",
  "os não uma um com da em já são também agora ainda",
  "il gli è che non della sono già anche ora ancora",
  "het een niet ik nog wordt met voor ook zijn dat van",
);

/** Letters of scripts other than Latin (Han, Kana, Hangul, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai …). */
const NON_LATIN_LETTER = /(?=\p{L})\P{Script=Latin}/u;

/** How much of a text is looked at: its language shows in its first sentences, and a long reply costs no more. */
const SAMPLE = 2000;

/** Words that are code, not language: paths, identifiers, numbers, `inline code`. */
function proseWords(sample: string): string[] {
  return sample
    .split(/[\s,.;:!?()[\]{}"“”„«»'‘’。、！？：；（）]+/)
    .filter((w) => /\p{L}/u.test(w) && !/[/\\_=<>@#$%^&*+|~]|\p{Ll}\p{Lu}|\d/u.test(w));
}

/** How many common English words, and common words of the other languages, a text holds (code never is one). */
function commonWords(sample: string): { english: number; other: number } {
  let english = 0;
  let other = 0;
  for (const word of sample.toLowerCase().split(/[^\p{L}]+/u)) {
    if (ENGLISH().has(word)) english++;
    else if (OTHER().has(word)) other++;
  }
  return { english, other };
}

/** The start of a text without its `inline code`: what its language is judged on. */
function sampleOf(text: string): string {
  return text.slice(0, SAMPLE).replace(/`[^`]*`/g, " ");
}

/**
 * Whether a text is plainly not English: most of its words are in another script, or it holds
 * at least two common words of another language and more of them than English ones. Short or
 * mixed texts count as English, so the patterns still read terse English replies ("Renamed
 * parseArgs → parseFlags; 14 passing.").
 */
export function isForeign(text: string): boolean {
  const sample = sampleOf(text);
  // Pure ASCII holds no other script: only the word counts can tell.
  if (/[^\x00-\x7F]/.test(sample)) {
    const words = proseWords(sample);
    if (words.filter((w) => NON_LATIN_LETTER.test(w)).length * 2 > words.length && words.length > 0) return true;
  }
  const { english, other } = commonWords(sample);
  return other >= 2 && other > english;
}

/**
 * "Never", "always" and "must" in a few languages, as the plainest rules say them: German,
 * French, Spanish, Portuguese, Italian, Dutch, Russian, Japanese, Chinese and Korean. A sentence
 * holding one is a rule, as an English one with "never" is (see `isForeignRule`).
 */
const RULE_WORDS_LATIN =
  /(?<!\p{L})(?:niemals|nie|immer|muss|müssen|musst|darf nicht|dürfen nicht|auf keinen fall|jamais|toujours|doit|doivent|il faut|interdit|nunca|siempre|debe|deben|hay que|prohibido|sempre|deve|devem|proibido|mai più|devono|nooit|altijd|moet|moeten|никогда|всегда|должен|должна|должно|должны|нельзя|не надо)(?!\p{L})/iu;
/** Japanese, Chinese and Korean need no word boundaries; Japanese "…すること。" ends an instruction. */
const RULE_WORDS_CJK =
  /必ず|絶対|しないで|してはいけない|してはならない|禁止|べき|こと[。！]?$|不要|必须|务必|永远|总是|不能|不得|절대|항상|반드시|하지 마|금지/u;

/** Whether a lower-cased sentence may hold a rule word of another language (`isForeignRule` can only say yes then; see hints.ts). */
export function mayHoldForeignRule(lower: string): boolean {
  // One pattern first (its words anywhere, not yet whole), since most sentences hold none; the words' edges are asked after.
  return LOOSE_RULE_WORD.test(lower) && hintsIn(lower, hints("foreignWord", "foreignLetter")) !== 0;
}

/** hints.ts's words of other languages, and their letters, as one pattern (hints.test.ts checks they are the same words). */
export const LOOSE_RULE_WORD =
  /niemals|nie|immer|muss|musst|darf nicht|auf keinen fall|jamais|toujours|doit|doivent|il faut|interdit|nunca|siempre|debe|deben|hay que|prohibido|sempre|deve|devem|proibido|devono|nooit|altijd|moet|moeten|[ùüſ\u0400-\u04ff\u1c80-\u1c8f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/** A rule in another language; a Latin-script rule word counts only in a sentence that does not read as English ("the nie function"). */
export function isForeignRule(sentence: string): boolean {
  return mayHoldForeignRule(sentence.toLowerCase()) && readsAsForeignRule(sentence);
}

/** `isForeignRule` without its hint: the patterns asked whatever the sentence holds. */
export function readsAsForeignRule(sentence: string): boolean {
  if (RULE_WORDS_CJK.test(sentence.trim())) return true;
  if (!RULE_WORDS_LATIN.test(sentence)) return false;
  const { english, other } = commonWords(sampleOf(sentence));
  return english === 0 || other > english;
}
