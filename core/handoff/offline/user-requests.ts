/**
 * What each user message is: a new objective, a follow-up, an answer to the assistant's
 * question, an approval, an acknowledgement, a question about the tool, or only a paste. The
 * goal is built from objectives; approvals and answers belong to the request they answer.
 */
import { inlineCode } from "../notes/inline-code.ts";
import { isForeign } from "../notes/language.ts";
import { isConstraint } from "../notes/rules.ts";
import { isMetaQuestion } from "./patterns.ts";
import { isAcknowledgement } from "./closings.ts";
import { pasteHeadline, stripFillers, userProse } from "../notes/prose.ts";
import { capText, collapseWhitespace, countWords, splitSentences } from "../notes/text.ts";

export type RequestKind = "objective" | "followup" | "question" | "answer" | "approval" | "ack" | "meta" | "paste";

export interface UserRequest {
  /** Verbatim. */
  text: string;
  /** Position in the context. */
  at: number;
  kind: RequestKind;
  /** The request stated as an objective, in the user's words without pastes and fillers ("" when none). */
  statement: string;
  /** The user put the assistant's previous offer off ("later", "not now"). */
  defers: boolean;
  /** The request takes back the plan before it ("forget Postgres, use SQLite"): that plan no longer holds. */
  revises: boolean;
  /** The user's words are plainly not English (see `isForeign`): read only in part. */
  foreign: boolean;
}

const APPROVAL = /\b(yes|yeah|yep|yup|sure|do it|go ahead|go for it|proceed|sounds good|please do|keep going|continue|go on|lgtm)\b|👍/i;
const DEFERRAL = /^(?:later|not now|not yet|maybe later)\b[\s,.!:;—–-]*/i;
/** Verbs a request starts with when it is an instruction ("move X to src/", "delete the file"). */
const IMPERATIVE =
  /^(?:add|fix|make|move|remove|delete|rename|create|write|update|implement|refactor|port|migrate|run|test|build|release|ship|publish|bump|commit|push|tag|deploy|revert|undo|read|check|investigate|find|look|use|replace|change|convert|split|merge|clean|document|copy|open|install|upgrade|tackle|try|put|show|set|cache|debug|review|explain)\b/i;
/** A sentence that only points at what follows it: "Here is the existing code:", "See below.", "The log:". */
const LEAD_IN_TO_MORE = /:\s*$|^(?:here(?:'s| is| are)|below (?:is|are)|see (?:below|attached|the (?:log|code|output|error)s? below))\b/i;
/**
 * Openings that take back the plan before them: "forget Postgres", "forget that", "scrap that",
 * "on second thought". "Forget" counts only before a name or "it/that/this/about" ("forget the
 * old docs" may be a task); "let's not …" is a rule, not a change of plan.
 */
const REVISION =
  /^(?:forget (?:about\b|it\b|that\b|this\b|what i said\b|the (?:idea|plan|approach)\b|(?-i:[A-Z])\w*)|scrap (?:that|this|it|the (?:idea|plan|approach))\b|scratch that|never ?mind\b|change of plans?\b|on second thoughts?\b|cancel (?:that|this|it)\b|instead of (?:that|this)\b)/i;
/** A correction that says so: "actually, use SQLite instead", "no, make it a flag instead". */
const CORRECTION = /^(?:actually|no|nah|wait|hold on|hm+)\b(?=.*\binstead\b)/i;
/** Openers that make a request polite or tentative; the objective is what follows them. */
const LEAD_IN =
  /^(?:i (?:think|believe|guess|suppose|feel like) )?(?:(?:then )?we(?:'re| are) ready to|we need to|we have to|we must|we should|we want to|let'?s|let us|can you|could you|would you|will you|can we|could we|can't we|i want (?:you )?to|i'd like (?:you )?to|i need (?:you )?to|you need to|please|would it make sense to|go ahead and|first,)\s*/i;
/** Words that carry on the work already under way ("and check InvoiceList", "next: getJSON", "now the same for /teams"). */
const CONTINUATION = new Set(["and", "also", "now", "next", "same", "continue", "plus", "too", "another"]);
const OPENERS = new Set(["ok", "okay", "alright", "so", "sooo", "well", "nice", "good", "great", "cool", "perfect", "wow", "the"]);

/** Whether the message opens, after "ok,"/"nice." and the like, with a word that carries on earlier work. */
function continuesEarlierWork(text: string): boolean {
  for (const token of text
    .toLowerCase()
    .split(/[\s,.!:;—–-]+/)
    .filter((t) => t !== "")) {
    if (CONTINUATION.has(token)) return true;
    if (!OPENERS.has(token)) return false;
  }
  return false;
}
/** Replies that pick among what the assistant asked about ("just dates.ts, or everything?"). */
const CHOICE =
  /^\W*(?:everything|all(?: of (?:them|it|those|these))?|both(?: of (?:them|those))?|either|neither|none(?: of (?:them|those))?|the (?:first|second|third|last|former|latter)(?: one)?)\W*$/i;
const TAG_QUESTION = /,\s*(?:aren't we|isn't it|don't we|right|no|ok|okay|yes)\s*\?$/i;

/** One sentence as an objective: fillers and lead-ins dropped, tag questions cut, capitalised. */
function asObjective(sentence: string): string {
  let s = stripFillers(sentence).replace(TAG_QUESTION, "");
  const led = s.replace(LEAD_IN, "");
  if (led !== s && led.endsWith("?")) s = `${led.slice(0, -1)}.`;
  else s = led;
  s = s.replace(/:$/, "").trim();
  return s === "" ? "" : s[0]?.toUpperCase() + s.slice(1);
}

/**
 * The request stated as an objective: its first sentences that are neither rules (those go to
 * Constraints) nor questions about the tool nor a few words leading into a paste, plus the
 * headline of a pasted error when it is short enough to name the problem.
 */
export function statementOf(text: string, max = 240): string {
  const { prose, pastes } = userProse(text);
  const picked: string[] = [];
  let firstRule: string | undefined;
  for (const sentence of splitSentences(prose)) {
    // A rule goes to Constraints, unless the sentence is an instruction that carries one along.
    const rule = isConstraint(sentence) && !IMPERATIVE.test(stripFillers(sentence));
    const meta = isMetaQuestion(sentence);
    if (rule && !meta) firstRule ??= sentence;
    if (rule || meta) continue;
    // "Thanks!" before the request asks for nothing.
    if (isAcknowledgement(sentence)) continue;
    // A few words leading into a paste ("The API says:", "this results in") say nothing by themselves.
    if (countWords(sentence) < 5 && !/[.!?]$/.test(sentence) && pastes.length > 0) continue;
    const objective = asObjective(sentence);
    if (countWords(objective) < 2 && picked.length > 0) continue;
    // After the first sentence, questions only repeat the ask ("know how to do it?"), and a lead-in ("Here is the existing code:") only points at what follows.
    if (picked.length > 0 && (objective.endsWith("?") || LEAD_IN_TO_MORE.test(sentence))) continue;
    if (objective !== "") picked.push(/[.!?…)`"。！？]$/.test(objective) ? objective : `${objective}.`);
    if (picked.length === 2 || picked.join(" ").length >= max) break;
  }
  // A message that is only a requirement ("Last thing: the subject must name the warehouse.") still asks for it.
  if (picked.length === 0 && firstRule !== undefined && pastes.length === 0) picked.push(firstRule);
  const statement = picked.join(" ");
  // With no words of their own, the paste's headline is the request, however long.
  const headline = pasteHeadline(pastes) ?? (statement === "" ? pasteHeadline(pastes, 400)?.slice(0, 160) : undefined);
  const withHeadline =
    headline === undefined
      ? statement
      : statement === ""
        ? inlineCode(headline)
        : `${statement.replace(/[.?!]$/, "")} (${inlineCode(headline)}).`;
  return capText(withHeadline, max);
}

/**
 * Classifies one user message. `afterQuestion`: the assistant's previous message ended with a
 * question, so the message answers it rather than starting something new. `first`: no
 * objective came before it on the branch.
 */
export function classifyRequest(text: string, at: number, afterQuestion: boolean, first: boolean): UserRequest {
  const { prose, pastes } = userProse(text);
  const flat = collapseWhitespace(prose);
  const deferral = DEFERRAL.exec(stripFillers(flat));
  const defers = deferral !== null;
  // "later. first, can CI cache …": what follows a deferral is a request of its own.
  const rest = defers
    ? stripFillers(stripFillers(flat).slice(deferral[0].length)).replace(/^(?:but\s+)?(?:first|instead)\b[,:]?\s*/i, "")
    : flat;
  const bare = stripFillers(rest);
  const stated = (kind: RequestKind) => kind === "objective" || kind === "followup" || kind === "question" || kind === "paste";
  const foreign = isForeign(prose);
  const result = (kind: RequestKind, revises = false): UserRequest => ({
    text,
    at,
    kind,
    statement: stated(kind) ? statementOf(defers ? rest : text) : "",
    defers,
    revises,
    foreign,
  });
  if (bare === "") return result(pastes.length > 0 ? "paste" : defers ? "answer" : "ack");
  // A one-word reply to the assistant's question ("Everything.", "All.", "Both.") is the user's choice, not thanks.
  if (afterQuestion && CHOICE.test(bare)) return result("answer");
  if (isAcknowledgement(bare) || isAcknowledgement(rest)) return result("ack");
  if (isMetaQuestion(rest)) return result("meta");
  const count = countWords(bare);
  // A change of plan is a new objective, whatever its length: the goal follows it. A "no, …" that
  // answers the assistant's question turns its proposal down (steering.ts): the user's goal stands.
  if (!first && count >= 4 && (REVISION.test(bare) || (CORRECTION.test(rest) && !afterQuestion))) return result("objective", true);
  if (count <= 7 && APPROVAL.test(rest) && !/^no\b/i.test(rest)) return result("approval");
  const pasted = pastes.length > 0;
  if (afterQuestion && !pasted) return result(count <= 8 && !IMPERATIVE.test(bare) && !defers ? "answer" : "followup");
  const firstSentence = splitSentences(bare)[0] ?? bare;
  const instruction =
    IMPERATIVE.test(bare) || LEAD_IN.test(stripFillers(bare.replace(/^i (?:think|believe|guess|suppose|feel like) /i, "")));
  if (/[?？]$/.test(firstSentence) && !instruction && !pasted) return result("question");
  // A new objective: the first ask, a report with a paste, or a full instruction that does not carry on the last one.
  if ((first && (instruction || pasted || count >= 6)) || (!continuesEarlierWork(rest) && (pasted || (instruction && count >= 12))))
    return result("objective");
  return result("followup");
}
/** Requests that describe work to do: what the goal is built from. */
export function isWorkRequest(request: UserRequest): boolean {
  return request.kind === "objective" || request.kind === "followup" || request.kind === "paste" || request.kind === "question";
}
