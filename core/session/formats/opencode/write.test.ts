import { describe, expect, test } from "bun:test";
import { HANDOFF_ACKNOWLEDGEMENT } from "../handoff-text.ts";
import type { NewRow, ProjectPlace, Row } from "../session-rows.ts";
import type { NewSessionInput } from "../types.ts";
import { idTimeBits, opencodeId } from "./ids.ts";
import { opencodeStore } from "./store.ts";

const T = new Date("2026-12-03T06:00:00.000Z");
let n = 0;
const input = (over: Partial<NewSessionInput> = {}): NewSessionInput => ({
  wrappedDocument: "<handoff-context>\nThe work so far.\n</handoff-context>\n\nThe above is a handoff document.",
  acknowledgement: HANDOFF_ACKNOWLEDGEMENT,
  sessionId: "00000000-0000-4000-8000-000000000000",
  newEntryId: () => (++n).toString(16).padStart(8, "0"),
  timestamp: T,
  utcOffsetMinutes: 0,
  cwd: "/work/app/src",
  parentSession: undefined,
  model: { pi: { provider: "fake", modelId: "fake-model" }, omp: "fake/fake-model" },
  source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
  ...over,
});

function rowsOf(over: Partial<NewSessionInput>, place: ProjectPlace): NewRow[] {
  const made = opencodeStore.newRows(input(over), place);
  if ("refused" in made) throw new Error(made.refused);
  return made.rows;
}

/** The rows as the store's SQL would read them back: by table, messages and parts in id order. */
function readBack(rows: NewRow[]): Record<string, Row[]> {
  const of = (table: string) => rows.filter((r) => r.table === table).map((r) => r.values);
  const byId = (a: Row, b: Row) => String(a.id).localeCompare(String(b.id));
  return { session: of("session"), message: of("message").sort(byId), part: of("part").sort(byId) };
}

describe("opencode's ids", () => {
  test.each([
    // Real ids from fixtures/real/opencode/session.json, with their rows' time_created.
    ["ses", "ses_dc59a6705ffeTUmLklH2hW4FHH", 1796276066554],
    ["msg", "msg_23a659b2c001T6oLeibCFvvFxe", 1796276067116],
  ] as const)("%s: the 12 digits are the time × 4096 + 1 as opencode made them", (prefix, real, time) => {
    const ours = opencodeId(prefix, time, 1, "ffffffff");
    expect(ours.slice(0, 16)).toBe(real.slice(0, 16));
    expect(ours).toMatch(/^[a-z]{3}_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
  });
  test("ascending ids of one millisecond sort in the order they were made; sessions sort newest first", () => {
    const ids = [1, 2, 3].map((c) => opencodeId("msg", T.getTime(), c, "00"));
    expect([...ids].sort()).toEqual(ids);
    expect(opencodeId("ses", T.getTime() + 1, 1, "00") < opencodeId("ses", T.getTime(), 1, "00")).toBe(true);
    expect(idTimeBits(ids[0] ?? "")).toBe(idTimeBits(opencodeId("msg", T.getTime(), 0, "00")));
  });
  test("the store takes opencode's session ids, and nothing else", () => {
    expect(
      ["ses_dc59a6705ffeTUmLklH2hW4FHH", "msg_23a659b2c001T6oLeibCFvvFxe", "ses_dc59", "01a22c83-caf8-71de-9277-0c6f4ed6244b"].map(
        opencodeStore.isSessionId,
      ),
    ).toEqual([true, false, false, false]);
  });
});

describe("a new opencode session as rows", () => {
  test.each([
    ["outside git: opencode's global project", { root: undefined, cached: undefined }, "global", "/", "work/app/src"],
    ["in a git folder opencode has opened: the id it cached", { root: "/work/app", cached: "67dd51a5\n" }, "67dd51a5", "/work/app", "src"],
    ["at the repository's root", { root: "/work/app/src", cached: "abc" }, "abc", "/work/app/src", ""],
  ] as const)("%s", (_, place, projectId, worktree, path) => {
    const rows = rowsOf({}, place);
    expect(rows.map((r) => r.table)).toEqual(["project", "session", "message", "part", "message", "part"]);
    expect(rows[0]).toMatchObject({ unlessPresent: "id", values: { id: projectId, worktree } });
    expect(rows[1]?.values).toMatchObject({ project_id: projectId, directory: "/work/app/src", path, version: "1.18.33" });
  });

  test.each([
    ["a git folder opencode never opened", { cwd: "/work/app" }, { root: "/work/app", cached: undefined }, "run `opencode` there once"],
    ["an empty cached id", { cwd: "/work/app" }, { root: "/work/app", cached: " \n" }, "run `opencode` there once"],
    ["no working directory", { cwd: undefined }, { root: undefined, cached: undefined }, "needs the working directory"],
    ["a relative working directory", { cwd: "app" }, { root: undefined, cached: undefined }, "needs the working directory"],
  ] as const)("refused: %s", (_, over, place, words) => {
    const made = opencodeStore.newRows(input(over), place);
    expect("refused" in made && made.refused).toContain(words);
  });

  test("read back, it opens with the document as the previous handoff and the acknowledgement, and no model unless the source was opencode's", () => {
    const rows = rowsOf({}, { root: undefined, cached: undefined });
    const session = opencodeStore.read(readBack(rows), "opencode.db");
    expect(session.entries.map((e) => [e.type, e.data.customType ?? (e.data.message as { role?: string })?.role])).toEqual([
      ["custom_message", "handoff"],
      ["message", "assistant"],
    ]);
    expect(session.entries[0]?.data.content).toBe(input().wrappedDocument);
    expect(rows.filter((r) => r.table === "message").map((r) => JSON.parse(String(r.values.data)).model ?? null)).toEqual([null, null]);
    const own = rowsOf(
      { source: { format: "opencode", agentVersion: "1.18.33", modelProvider: "fake" } },
      { root: undefined, cached: undefined },
    );
    expect(JSON.parse(String(own.find((r) => r.table === "message")?.values.data)).model).toEqual({
      providerID: "fake",
      modelID: "fake-model",
    });
  });

  test("every id is opencode's shape, fresh, and the session's is what the rows name", () => {
    const made = opencodeStore.newRows(input(), { root: undefined, cached: undefined });
    if ("refused" in made) throw new Error(made.refused);
    const ids = made.rows.filter((r) => r.table !== "project").map((r) => String(r.values.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(opencodeStore.isSessionId(made.sessionId)).toBe(true);
    expect(
      made.rows.filter((r) => r.table !== "project" && r.table !== "session").every((r) => r.values.session_id === made.sessionId),
    ).toBe(true);
  });
});
