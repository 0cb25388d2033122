import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { AGENTS } from "../../../compat/agents.ts";
import { reusedChunks } from "../../../fixtures/chunks.ts";
import { isAgentError } from "../../errors.ts";
import { readSession } from "./read.ts";
import { describeFormatNames, describeFormats, detectFormat, FORMATS, findFormat, formatNamed } from "./table.ts";
import type { AgentName } from "./types.ts";

const REPO = join(import.meta.dir, "..", "..", "..");
/** Every agent name, once: the compiler holds this to `AgentName`. */
const NAMES: Record<AgentName, true> = { pi: true, omp: true, "claude-code": true, codex: true, gemini: true, opencode: true };
const isAgentName = (word: string | undefined): word is AgentName => word !== undefined && Object.hasOwn(NAMES, word);

/**
 * The agent that wrote each fixture, by where it lives: `fixtures/real/<agent>/` and
 * `fixtures/sessions/<agent>/` are that agent's; the omp files are the ones holding what only
 * omp writes, found independently with
 *   python3 -c "import json,pathlib; OMP={'title_change','service_tier_change','mode_change','ttsr_injection','session_init','credential_pin','reset_boundary'}; print(sorted(str(f) for f in pathlib.Path('fixtures').rglob('*.jsonl') if f.is_file() and any((lambda o: isinstance(o, dict) and (o.get('type') in OMP or (i == 0 and o.get('type') == 'title') or (o.get('type') == 'model_change' and 'model' in o and 'modelId' not in o)))(json.loads(l)) for i, l in enumerate(open(f, errors='replace')) if l.strip().startswith('{') and l.strip().endswith('}'))))"
 * (fixtures/real/omp/session.jsonl and fixtures/sessions/omp.jsonl); everything else is pi's.
 */
/** The graded offline sessions one story writes in another agent's format (fixtures/offline/sessions/). */
const GRADED_IN_OTHER_FORMATS: Record<string, AgentName> = {
  "fixtures/offline/tracker-epic.jsonl": "claude-code",
  "fixtures/offline/flaky-worker.jsonl": "codex",
};

function writerOf(file: string): AgentName {
  const graded = GRADED_IN_OTHER_FORMATS[file];
  if (graded !== undefined) return graded;
  const [, folder, agent] = file.split("/");
  if ((folder === "real" || folder === "sessions") && isAgentName(agent)) return agent;
  return file === "fixtures/sessions/omp.jsonl" ? "omp" : "pi";
}

/** Files under fixtures/sessions/bad/ that are no session at all, and why. */
const NOT_SESSIONS: Record<string, string> = {
  "empty.jsonl": "not a session: the file is empty",
  "blank-lines.jsonl": "not a session: the file is empty",
  "binary.jsonl": "1: not a session: it looks like binary data",
  "not-json.jsonl": "1: not a session: the line is not JSON",
  "not-a-session.jsonl": `1: not a session: it is not a ${describeFormats()} session`,
  "message-first.jsonl": `1: not a session: it is not a ${describeFormats()} session`,
  "header-without-id.jsonl": '1: not a session: the header has no string "id"',
  "header-with-number-id.jsonl": '1: not a session: the header has no string "id"',
};

const fixtures = [...new Glob("fixtures/**/*.jsonl").scanSync(REPO)].filter((file) => statSync(join(REPO, file)).isFile()).sort();

describe("every fixture is read as the agent that wrote it", () => {
  test("finds the fixtures, the real transcripts among them", () => {
    expect(fixtures).toContain("fixtures/real/pi/session.jsonl");
    expect(fixtures.filter((f) => f.startsWith("fixtures/real/")).length).toBeGreaterThanOrEqual(4);
  });

  // An agent's own refused files (fixtures/sessions/<agent>/bad/, and a Claude Code subagent's
  // own agent-*.jsonl, which is not a conversation) are its reader's tests.
  const refusedByItsReader = (file: string) =>
    /^fixtures\/sessions\/[^/]+\/bad\//.test(file) || /^fixtures\/sessions\/claude-code\/agent-[^/]*\.jsonl$/.test(file);
  const sessions = fixtures.filter(
    (file) =>
      !(file.startsWith("fixtures/sessions/bad/") && file.slice("fixtures/sessions/bad/".length) in NOT_SESSIONS) &&
      !refusedByItsReader(file),
  );
  test.each(sessions)("%s", (file) => {
    const bytes = new Uint8Array(readFileSync(join(REPO, file)));
    const agent = writerOf(file);
    if (FORMATS.some((format) => format.name === agent)) {
      // In chunks of a reused buffer, as the CLI reads files: the head is peeked, then read again.
      const { session, format } = readSession(reusedChunks(bytes, 4096), file);
      expect([session.format, format.name]).toEqual([agent, agent]);
    } else {
      // An agent whose format is not in the table yet: named as none of the formats we read.
      expect(() => readSession(bytes, file)).toThrow(`${file}:1: not a session: it is not a ${describeFormats()} session`);
    }
  });

  test.each(Object.entries(NOT_SESSIONS))("fixtures/sessions/bad/%s is refused: %s", (name, why) => {
    const file = `fixtures/sessions/bad/${name}`;
    const bytes = new Uint8Array(readFileSync(join(REPO, file)));
    let error: unknown;
    try {
      readSession(reusedChunks(bytes, 7), file);
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error) && error.code === "NOT_A_SESSION" ? error.message : error).toBe(
      `${file}${why.startsWith("1:") ? ":" : ": "}${why}`,
    );
  });
});

const HEADER = '{"type":"session","version":3,"id":"s","timestamp":"2026-11-30T08:00:00.000Z","cwd":"/w"}';
const TITLE = `{"type":"title","v":1,"title":"t","updatedAt":"2026-11-30T08:00:00.000Z","pad":"  "}`;
const entry = (type: string, extra = "") =>
  `{"type":"${type}","id":"${type.slice(0, 8)}","parentId":null,"timestamp":"2026-11-30T08:00:00.000Z"${extra}}`;
const USER = entry("message", ',"message":{"role":"user","content":"hi"}');

describe("detectFormat: from a file's first lines", () => {
  test.each<[string, string[], AgentName | undefined]>([
    ["a pi header", [HEADER, USER], "pi"],
    ["omp's title line, then the header", [TITLE, HEADER], "omp"],
    ["an omp entry type among the first lines", [HEADER, USER, entry("reset_boundary")], "omp"],
    ["a model_change only omp writes", [HEADER, entry("model_change", ',"model":"openai/gpt-5"')], "omp"],
    [
      "a model_change named both ways (ours, for both agents)",
      [HEADER, entry("model_change", ',"provider":"openai","modelId":"gpt-5","model":"openai/gpt-5"')],
      "pi",
    ],
    ["a header without an id (the reader refuses it, naming why)", ['{"type":"session"}'], "pi"],
    ["a title line alone", [TITLE], undefined],
    ["no lines", [], undefined],
    ["an entry before any header", [USER, HEADER], undefined],
    ["JSON that is not an object", ["[1,2]"], undefined],
    ["text", ["hello"], undefined],
  ])("%s → %p", (_, head, expected) => {
    expect(detectFormat(head)?.name).toBe(expected);
  });

  test("an omp entry past the first lines: detected as pi, read as omp (the reader sees every line)", () => {
    const text = `${[HEADER, ...Array.from({ length: 30 }, (_, i) => entry("custom", `,"customType":"c${i}"`).replace('"id":"custom"', `"id":"c${i}"`)), entry("reset_boundary")].join("\n")}\n`;
    expect(detectFormat(text.split("\n").slice(0, 20))?.name).toBe("pi");
    expect(readSession(text, "late.jsonl").session.format).toBe("omp");
    expect(readSession(text, "late.jsonl").format.name).toBe("omp");
  });
});

describe("findFormat: a name a person typed", () => {
  const typed = FORMATS.flatMap((format) => [format.name, ...format.aliases].map((word) => [word, format.name] as const));
  test.each(typed)("%p is %p, in any case and with spaces around", (word, name) => {
    for (const variant of [word, word.toUpperCase(), ` ${word}\t`]) expect(findFormat(variant)?.name).toBe(name);
  });

  test.each(["", "p", "pi2", "claude code", "openai", "--to"])("%p is none", (word) => {
    expect(findFormat(word)).toBeUndefined();
  });

  test.each(FORMATS.map((f) => f.name))("formatNamed(%p) is the table's entry", (name) => {
    expect(formatNamed(name).name).toBe(name);
  });
});

describe("the table itself", () => {
  test("names, aliases and labels are each spelled once, and every name is an agent's", () => {
    const words = FORMATS.flatMap((f) => [f.name, ...f.aliases]);
    expect(new Set(words).size).toBe(words.length);
    expect(new Set(FORMATS.map((f) => f.label)).size).toBe(FORMATS.length);
    for (const format of FORMATS) expect(isAgentName(format.name)).toBe(true);
  });

  test.each(FORMATS.map((f) => [f.name, f] as const))(
    "%s: tested with the version bun run compat pins (compat/agents.ts)",
    (name, format) => {
      expect(format.testedVersion).toBe(AGENTS.find((agent) => agent.name === name)?.version);
    },
  );

  test('the messages name every format, the last after "or"', () => {
    const labels = FORMATS.map((f) => f.label);
    expect(describeFormats()).toBe(labels.length === 1 ? labels.join("") : `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}`);
    for (const format of FORMATS) expect(describeFormatNames()).toContain(format.name);
    for (const alias of FORMATS.flatMap((f) => f.aliases)) expect(describeFormatNames()).toContain(`(or ${alias})`);
  });

  test("pi and omp are in it", () => {
    expect(FORMATS.map((f) => f.name)).toEqual(expect.arrayContaining(["pi", "omp"]));
  });
});

describe("a fixture's path says which agent wrote it", () => {
  test.each<[string, AgentName]>([
    ["fixtures/real/codex/rollout.jsonl", "codex"],
    ["fixtures/sessions/claude-code/rewind.jsonl", "claude-code"],
    ["fixtures/sessions/omp.jsonl", "omp"],
    ["fixtures/offline/acks.jsonl", "pi"],
  ])("%s → %s", (file, agent) => {
    expect(writerOf(file)).toBe(agent);
  });
});
