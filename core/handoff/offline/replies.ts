/**
 * Reading the back-and-forth: the assistant's offers ("Want me to fix it too?") and the options
 * it laid out, what the user chose or put off, and the rules the user stated in their own words.
 */
import type { Exchange, Offer, OfflineNotes } from "./note-types.ts";
import { rulesIn } from "../notes/constraints.ts";
import { isOffer } from "./patterns.ts";
import { stripFillers, userProse } from "../notes/prose.ts";
import type { UserRequest } from "./user-requests.ts";
import { capText, collapseWhitespace, countWords, splitSentences, stripCodeBlocks } from "../notes/text.ts";

/** The last sentences of a text, up to `count`, ending with its last sentence. */
export function lastSentences(text: string, count: number, max: number): string {
  const sentences = splitSentences(text);
  return capText(sentences.slice(-count).join(" "), max);
}

/** The offer an exchange ended with, if its last reply asks whether to do more. */
export function noteReply(exchange: Exchange | undefined): Offer | undefined {
  if (!exchange?.lastText || exchange.ending !== "question") return undefined;
  const last = splitSentences(exchange.lastText.text).at(-1) ?? "";
  return isOffer(last) ? { text: lastSentences(exchange.lastText.text, 3, 450), at: exchange.lastText.at } : undefined;
}

/** The rules the user stated in a request (see notes/constraints.ts), at the request's place. */
export function noteConstraints(notes: OfflineNotes, request: UserRequest): void {
  const stated = rulesIn(request.text);
  for (const spec of stated.specifications) notes.specifications.push({ ...spec, at: request.at });
  for (const text of stated.constraints) notes.constraints.push({ text, at: request.at });
}

/** "(a) … / (b) …" or "1. … / 2. …" option lines, by label. */
function optionsIn(text: string): Map<string, string> {
  const prose = stripCodeBlocks(text);
  const options = new Map<string, string>();
  const add = (label: string | undefined, body: string | undefined) => {
    if (label !== undefined && body !== undefined) options.set(label.toLowerCase(), collapseWhitespace(body).replace(/[\s;,.:]+$/, ""));
  };
  for (const line of prose.split("\n")) {
    const match = /^\s*\(?([a-d1-4])[).]\s+(.+)$/i.exec(line);
    add(match?.[1], match?.[2]);
  }
  if (options.size >= 2) return options;
  // Options written inline: "(a) quote in place, (b) add a library."
  options.clear();
  for (const match of prose.matchAll(/\(([a-d])\)\s+(.+?)(?=[,;]?\s+(?:or\s+)?\([a-d]\)\s|[.?!](?:\s|$)|$)/gim)) add(match[1], match[2]);
  return options.size >= 2 ? options : new Map();
}

const RECOMMENDS = /\b(?:go with|suggest|recommend|prefer|pick|choose|vote for)\s+(?:option\s+)?\(?([a-d1-4])\)?(?![\w-])/i;
const USER_CHOICE = /^(?:go with|let'?s (?:go with|use)|pick|choose|option\s+\w+\b|i'd rather|we'll use|stick with)\b/i;

/**
 * Choices: the user picking a way in their own words ("Go with the in-memory LRU …"), or
 * approving the option the assistant recommended ("I'd go with (a). OK?" → "yes").
 */
export function noteChoices(notes: OfflineNotes, request: UserRequest, previous: Exchange | undefined): void {
  for (const sentence of splitSentences(userProse(request.text).prose)) {
    if (USER_CHOICE.test(stripFillers(sentence)))
      notes.choices.push({ text: `The user chose: "${capText(stripFillers(sentence), 220)}"`, at: request.at });
  }
  const proposal = previous?.lastText?.text;
  // A short answer to the assistant's question ("Everything.") is a choice: kept with the question it answers.
  const question = previous?.ending === "question" ? splitSentences(proposal ?? "").at(-1) : undefined;
  // A reply that is itself a question ("are we all committed?") answers nothing.
  if (request.kind === "answer" && question !== undefined && countWords(request.text) <= 4 && !/[?？]\s*$/.test(request.text))
    notes.choices.push({ text: `The user answered "${capText(request.text, 60)}" to: "${capText(question, 220)}"`, at: request.at });
  if (proposal === undefined || (request.kind !== "approval" && request.kind !== "answer") || /^\W*no\b/i.test(request.text)) return;
  const options = optionsIn(proposal);
  const label = RECOMMENDS.exec(stripCodeBlocks(proposal))?.[1]?.toLowerCase();
  const chosen = label === undefined ? undefined : options.get(label);
  if (label === undefined || chosen === undefined) return;
  const others = [...options].filter(([key]) => key !== label).map(([key, text]) => `(${key}) ${capText(text, 120)}`);
  const over = others.length > 0 ? `, over ${others.join("; ")}` : "";
  notes.choices.push({
    text: `Chose (${label}) ${capText(chosen, 200)}${over}: proposed by the assistant, approved by the user ("${capText(request.text, 40)}")`,
    at: request.at,
  });
}
