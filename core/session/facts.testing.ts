/** What the Session Facts tests share: facts of a pi session made of entries, and one tool call with its result. */
import { assistant, call, chain, toolResult, type Fields } from "../../fixtures/sessions/builders.ts";
import { analyzeBranch } from "./analyze.ts";
import type { SessionFacts } from "./facts.ts";
import { parseSession } from "./formats/pi/parse.ts";

export function factsOf(entries: readonly Fields[], cwd?: string): SessionFacts {
  return analyzeBranch(parseSession(chain(entries, cwd === undefined ? {} : { cwd }), "f.jsonl")).facts;
}

/** One assistant turn calling a tool, and its result. */
export const toolTurn = (name: string, args: Fields, result = "ok", isError = false): Fields[] => [
  assistant(1, [call("c1", name, args)], "toolUse"),
  toolResult(2, "c1", name, result, isError),
];
