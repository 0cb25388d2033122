import { formatCount } from "../format.ts";
import type { ChatRequest } from "./types.ts";

/**
 * How much of an answer we read before deciding the endpoint is not answering but running on (a
 * small local model caught in a loop writes until it is stopped). Everything a model sends, its
 * reasoning included, counts: the output limit we send covers both. Past the bound the stream is
 * closed at once and the handoff fails, so nothing that large is held, written or recorded.
 *
 * The agent engines' bound (`AGENT_OUTPUT_LIMIT_BYTES`) is of another kind: all an agent
 * prints (the prompt echoed, each streamed piece again), so it is much larger.
 */

/** Characters one token can stand for, with a wide margin: most tokenizers average about 4. */
export const CHARS_PER_TOKEN_BOUND = 16;

/** Added to every bound, so a small `--max-output-tokens` still leaves room for a whole answer. */
export const ANSWER_SLACK_CHARS = 4096;

/**
 * The bound when no output limit is sent, and the most any limit buys: about a million tokens,
 * more than any model writes in one answer and hundreds of times any handoff document.
 */
export const ANSWER_CHAR_LIMIT = 4_000_000;

/** What an agent engine's run may print (stdout and stderr) before it is stopped. */
export const AGENT_OUTPUT_LIMIT_BYTES = 64 * 1024 * 1024;

/** The output limit a request sends, in whichever field its provider takes. */
export function sentOutputLimit(request: ChatRequest): number | undefined {
  return request.max_tokens ?? request.max_completion_tokens;
}

/** The most characters (answer and reasoning together) we read of the answer to `request`. */
export function answerCharLimit(request: ChatRequest): number {
  const sent = sentOutputLimit(request);
  return sent === undefined ? ANSWER_CHAR_LIMIT : Math.min(ANSWER_CHAR_LIMIT, sent * CHARS_PER_TOKEN_BOUND + ANSWER_SLACK_CHARS);
}

/** Why a handoff failed when the answer from `where` passed its bound. */
export function describeAnswerOverflow(request: ChatRequest, where: string): string {
  const sent = sentOutputLimit(request);
  const asked =
    sent === undefined ? "more than any handoff document needs" : `far more than the ${formatCount(sent)} output tokens asked for`;
  return `the answer from ${where} passed ${formatCount(answerCharLimit(request))} characters, ${asked}; it was stopped (a model repeating itself?)`;
}

/**
 * The longest line of the event stream we take, in bytes: a provider may send the whole answer
 * as one event (6 bytes a character at worst, JSON's `\uXXXX`, and room for the envelope). The
 * stream reader holds a line whole until it ends, so this bound is what keeps one endless line
 * (50 MB of `x` in one event) from being held before the character bound could see it.
 */
export function answerLineByteLimit(request: ChatRequest): number {
  return answerCharLimit(request) * 6 + 65_536;
}
