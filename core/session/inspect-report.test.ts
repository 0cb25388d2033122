import { describe, expect, test } from "bun:test";
import { chain, jsonl, user, V3_HEADER } from "../../fixtures/sessions/builders.ts";
import { loadFixture } from "../../fixtures/sessions/load.ts";
import { analyzeBranch, describeSessionProblems } from "./analyze.ts";
import { parseSession } from "./formats/pi/parse.ts";
import { buildInspectReport, renderInspectReport } from "./inspect-report.ts";

/** Fields as they are, cut as the CLI cuts (the CLI also withholds and escapes). */
const showAsIs = (text: string, max?: number) => (max !== undefined && text.length > max ? `${text.slice(0, max - 1)}…` : text);

function reportOf(text: string, file = "s.jsonl") {
  const session = parseSession(text, file);
  const analysis = analyzeBranch(session);
  return buildInspectReport(file, session, analysis, describeSessionProblems(session, analysis));
}

const row = (rendered: string, key: string) => rendered.split("\n").find((line) => line.startsWith(`${key} `));

describe("the inspect report", () => {
  test("omp: the title from the title slot, the version as found", () => {
    const { session, analysis } = loadFixture("omp.jsonl");
    const report = buildInspectReport("omp.jsonl", session, analysis, []);
    expect(report).toMatchObject({
      format: "omp",
      version: 3,
      title: "Fix the flaky upload test",
      entries: 19,
      branchMessages: 12,
      contextMessages: 8,
    });
    expect(row(renderInspectReport(report, session.version, showAsIs), "title")).toBe("title     Fix the flaky upload test");
  });

  test("a v1 file reports version null and says it was read as version 3", () => {
    const { session, analysis } = loadFixture("v1.jsonl");
    const report = buildInspectReport("v1.jsonl", session, analysis, []);
    expect(report.version).toBeNull();
    expect(row(renderInspectReport(report, session.version, showAsIs), "format")).toBe("format    pi, version 1 (read as version 3)");
  });

  const v3 = parseSession(chain([user(1, "hi")]));
  test.each([
    { name: "pi, version 3", session: v3, row: "pi, version 3", agentVersion: null },
    { name: "pi, version 2", session: loadFixture("v2.jsonl").session, row: "pi, version 2 (read as version 3)", agentVersion: null },
    // Other agents' files have no layout version of their own (their reader says version 3, none found): the agent's version is shown.
    {
      name: "an agent that names its version",
      session: { ...v3, format: "claude-code", versionFound: undefined, header: { ...v3.header, agentVersion: "2.1.328" } },
      row: "claude-code, agent version 2.1.328",
      agentVersion: "2.1.328",
    },
    { name: "an agent that does not", session: { ...v3, format: "codex", versionFound: undefined }, row: "codex", agentVersion: null },
  ] as const)("the format row: $name", ({ session, row: expected, agentVersion }) => {
    const report = buildInspectReport("f.jsonl", session, analyzeBranch(session), []);
    expect(report.agentVersion).toBe(agentVersion);
    expect(row(renderInspectReport(report, session.version, showAsIs), "format")).toBe(`format    ${expected}`);
  });

  test.each([
    { bad: 1, expected: "entries   1 (1 unusable line skipped)" },
    { bad: 2, expected: "entries   1 (2 unusable lines skipped)" },
  ])("$bad skipped lines are counted in the entries row", ({ bad, expected }) => {
    const rendered = renderInspectReport(reportOf(chain([user(1, "hi")]) + "{\n".repeat(bad)), 3, showAsIs);
    expect(row(rendered, "entries")).toBe(expected);
  });

  // One rule for every count (countOf): "1 message", never "1 messages".
  test.each([
    { messages: 0, branch: "branch    0 entries, 0 messages", context: "context   0 messages, ~0 tokens" },
    { messages: 1, branch: "branch    1 entry, 1 message", context: "context   1 message, ~1 token" },
    { messages: 2, branch: "branch    2 entries, 2 messages", context: "context   2 messages, ~2 tokens" },
  ])("$messages messages: the branch and context rows count in the singular or the plural", ({ messages, branch, context }) => {
    const report = reportOf(messages === 0 ? jsonl([V3_HEADER]) : chain(Array.from({ length: messages }, (_, i) => user(i + 1, "hi"))));
    // The estimate is the model's: one token a message here, so its row follows the same rule.
    const rendered = renderInspectReport({ ...report, estimatedTokens: messages }, 3, showAsIs);
    expect([row(rendered, "branch"), row(rendered, "context")]).toEqual([branch, context]);
  });

  test("a header-only session has no leaf and no last ask", () => {
    const report = reportOf(jsonl([V3_HEADER]));
    expect(report).toMatchObject({ entries: 0, leafId: null, branchEntries: 0, contextMessages: 0, lastUserRequest: null });
    const rendered = renderInspectReport(report, 3, showAsIs);
    expect(row(rendered, "leaf")).toBe("leaf      (no entries)");
    expect(row(rendered, "last")).toBeUndefined();
  });

  test("a long last request is shown on one line, cut at 100 characters", () => {
    const rendered = renderInspectReport(reportOf(chain([user(1, `fix\n\nthis ${"x".repeat(200)}`)])), 3, showAsIs);
    const ask = row(rendered, "last") ?? "";
    expect(ask).toStartWith("last ask  fix this xxx");
    expect(ask.length).toBe("last ask  ".length + 100);
    expect(ask).toEndWith("…");
  });
});
