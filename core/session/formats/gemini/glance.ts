/** What a Gemini CLI session's first and last lines tell: its id, folder, first request and title. */
import { stringField } from "../../../json.ts";
import { requestTitle } from "../glance.ts";
import type { GlanceInput, SessionGlance } from "../types.ts";
import { isIgnoredUserText, partsOf, textOfParts } from "./messages.ts";
import { cwdOfMessages } from "./read.ts";
import { glanceLegacy } from "./legacy.ts";
import { foldRecords } from "./records.ts";

/**
 * Undefined for a file Gemini does not list: a subagent's, or one with nothing to resume (the
 * file every resume starts beside the one it continues, holding only Gemini's context): the
 * session of that id is the file with the content.
 */
export function glanceGemini({ head, tail, folderOwner }: GlanceInput): SessionGlance | undefined {
  const lines = head.map((text, index) => ({ text, line: index + 1 }));
  const folded = foldRecords(lines);
  if (folded.metadataLine === undefined) return glanceOlderSession(head, tail, folderOwner);
  const id = stringField(folded.metadata, "sessionId");
  if (folded.metadataLine !== 1 || !id || folded.metadata.kind === "subagent") return undefined;
  // The whole history: a compression's summary is no request, the one it condensed still is.
  const records = folded.steps.flatMap((step) => (step.compression ? [] : [step.message.record]));
  const asked = records.find((r) => r.type === "user" && !isIgnoredUserText(textOfParts(partsOf(r.content))));
  const answered = records.some((r) => r.type === "gemini");
  if (asked === undefined && !answered) return undefined;
  // A summary Gemini generated is set late: the tail's last `$set` naming one.
  const summary = foldRecords(tail.map((text, index) => ({ text, line: index + 1 }))).metadata.summary;
  return {
    id,
    cwd: cwdOfMessages(records) ?? folderOwner,
    title: typeof summary === "string" ? requestTitle(summary) : undefined,
    firstRequest: asked === undefined ? undefined : requestTitle(textOfParts(partsOf(asked.content))),
  };
}

/**
 * A session from before JSON Lines (one JSON object, legacy.ts), listed as Gemini lists it: with
 * a `sessionId`, something to resume, and no subagent's. Its messages hold no `<session_context>`:
 * its folder is the one its project folder's marker names.
 */
function glanceOlderSession(head: readonly string[], tail: readonly string[], folderOwner: string | undefined): SessionGlance | undefined {
  const seen = glanceLegacy(head, tail);
  if (seen?.id === undefined || seen.id === "" || seen.kind === "subagent" || !seen.resumable) return undefined;
  return {
    id: seen.id,
    cwd: folderOwner,
    title: typeof seen.summary === "string" ? requestTitle(seen.summary) : undefined,
    firstRequest: seen.firstRequest === undefined ? undefined : requestTitle(seen.firstRequest),
  };
}
