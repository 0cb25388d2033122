/**
 * The user steering the work: a reply that starts by turning down what the assistant just said
 * or proposed ("No, don't run it in the web process …", "No, fake timers would hide the race …",
 * "I told you …"). The change of course is a Key Decision, with the assistant's proposal and the
 * user's reason in their own words. (A correction's sentences that say what must or must not be
 * are the user's rules, read with the others: notes/rules.ts.)
 */
import type { Exchange, OfflineNotes } from "./note-types.ts";
import { userProse } from "../notes/prose.ts";
import { isCorrection } from "../notes/rules.ts";
import type { UserRequest } from "./user-requests.ts";
import { capText, countWords, splitSentences } from "../notes/text.ts";

/** The assistant's words the user answered: its last sentences of some substance (not a bare "OK?"). */
function proposalOf(exchange: Exchange | undefined): string | undefined {
  const text = exchange?.lastText?.text;
  if (text === undefined) return undefined;
  const sentences = splitSentences(text).filter((s) => countWords(s) >= 5);
  const last = sentences.slice(-2).join(" ");
  return last === "" ? undefined : capText(last, 220);
}

/** Notes a correction of the assistant as the decision it steered, with both sides' words. */
export function noteSteering(notes: OfflineNotes, request: UserRequest, previous: Exchange | undefined): void {
  const prose = userProse(request.text).prose.trim();
  if (!isCorrection(prose)) return;
  const proposal = proposalOf(previous);
  if (proposal === undefined) return;
  notes.steered.push({ text: `The user turned down what the assistant said ("${proposal}"): "${capText(prose, 320)}"`, at: request.at });
}
