/**
 * The sections code adds after the six (spec step 6): Session Facts, then the verbatim tail of
 * the last exchanges. One home for their order and for what one says because of the other (with
 * the tail there, Session Facts point at it instead of repeating the last request).
 */
import type { SessionFacts } from "../session/facts.ts";
import type { ContextMessage } from "../session/messages.ts";
import { userConstraints } from "./notes/constraints.ts";
import { appendSessionFacts, renderSessionFacts, type SourceRow } from "./facts-section.ts";
import { appendLastExchanges, renderLastExchanges } from "./last-exchanges.ts";

export interface CodeSectionsInput {
  /** The branch context the sections are read from (redacted, in the pipeline). */
  context: readonly ContextMessage[];
  /** The facts read off the branch; undefined leaves Session Facts out (`--no-facts`). */
  facts: SessionFacts | undefined;
  sourcePath: string;
  sourceIsStream?: boolean;
  sourceRow?: SourceRow;
  /** The session's folder: the tail shows paths inside it relative to it (default: the facts' cwd). */
  cwd?: string;
  /** Append `## Last Exchanges`. */
  lastExchanges: boolean;
  /** The rules the user stated, when read already (`userConstraints` of `context`); else read here. */
  constraints?: readonly string[];
}

/** Whether a run adds the tail: as asked, else on for the offline engine only. */
export function wantsLastExchanges(asked: boolean | undefined, engine: "llm" | "offline" | undefined): boolean {
  return asked ?? engine === "offline";
}

/** The document with Session Facts and the tail after it, each replacing any copy a model echoed. */
export function appendCodeSections(document: string, input: CodeSectionsInput): string {
  const tail = input.lastExchanges ? renderLastExchanges(input.context, { cwd: input.cwd ?? input.facts?.cwd }) : undefined;
  let whole = document;
  if (input.facts !== undefined) {
    const facts = renderSessionFacts(input.facts, input.sourcePath, {
      constraints: input.constraints ?? userConstraints(input.context),
      sourceIsStream: input.sourceIsStream,
      sourceRow: input.sourceRow,
      lastRequestInTail: tail?.holdsLastRequest === true,
    });
    whole = appendSessionFacts(whole, facts);
  }
  return tail?.section === undefined ? whole : appendLastExchanges(whole, tail.section);
}
