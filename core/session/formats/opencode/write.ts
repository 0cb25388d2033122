/**
 * A new opencode session that opens with the handoff document, as rows opencode 1.18.33 resumes
 * (`opencode run -s <id>`, `opencode -s <id>`) and continues as the newest of its folder
 * (`opencode run -c`), proven with the real binary by `bun run compat`:
 * - the `project` row opencode would make itself for the folder, only when it has none: in a git
 *   folder the id opencode cached in `.git/opencode` (the repository's first commit); outside
 *   git its `global` project (worktree `/`). A git folder opencode has never opened has no
 *   cached id, and the id it would choose needs git: refused, with what to do.
 * - the `session` row: `directory` the cwd, `path` the cwd below the project's worktree (as
 *   opencode writes it), the title, the version tested;
 * - a user message holding the document as one text part, and an assistant message holding the
 *   acknowledgement (finished, `stop`), each naming the model the source resumes with when it
 *   was an opencode session, else none (opencode then uses its configured model).
 * No event rows: opencode rebuilds a session from these tables, and resumes one without events.
 */
import type { NewRow, NewRows, ProjectPlace } from "../session-rows.ts";
import type { NewSessionInput } from "../types.ts";
import { IdMaker } from "./ids.ts";

/** opencode's project for folders outside any git repository. */
export const GLOBAL_PROJECT = "global";

/** `directory` below `worktree`, as opencode's `path` column holds it (no leading slash; empty at the root). */
function pathBelow(worktree: string, directory: string): string {
  if (worktree === "/") return directory.replace(/^\/+/, "");
  return directory === worktree ? "" : directory.slice(worktree.length + 1);
}

/** The project a new session of `cwd` belongs to, or why none can be chosen. */
function projectOf(place: ProjectPlace): { id: string; worktree: string; vcs: string | null } | { refused: string } {
  if (place.root === undefined) return { id: GLOBAL_PROJECT, worktree: "/", vcs: null };
  const cached = place.cached?.trim();
  if (!cached)
    return {
      refused: `opencode has not opened the git repository ${place.root} yet (it keeps the repository's id in .git/opencode): run \`opencode\` there once, then hand off again`,
    };
  return { id: cached, worktree: place.root, vcs: "git" };
}

/** Why `renderOpencodeRows` would refuse this cwd and place, before anything is made. */
export function opencodePlaceRefusal(cwd: string, place: ProjectPlace): string | undefined {
  if (!cwd.startsWith("/")) return "an opencode session needs the working directory it continues in, and the source session names none";
  const project = projectOf(place);
  return "refused" in project ? project.refused : undefined;
}

export function renderOpencodeRows(input: NewSessionInput, place: ProjectPlace, testedVersion: string): NewRows {
  const cwd = input.cwd;
  if (!cwd?.startsWith("/"))
    return { refused: "an opencode session needs the working directory it continues in, and the source session names none" };
  const project = projectOf(place);
  if ("refused" in project) return project;
  const time = input.timestamp.getTime();
  const ids = new IdMaker(time, input.newEntryId);
  const sessionId = ids.next("ses");
  const userId = ids.next("msg");
  const answerId = ids.next("msg");
  const fromOpencode = input.source.format === "opencode";
  const model = fromOpencode && input.model.pi ? { providerID: input.model.pi.provider, modelID: input.model.pi.modelId } : undefined;
  const rows: NewRow[] = [
    {
      table: "project",
      unlessPresent: "id",
      values: { id: project.id, worktree: project.worktree, vcs: project.vcs, time_created: time, time_updated: time, sandboxes: "[]" },
    },
    {
      table: "session",
      values: {
        id: sessionId,
        project_id: project.id,
        slug: "handed-off",
        directory: cwd,
        path: pathBelow(project.worktree, cwd),
        title: "Handoff",
        version: testedVersion,
        ...(model ? { model: JSON.stringify({ id: model.modelID, providerID: model.providerID }) } : {}),
        time_created: time,
        time_updated: time,
      },
    },
  ];
  const message = (id: string, data: object): NewRow => ({
    table: "message",
    values: { id, session_id: sessionId, time_created: time, time_updated: time, data: JSON.stringify(data) },
  });
  const textPart = (messageId: string, text: string): NewRow => ({
    table: "part",
    values: {
      id: ids.next("prt"),
      message_id: messageId,
      session_id: sessionId,
      time_created: time,
      time_updated: time,
      data: JSON.stringify({ type: "text", text }),
    },
  });
  rows.push(message(userId, { role: "user", time: { created: time }, agent: "build", ...(model ? { model } : {}) }));
  rows.push(textPart(userId, input.wrappedDocument));
  rows.push(
    message(answerId, {
      parentID: userId,
      role: "assistant",
      mode: "build",
      agent: "build",
      path: { cwd, root: project.worktree },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
      ...(model ? { modelID: model.modelID, providerID: model.providerID } : {}),
      time: { created: time, completed: time },
      finish: "stop",
    }),
  );
  rows.push(textPart(answerId, input.acknowledgement));
  return { rows, sessionId };
}
