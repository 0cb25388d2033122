/**
 * Acknowledgements and closings: user messages that ask for nothing ("ok", "perfect — thanks",
 * "Thanks a lot, that's all", "merci, c'est tout"), and assistant replies that report nothing
 * ("Sure.", "You're welcome!"). Recognised by shape: closing phrases are taken out, and what
 * is left must be only words of thanks or approval.
 */
import { lazyWordSet } from "../../lazy.ts";

/** Words that, alone or together, only acknowledge ("ok", "perfect, thanks!", "wow, it works", "great job", "👍"). */
const ACKNOWLEDGEMENT_WORDS = lazyWordSet(
  "ok okay k kk yo wow thanks thank you thx ty tysm great nice cool perfect good lol haha hm hmm awesome excellent sweet amazing yay works it everything all very much so a lot job work indeed 👍 🙏 🎉 ❤️",
);

/**
 * Closings in English: the user ends the session or the exchange ("that is all", "no, that's
 * all", "that's everything for today", "we're done here", "see you tomorrow", "bye").
 */
const CLOSING =
  /\b(?:(?:(?:no|nope|nah)\s+)?that(?:'s| is| was| will be|'ll be| should be)? (?:all|it|everything)(?: (?:for (?:now|today|tonight)|i needed|i wanted|thanks?))?|that'?ll do|(?:i'?m|i am|we'?re|we are|you'?re|you are|all) (?:done|set|good)(?: (?:here|for now|for today))?|done (?:here|for (?:now|today))|nothing (?:else|more)(?: (?:for now|for today|to do))?|no more(?: for now)?|(?:good)?bye|see you(?: (?:later|soon|tomorrow|next time))?|cheers|done|for (?:now|today))\b/g;

/**
 * A few common closings in other languages (thanks, "that is all"): enough that a user who
 * writes in their language is not read as asking for something when they end the session.
 */
const FOREIGN_CLOSING =
  /merci(?: beaucoup)?|c'est tout|danke(?: schön| sehr)?|das war'?s|das ist alles|gracias|eso es todo|grazie|è tutto|obrigad[oa]|é tudo|bedankt|dat is alles|ありがとう(?:ございます)?|以上です|以上|どうも|谢谢|就这些|спасибо|это вс[её]/g;

/** Separators between acknowledging words: punctuation (also the em dash and CJK punctuation) and blanks. */
const SEPARATORS = /[.!,;:—–\-、。，！\s]+/g;

/** A reply like "ok", "wow", "perfect — thanks!" or "Thanks, that is all." that asks for nothing. */
export function isAcknowledgement(text: string): boolean {
  const tokens = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(SEPARATORS, " ")
    .replace(CLOSING, " ")
    .replace(FOREIGN_CLOSING, " ")
    .trim()
    .split(" ")
    .filter((t) => t !== "");
  return tokens.every((t) => ACKNOWLEDGEMENT_WORDS().has(t) || /^\p{Extended_Pictographic}+$/u.test(t));
}

/** The sentences of a reply that only answer politely ("Sure.", "You're welcome!", "Happy to help", "Of course!"). */
const COURTESY =
  /^(?:(?:sure(?: thing)?|of course|certainly|absolutely|no problem|no worries|you'?re (?:very )?welcome|(?:i'?m )?(?:happy|glad) to help|my pleasure|anytime|any time|will do|got it|ok(?:ay)?|great|thanks?(?: you)?)[\s,.!—–-]*)+$/i;

/** An assistant reply that is only courtesy: it reports nothing done, and closes no request. */
export function isCourtesyOnly(text: string): boolean {
  const flat = text
    .replace(/[’‘]/g, "'")
    .replace(/[🙂😊👍]/gu, "")
    .trim();
  return flat !== "" && COURTESY.test(flat);
}
