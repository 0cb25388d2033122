/**
 * The recent sessions of every agent, the current folder's first, newest first: the list a
 * picker offers (listRecentSessions), read in-process from a fake HOME.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FORMATS, formatNamed } from "../../core/index.ts";
import { ACKNOWLEDGEMENT, wrapHandoffDocument } from "../../core/handoff/wrap.ts";
import { APP_IDS, createFakeHome, IDS, NEWEST_FIRST, OLDER_PI, T0, UPDATED, type FakeHome } from "./discover.testing.ts";
import { nearestParentWithSessions } from "./nearest-sessions.ts";
import { listRecentSessions, sessionsToChoose, type RecentFilter } from "./recent-sessions.ts";

let fake: FakeHome;
const OURS = "a1000000-0000-4000-8000-0000000000e1";
beforeAll(() => {
  fake = createFakeHome();
  // A session agent handoff wrote beside app's pi session, newer than every other: nothing happened in it yet.
  const source = fake.paths[IDS.app.pi] ?? "";
  let n = 0;
  const ours = formatNamed("pi").renderNewSession({
    wrappedDocument: wrapHandoffDocument("## Goal\nFix the typo."),
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId: OURS,
    newEntryId: () => (++n).toString(16).padStart(8, "0"),
    timestamp: new Date((T0 + 60) * 1000),
    utcOffsetMinutes: 0,
    cwd: fake.app,
    parentSession: source,
    model: { pi: undefined, omp: undefined },
    source: { format: "pi", agentVersion: undefined, modelProvider: undefined },
  });
  const path = join(dirname(source), ours.fileName);
  writeFileSync(path, ours.content);
  utimesSync(path, T0 + 60, T0 + 60);
});
afterAll(() => rmSync(fake.home, { recursive: true, force: true }));

const home = () => ({ home: fake.home, env: {}, tmpdir: realpathSync(tmpdir()), runFolder: fake.home });
/** A picker offers sessions that are files: those kept as rows (opencode's) are not offered yet. */
const OFFERED = NEWEST_FIRST.filter((agent) => formatNamed(agent).rows === undefined);
const HERE = [...OFFERED.map((agent) => IDS.app[agent]), OLDER_PI];
const ELSEWHERE = OFFERED.map((agent) => IDS.other[agent]);

describe("listRecentSessions: every agent's, the current folder's first, newest first", () => {
  test.each<[string, { filter?: RecentFilter; withoutHandoffSessions?: boolean }, string[], string[]]>([
    ["all of them; our handoff session is one of the folder's", {}, [OURS, ...HERE], ELSEWHERE],
    ["without the sessions agent handoff wrote that nothing happened in yet", { withoutHandoffSessions: true }, HERE, ELSEWHERE],
    ["the newest two of each part", { filter: { limit: 2 }, withoutHandoffSessions: true }, HERE.slice(0, 2), ELSEWHERE.slice(0, 2)],
    [
      "those updated since a time",
      { filter: { sinceMs: (T0 + 20) * 1000 }, withoutHandoffSessions: true },
      HERE.filter((id) => (UPDATED[id] ?? 0) >= T0 + 20),
      [],
    ],
  ])("%s", (_, options, here, elsewhere) => {
    const listed = listRecentSessions(home(), { formats: FORMATS, folder: fake.app, ...options }, () => {});
    expect(listed.map((s) => [s.here, s.glance.id])).toEqual([...here.map((id) => [true, id]), ...elsewhere.map((id) => [false, id])]);
  });

  test("one agent's only", () => {
    const listed = listRecentSessions(home(), { formats: [formatNamed("codex")], folder: fake.other }, () => {});
    expect(listed.map((s) => [s.here, s.glance.id])).toEqual([
      [true, IDS.other.codex],
      [false, IDS.app.codex],
    ]);
  });
});

describe("every list a user chooses from passes over the sessions agent handoff wrote that nothing happened in yet", () => {
  test.each<[string, () => string[]]>([
    ["the --pick list", () => sessionsToChoose(home(), FORMATS, () => {}).sessions.map((s) => s.glance.id)],
    ["the --pick list, one agent's", () => sessionsToChoose(home(), [formatNamed("pi")], () => {}).sessions.map((s) => s.glance.id)],
    [
      "listRecentSessions, asked to",
      () =>
        listRecentSessions(home(), { formats: FORMATS, folder: fake.app, withoutHandoffSessions: true }, () => {}).map((s) => s.glance.id),
    ],
  ])("%s: ours is left out, the rest kept", (_, ids) => {
    const listed = ids();
    expect(listed).not.toContain(OURS);
    expect(listed).toContain(IDS.app.pi);
  });

  test("the --pick list says at -v which it passed over, and counts them", () => {
    const said: string[] = [];
    const found = sessionsToChoose(home(), FORMATS, (line) => said.push(line));
    expect(found.passedOver).toBe(1);
    expect(said.filter((line) => line.startsWith("passed over "))).toEqual([
      expect.stringMatching(new RegExp(`^passed over .*${OURS}.*: a handoff session, with nothing after the document yet$`)),
    ]);
  });

  test("the nearest parent's count, for a folder with none: ours is not counted, opencode's rows are", () => {
    expect(nearestParentWithSessions(home(), FORMATS, join(fake.app, "src"), () => {})).toEqual({
      folder: fake.app,
      count: APP_IDS.length,
    });
  });
});
