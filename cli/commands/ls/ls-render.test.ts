import { PrintedFilter } from "../../output/printed.ts";
import { describe, expect, test } from "bun:test";
import { displayWidth, fitEnd, fitMiddle, markCleared } from "../../output/shorten.ts";
import { formatBytes, formatTokens, renderTable, renderTabs, shortIds, type ListedSession } from "./ls-render.ts";
import { tildePath } from "../../output/ages-and-folders.ts";

const HOME = "/home/me";

function row(overrides: Partial<ListedSession>): ListedSession {
  return {
    agent: "pi",
    id: "01a22c83-caf8-71de-9277-0c6f4ed6244b",
    path: "/home/me/.pi/agent/sessions/--home-me-app--/2026-11-30T12-52-44-409Z_01a22c83-caf8-71de-9277-0c6f4ed6244b.jsonl",
    cwd: "/home/me/app",
    updated: "2026-11-30T12:52:44.409Z",
    bytes: 7231,
    estimatedTokens: 1808,
    title: "Fix the typo in src/greet.txt, then check that notes/todo.txt exists.",
    ...overrides,
  };
}

const ROWS: ListedSession[] = [
  row({}),
  row({
    agent: "claude-code",
    id: "01a22c83-caf8-71de-9277-000000000000",
    bytes: 52_428_800,
    estimatedTokens: 13_107_200,
    title: "日本語のタイトル、とても長いタイトルです。日本語のタイトル、とても長いタイトルです。日本語のタイトル、とても長いタイトルです。",
  }),
  row({
    agent: "codex",
    id: "7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7",
    bytes: 812,
    estimatedTokens: 203,
    title: null,
    cwd: null,
    path: `/home/me/.codex/sessions/${"deep/".repeat(40)}x.jsonl`,
  }),
];

describe("agent ls on a terminal: a table that fits", () => {
  test.each([80, 100, 60, 200])("at %p columns every line fits and none ends in spaces", (width) => {
    const lines = renderTable(ROWS, { printed: new PrintedFilter(), width, utcOffsetMinutes: 0, home: HOME, all: true })
      .trimEnd()
      .split("\n");
    expect(lines).toHaveLength(1 + 2 * ROWS.length);
    for (const line of lines) {
      expect([line, displayWidth(line) <= width]).toEqual([line, true]);
      expect(line).not.toMatch(/\s$/);
    }
  });

  test("the columns, the ids as short as they can be without two alike, the file under each", () => {
    expect(
      renderTable(ROWS.slice(0, 1).concat(ROWS[2] ?? row({})), {
        printed: new PrintedFilter(),
        width: 100,
        utcOffsetMinutes: 60,
        home: HOME,
        all: false,
      }),
    ).toBe(
      [
        "UPDATED           AGENT  ID        SIZE  TOKENS  TITLE",
        "2026-11-30 13:52  pi     01a22c83  7.1K    1.8k  Fix the typo in src/greet.txt, then check that not…",
        "  ~/.pi/agent/sessions/--home-me-app--/2026-11-30T…4-409Z_01a22c83-caf8-71de-9277-0c6f4ed6244b.jsonl",
        "2026-11-30 13:52  codex  7c0a11e5   812     203",
        "  ~/.codex/sessions/deep/deep/deep/deep/deep/deep/…p/deep/deep/deep/deep/deep/deep/deep/deep/x.jsonl",
        "",
      ].join("\n"),
    );
  });

  test("a narrow terminal loses size and tokens before the title", () => {
    const [head] = renderTable(ROWS.slice(0, 1), {
      printed: new PrintedFilter(),
      width: 60,
      utcOffsetMinutes: 0,
      home: HOME,
      all: false,
    }).split("\n");
    expect(head).toBe("UPDATED           AGENT  ID        TITLE");
  });

  test.each<[string[], string[]]>([
    [
      ["01a22c83-caf8-71de", "01a22c83-ffcf-7703"],
      ["01a22c83-c", "01a22c83-f"],
    ],
    [
      ["abcdefgh1", "abcdefgh2", "zzzzzzzzzz"],
      ["abcdefgh1", "abcdefgh2", "zzzzzzzz"],
    ],
    [
      ["same", "same"],
      ["same", "same"],
    ],
    [["short"], ["short"]],
  ])("short ids: %p → %p", (ids, short) => {
    expect(shortIds(ids)).toEqual(short);
  });

  test.each<[number, string]>([
    [0, "0"],
    [812, "812"],
    [1024, "1K"],
    [7231, "7.1K"],
    [52_428_800, "50M"],
    [2_147_483_648, "2G"],
  ])("size %p is %p", (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });

  test.each<[number, string]>([
    [203, "203"],
    [1808, "1.8k"],
    [13_107_200, "13.1M"],
    [45_000, "45k"],
  ])("tokens %p are %p", (tokens, shown) => {
    expect(formatTokens(tokens)).toBe(shown);
  });

  test("cutting: wide characters count twice, the end gets an ellipsis, a path is cut in its middle", () => {
    expect(displayWidth("日本")).toBe(4);
    expect(fitEnd(markCleared("日本語です"), 6)).toBe("日本…");
    expect(fitMiddle(markCleared("/a/very/long/path/file.jsonl"), 15)).toBe("/a/very…e.jsonl");
  });
});

describe("agent ls in a pipe: one tab-separated line per session", () => {
  test("every field whole; tabs and newlines in a title become spaces", () => {
    expect(renderTabs([row({ title: "two\tcolumns\nand lines", messages: 12 })])).toBe(
      `2026-11-30T12:52:44.409Z\tpi\t01a22c83-caf8-71de-9277-0c6f4ed6244b\t7231\t1808\t12\ttwo columns and lines\t/home/me/app\t${row({}).path}\n`,
    );
  });
});

describe("a path inside the home folder is shown from ~", () => {
  test.each<[string, string, string, string]>([
    ["/home/me/app/x.jsonl", "/home/me", "/", "~/app/x.jsonl"],
    ["/home/me", "/home/me", "/", "~"],
    ["/home/me/x", "/home/me/", "/", "~/x"],
    ["/home/meadow/x", "/home/me", "/", "/home/meadow/x"],
    ["/etc/x", "/", "/", "/etc/x"],
    ["C:\\Users\\me\\.pi\\x.jsonl", "C:\\Users\\me", "\\", "~\\.pi\\x.jsonl"],
    ["C:\\Users\\meadow\\x", "C:\\Users\\me", "\\", "C:\\Users\\meadow\\x"],
    ["C:\\x", "C:\\", "\\", "C:\\x"],
    ["C:/Users/me/x", "C:\\Users\\me", "\\", "C:/Users/me/x"],
  ])("%p with home %p (separator %p): %p", (path, home, separator, shown) => {
    expect(tildePath(path, home, separator)).toBe(shown);
  });
});
