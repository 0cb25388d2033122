import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { oneLine, requestTitle, TITLE_MAX } from "./glance.ts";
import { FILE_FORMATS, formatNamed } from "./table.ts";
import type { FileAgentName } from "../types.ts";
import type { GlanceInput, SessionFormat } from "./types.ts";

const REPO = join(import.meta.dir, "..", "..", "..");
const FIRST_PROMPT = "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.";

/** A file's lines as cli hands them to a glance: the first and the last 20 with text. */
function ends(text: string, fileName = "s.jsonl"): GlanceInput {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return { head: lines.slice(0, 20), tail: lines.slice(-20), fileName };
}

function fixture(path: string): GlanceInput {
  return ends(readFileSync(join(REPO, path), "utf8"), path.split("/").pop());
}

const REAL: Record<FileAgentName, { file: string; id: string; cwd: string }> = {
  pi: {
    file: "fixtures/real/pi/session.jsonl",
    id: "01a22c83-caf8-71de-9277-0c6f4ed6244b",
    cwd: "/tmp/agent-compat/pi-transcript/project",
  },
  omp: {
    file: "fixtures/real/omp/session.jsonl",
    id: "01a22c82-8586-7311-8419-219ffecdbae7",
    cwd: "/tmp/agent-compat/omp-transcript/project",
  },
  "claude-code": {
    file: "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
    id: "7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7",
    cwd: "/tmp/agent-compat/claude-code-transcript/project",
  },
  codex: {
    file: "fixtures/real/codex/rollout.jsonl",
    id: "01a22c83-ffcf-7703-8435-2c3998d6a9a2",
    cwd: "/tmp/agent-compat/codex-transcript/project",
  },
  gemini: {
    file: "fixtures/real/gemini/session-2026-12-03T05-51-ac74b73f.jsonl",
    id: "ac74b73f-fe9c-4a5f-8f51-d324f5e85b50",
    cwd: "/tmp/agent-compat/gemini-transcript/project",
  },
};

describe("each format's glance at its agent's real transcript", () => {
  test.each(FILE_FORMATS.map((f) => [f.name, f] as const))(
    "%s: the id, the cwd and the user's first words, from the first and last lines",
    (name, format) => {
      const real = REAL[name];
      expect(format.glance(fixture(real.file))).toEqual({ id: real.id, cwd: real.cwd, title: undefined, firstRequest: FIRST_PROMPT });
    },
  );

  /** pi's and omp's files share a layout: each reads the other's. Every other pair is not a session. */
  const sameFamily = (a: FileAgentName, b: FileAgentName) => a === b || (["pi", "omp"].includes(a) && ["pi", "omp"].includes(b));
  const pairs = FILE_FORMATS.flatMap((format) =>
    FILE_FORMATS.filter((other) => !sameFamily(format.name, other.name)).map((other) => [format.name, other.name, format] as const),
  );
  test.each(pairs)("%s takes %s's transcript for no session of its own", (_, other, format) => {
    expect(format.glance(fixture(REAL[other].file))).toBeUndefined();
  });

  test.each(FILE_FORMATS.map((f) => [f.name, f] as const))(
    "%s: nothing at all, or lines that are not JSON, are not a session",
    (_, format) => {
      expect(format.glance({ head: [], tail: [], fileName: "x.jsonl" })).toBeUndefined();
      expect(format.glance({ head: ["not json", "{torn"], tail: [], fileName: "x.jsonl" })).toBeUndefined();
    },
  );
});

describe("titles: the newest the agent would show", () => {
  const piHeader = '{"type":"session","version":3,"id":"p1","timestamp":"2026-11-30T10:00:00.000Z","cwd":"/w"}';
  const name = (value: string) =>
    JSON.stringify({ type: "session_info", id: "e1", parentId: null, timestamp: "2026-11-30T10:00:00.000Z", name: value });
  test.each<[string, string[], string | undefined]>([
    ["pi: the newest session_info name", [piHeader, name("first"), name("  second  ")], "second"],
    ["pi: an empty name clears it", [piHeader, name("first"), name("")], undefined],
    [
      "omp: its title line",
      readFileSync(join(REPO, "fixtures/sessions/omp.jsonl"), "utf8").split("\n").filter(Boolean),
      "Fix the flaky upload test",
    ],
  ])("%s", (_, lines, title) => {
    expect(formatNamed("pi").glance(ends(lines.join("\n")))?.title).toBe(title);
  });

  test("omp: a newer title_change wins over the title line", () => {
    const lines = readFileSync(join(REPO, "fixtures/sessions/omp.jsonl"), "utf8").split("\n").filter(Boolean);
    lines.push(
      JSON.stringify({
        type: "title_change",
        id: "f1",
        parentId: null,
        timestamp: "2026-11-30T10:00:00.000Z",
        title: "Renamed\nby the user",
      }),
    );
    expect(formatNamed("omp").glance(ends(lines.join("\n")))?.title).toBe("Renamed by the user");
  });

  const claudeLine = JSON.stringify({
    type: "user",
    uuid: "u1",
    parentUuid: null,
    isSidechain: false,
    sessionId: "c1",
    cwd: "/w",
    timestamp: "2026-11-30T10:00:00.000Z",
    message: { role: "user", content: "hello" },
  });
  const claudeTitle = (type: string, field: string, value: string) => JSON.stringify({ type, [field]: value, sessionId: "c1" });
  test.each<[string, string[], string | undefined]>([
    ["no title line: none", [], undefined],
    ["an older version's summary", [claudeTitle("summary", "summary", "Summed up")], "Summed up"],
    [
      "a generated title over a summary",
      [claudeTitle("summary", "summary", "Summed up"), claudeTitle("ai-title", "aiTitle", "Generated")],
      "Generated",
    ],
    [
      "the user's title over a generated one, wherever it is",
      [claudeTitle("custom-title", "customTitle", "Mine"), claudeTitle("ai-title", "aiTitle", "Generated")],
      "Mine",
    ],
    [
      "the newest of the user's titles",
      [claudeTitle("custom-title", "customTitle", "First"), claudeTitle("custom-title", "customTitle", "Second")],
      "Second",
    ],
    ["a blank title is none", [claudeTitle("custom-title", "customTitle", "  ")], undefined],
  ])("Claude Code: %s", (_, titles, title) => {
    expect(formatNamed("claude-code").glance(ends([claudeLine, ...titles].join("\n")))?.title).toBe(title);
  });

  test("Claude Code: the fixture with a custom title and a summary", () => {
    expect(formatNamed("claude-code").glance(fixture("fixtures/sessions/claude-code/notes.jsonl"))?.title).toBe("checkout");
  });
});

describe("what is not a session of its own", () => {
  test("a Claude Code subagent's transcript (side-chain lines only)", () => {
    expect(formatNamed("claude-code").glance(fixture("fixtures/sessions/claude-code/agent-a1.jsonl"))).toBeUndefined();
  });

  test("a pi header with no id, or an empty one", () => {
    expect(formatNamed("pi").glance(ends('{"type":"session","version":3,"cwd":"/w"}'))).toBeUndefined();
    expect(formatNamed("pi").glance(ends('{"type":"session","version":3,"id":"","cwd":"/w"}'))).toBeUndefined();
  });

  test("a Codex rollout whose first line is not its session_meta", () => {
    const [meta = "", ...rest] = readFileSync(join(REPO, REAL.codex.file), "utf8").split("\n").filter(Boolean);
    expect(formatNamed("codex").glance(ends([...rest.slice(0, 3), meta].join("\n")))).toBeUndefined();
  });
});

describe("the first request", () => {
  test("Claude Code: the tool's own notes and tool results are not the user's words; a slash command is, as typed", () => {
    const line = (content: unknown, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        type: "user",
        uuid: crypto.randomUUID(),
        parentUuid: null,
        isSidechain: false,
        sessionId: "c1",
        cwd: "/w",
        timestamp: "2026-11-30T10:00:00.000Z",
        message: { role: "user", content },
        ...extra,
      });
    const lines = [
      line("<local-command-caveat>Caveat: …</local-command-caveat>", { isMeta: true }),
      line([{ type: "tool_result", tool_use_id: "t1", content: "ok" }]),
      line("[Request interrupted by user]"),
      line("<command-name>/review</command-name>\n<command-message>review</command-message>\n<command-args>PR 12</command-args>"),
    ];
    expect(formatNamed("claude-code").glance(ends(lines.join("\n")))?.firstRequest).toBe("/review PR 12");
  });

  test("Codex: its own context (the environment, AGENTS.md) is passed over", () => {
    const meta = JSON.stringify({ timestamp: "t", type: "session_meta", payload: { id: "x1", cwd: "/w" } });
    const user = (text: string) =>
      JSON.stringify({
        timestamp: "t",
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
      });
    const lines = [meta, user("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"), user("Ship it")];
    expect(formatNamed("codex").glance(ends(lines.join("\n")))).toEqual({ id: "x1", cwd: "/w", title: undefined, firstRequest: "Ship it" });
  });

  const NEW_SESSION = {
    wrappedDocument:
      "<handoff-context>\n## Goal\nFinish the parser: error positions.\n\n## Next Steps\n1. add positions\n</handoff-context>\n\nThe above is a handoff document from a previous session. Use this context to continue the work seamlessly.",
    acknowledgement: "I have read the handoff document and will continue the work from it.",
    sessionId: "0b5e2d55-6d1f-4d3c-9a3f-5a2e1c0d9b8a",
    newEntryId: () => "0000000a",
    timestamp: new Date("2026-11-30T10:00:00.000Z"),
    utcOffsetMinutes: 0,
    cwd: "/home/me/parser",
    parentSession: "/home/me/old.jsonl",
    model: { pi: undefined, omp: undefined },
    source: { format: "pi" as const, agentVersion: undefined, modelProvider: undefined },
  };
  test.each(FILE_FORMATS.map((f) => [f.name, f] as const))(
    "%s: a new session we wrote says handoff and the goal, with its id and cwd",
    (_, format: SessionFormat) => {
      const file = format.renderNewSession(NEW_SESSION);
      expect(format.glance(ends(file.content, file.fileName))).toMatchObject({
        id: file.sessionId,
        cwd: "/home/me/parser",
        firstRequest: "handoff: Finish the parser: error positions.",
      });
    },
  );
});

describe("text as one line", () => {
  test.each<[string, string, string | undefined]>([
    ["newlines and tabs become one space", "fix\n\n\tthe  parser ", "fix the parser"],
    ["nothing but spaces is nothing", " \n\t", undefined],
    [
      "a handoff document: its first line of prose",
      "<handoff-context>\n## Goal\n\nCarry on\n</handoff-context>\n\nThe above…",
      "handoff: Carry on",
    ],
  ])("%s", (_, text, expected) => {
    expect(requestTitle(text)).toBe(expected);
  });

  test("a long text stays whole (the CLI cuts it once the key is withheld); only a megabyte paste loses its end", () => {
    expect(oneLine("x".repeat(1000))).toBe("x".repeat(1000));
    expect(oneLine("x".repeat(100 * TITLE_MAX))).toBe("x".repeat(50 * TITLE_MAX));
  });
});
