import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offerState } from "./offer-state.ts";
import { KEEP_STATE_DAYS, pruneOffers } from "./offer-prune.ts";

const root = mkdtempSync(join(tmpdir(), "agent-offer-prune-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const DAY = 24 * 3600;
let states = 0;

/**
 * A state folder holding the files of one other session, last written `ageDays` ago, its session
 * file there or not, last written `sourceDays` ago (as old as the state unless told).
 */
function folderWith(
  files: string[],
  { ageDays, sourceThere, sourceDays = ageDays }: { ageDays: number; sourceThere: boolean | "unrecorded"; sourceDays?: number },
) {
  const base = join(root, `state-${++states}`);
  const offers = join(base, "agent/offers");
  mkdirSync(offers, { recursive: true });
  const source = join(base, "other.jsonl");
  if (sourceThere === true) {
    writeFileSync(source, "{}\n");
    const when = Date.now() / 1000 - sourceDays * DAY;
    utimesSync(source, when, when);
  }
  const names = sourceThere === "unrecorded" ? files : [...files, "claude-code-other.source"];
  for (const name of names) {
    const path = join(offers, name);
    writeFileSync(path, name.endsWith(".source") ? `${source}\n` : "offered\n");
    const when = Date.now() / 1000 - ageDays * DAY;
    utimesSync(path, when, when);
  }
  const mine = join(base, "mine.jsonl");
  writeFileSync(mine, "{}\n");
  return { env: { XDG_STATE_HOME: base }, offers, mine };
}

const OTHER = [
  "claude-code-other.offered",
  "claude-code-other.before-compact",
  "claude-code-other.before-compact.lock",
  "claude-code-other.compacted",
  "claude-code-other.offered.k3j9x0qa.tmp",
];

/** The other session's state, its age, whether its session file is there: kept or forgotten when this session writes. */
const CASES: [string, { ageDays: number; sourceThere: boolean | "unrecorded"; sourceDays?: number }, "kept" | "forgotten"][] = [
  ["a recent session whose file is there", { ageDays: 1, sourceThere: true }, "kept"],
  ["a recent session whose file is gone", { ageDays: 1, sourceThere: false }, "forgotten"],
  [
    `a session whose file is there, last written ${KEEP_STATE_DAYS + 1} days ago`,
    { ageDays: KEEP_STATE_DAYS + 1, sourceThere: true },
    "forgotten",
  ],
  [
    `a live session (its file written today), its state last written ${KEEP_STATE_DAYS + 1} days ago`,
    { ageDays: KEEP_STATE_DAYS + 1, sourceThere: true, sourceDays: 0 },
    "kept",
  ],
  [`a session of ${KEEP_STATE_DAYS - 1} days`, { ageDays: KEEP_STATE_DAYS - 1, sourceThere: true }, "kept"],
  ["a recent session from before the file was recorded", { ageDays: 1, sourceThere: "unrecorded" }, "kept"],
  ["an old session from before the file was recorded", { ageDays: KEEP_STATE_DAYS + 1, sourceThere: "unrecorded" }, "forgotten"],
];

describe("the hooks' state of other sessions is forgotten on a write when gone or old", () => {
  for (const [name, setup, outcome] of CASES)
    test(`${name}: ${outcome}`, () => {
      const { env, offers, mine } = folderWith(OTHER, setup);
      const before = readdirSync(offers)
        .filter((f) => f.startsWith("claude-code-other."))
        .sort();
      offerState(env, "claude-code", "mine", mine).markOffered();
      const left = readdirSync(offers).sort();
      const others = left.filter((f) => f.startsWith("claude-code-other."));
      expect(others).toEqual(outcome === "kept" ? before : []);
      expect(left.filter((f) => f.startsWith("claude-code-mine."))).toEqual(["claude-code-mine.offered", "claude-code-mine.source"]);
    });

  test("files of other names in the folder are never touched, however old", () => {
    const theirs = ["claude-code-x.unknown", "notes.source", "notes.txt", "other-tool-x.before-compact", "other-tool-x.offered"];
    const { env, offers, mine } = folderWith(theirs, { ageDays: 400, sourceThere: "unrecorded" });
    offerState(env, "claude-code", "mine", mine).markOffered();
    expect(readdirSync(offers).sort()).toEqual(["claude-code-mine.offered", "claude-code-mine.source", ...theirs].sort());
  });

  test("reading alone forgets nothing", () => {
    const { env, offers, mine } = folderWith(OTHER, { ageDays: 1, sourceThere: false });
    const state = offerState(env, "claude-code", "mine", mine);
    expect(state.offered()).toBe(false);
    expect(state.takeCompacted()).toEqual([]);
    expect(readdirSync(offers).filter((f) => f.startsWith("claude-code-other.")).length).toBe(6);
  });

  test(`a folder of thousands: one write looks at no more than its share, and a few writes forget them all`, () => {
    const offers = join(root, `state-${++states}`, "agent/offers");
    mkdirSync(offers, { recursive: true });
    const when = Date.now() / 1000 - (KEEP_STATE_DAYS + 1) * DAY;
    for (let n = 0; n < 1000; n++)
      for (const kind of ["offered", "source"]) {
        const path = join(offers, `codex-old-${n}.${kind}`);
        writeFileSync(path, kind === "source" ? `${join(root, "gone", String(n))}\n` : "offered\n");
        utimesSync(path, when, when);
      }
    const left = () => readdirSync(offers).length / 2;
    pruneOffers(offers, "codex-mine", Date.now(), { limit: 200, start: 0 });
    expect(left()).toBe(800);
    for (const start of [0.1, 0.3, 0.5, 0.7, 0.9]) pruneOffers(offers, "codex-mine", Date.now(), { limit: 200, start });
    expect(left()).toBe(0);
  });
});
