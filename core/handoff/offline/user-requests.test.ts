import { describe, expect, test } from "bun:test";
import { classifyRequest, statementOf } from "./user-requests.ts";
import { userProse } from "../notes/prose.ts";

describe("what a user message is", () => {
  test.each([
    {
      text: "Fix the lint warnings in src/api, and make sure the build still passes.",
      afterQuestion: false,
      first: true,
      kind: "objective",
    },
    {
      text: "ok, i believe we are ready to release a new version, aren't we? know how to do it?",
      afterQuestion: false,
      first: false,
      kind: "objective",
    },
    { text: "read README.md that details everything", afterQuestion: false, first: false, kind: "followup" },
    { text: "minor, this is a big change", afterQuestion: true, first: false, kind: "answer" },
    { text: "yeah, do it all", afterQuestion: true, first: false, kind: "approval" },
    { text: "ok, keep going", afterQuestion: false, first: false, kind: "approval" },
    { text: "so about the writer — do it", afterQuestion: false, first: false, kind: "approval" },
    { text: "perfect, thanks!", afterQuestion: false, first: false, kind: "ack" },
    { text: "ok 👍", afterQuestion: false, first: false, kind: "ack" },
    { text: "what did i just execute?", afterQuestion: false, first: false, kind: "meta" },
    { text: "which model are you btw?", afterQuestion: false, first: false, kind: "meta" },
    { text: "ok. what's left?", afterQuestion: false, first: false, kind: "meta" },
    { text: "why are there 2 subscription handlers?", afterQuestion: false, first: false, kind: "question" },
    {
      text: "great. now the same for GET /teams, and document both endpoints in docs/api.md",
      afterQuestion: false,
      first: false,
      kind: "followup",
    },
    { text: "next: getJSON", afterQuestion: false, first: false, kind: "followup" },
    { text: "TypeError: x is undefined\n    at a (b.js:1:2)", afterQuestion: false, first: false, kind: "paste" },
    { text: "then we need to tackle this bash issue:\n\n```\nError: 400 boom\n```", afterQuestion: false, first: false, kind: "objective" },
    { text: "later. first, can CI also cache node_modules?", afterQuestion: true, first: false, kind: "followup" },
  ])("$text → $kind", ({ text, afterQuestion, first, kind }) => {
    expect(classifyRequest(text, 0, afterQuestion, first).kind).toBe(kind);
  });

  test.each([
    ["Actually, forget Postgres. Use SQLite via bun:sqlite instead, keep it simple, no docker.", true],
    ["scrap that, let's store it in a JSON file", true],
    ["On second thought, make it a flag instead of an env var.", true],
    ["no, use the existing logger instead", true],
    ["actually, also add a test for it", false],
    ["forget it", false],
    ["use bun test instead of npm test", false],
    ["don't forget the changelog entry please", false],
    ["forget the old API docs and write new ones from the OpenAPI file", false],
    ["let's not touch the database schema in this change", false],
    ["forget about the cache, make the query itself faster", true],
  ])("%p takes back the plan before it: %p", (text, revises) => {
    const request = classifyRequest(text, 0, false, false);
    expect({ revises: request.revises, objective: request.kind === "objective" || !revises }).toEqual({ revises, objective: true });
  });

  test("nothing comes before the first request: it revises nothing", () => {
    expect(classifyRequest("Forget the old API docs and write new ones for v2.", 0, false, true).revises).toBe(false);
  });

  test("'later' puts the assistant's offer off", () => {
    expect(classifyRequest("later. first, can CI also cache node_modules?", 0, true, false).defers).toBe(true);
    expect(classifyRequest("yes, do it", 0, true, false).defers).toBe(false);
  });
});

describe("a request stated as an objective", () => {
  test.each([
    ["ok, i believe we are ready to release a new version, aren't we? know how to do it?", "Release a new version."],
    ["Let's ship 2.3.0. Bump the version, commit and publish.", "Ship 2.3.0. Bump the version, commit and publish."],
    ["can you make the parser faster?", "Make the parser faster."],
    [
      `Our bot crashes. The API says:\n\n\`\`\`\n400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.3: \`tool_use\` ids were found without \`tool_result\` blocks. Each \`tool_use\` block must have a corresponding \`tool_result\` block."}}\n\`\`\`\n\nRules: always run bun test.`,
      "Our bot crashes.",
    ],
    [
      "getting this in prod since this morning:\n\nTypeError: Cannot read properties of undefined (reading 'map')\n    at OrderList (a.tsx:1:2)\n\nonly for empty accounts. fix?",
      "Getting this in prod since this morning. Only for empty accounts (`TypeError: Cannot read properties of undefined (reading 'map')`).",
    ],
    ["## Goal\nMake it fast.", "Goal. Make it fast."],
    [
      "next one, from the logs:\n\n```\nError: You must provide a `model` parameter\n```",
      "Next one, from the logs (``Error: You must provide a `model` parameter``).",
    ],
    ["Next, quote fields that contain commas.", "Quote fields that contain commas."],
    [
      "I need you to implement the rate limiter in src/limiter.ts.\n\nHere is the existing code:\n```ts\nexport const x = 1;\n```",
      "Implement the rate limiter in src/limiter.ts.",
    ],
    ["Add retries to the client. Here is the current code.\n\n```ts\nfetch(url)\n```", "Add retries to the client."],
  ])("%p → %p", (text, expected) => {
    expect(statementOf(text)).toBe(expected);
  });
});

describe("the user's words apart from what they pasted", () => {
  test("stack traces, logs, JSON lines, indented output and version banners are pastes", () => {
    const text = [
      "then we need to tackle this:",
      "",
      '{"type":"message","role":"assistant"}',
      "",
      " Error: 400 invalid_request_error",
      " `tool_use` block must have a corresponding `tool_result` block",
      "",
      "[2026-11-29T08:12:44.118Z] ERROR request failed",
      "",
      "Node.js v23.4.0",
      "",
      "how can we prevent this?",
    ].join("\n");
    const { prose, pastes } = userProse(text);
    expect(prose).toBe("then we need to tackle this:\n\nhow can we prevent this?");
    expect(pastes).toHaveLength(4);
  });

  test.each([
    {
      name: "a paragraph whose first line is pasted goes whole",
      text: "at parse (a.ts:1:2)\nthis is my own line\nand another one",
      prose: "",
    },
    { name: "half of its lines pasted: the paragraph goes whole", text: "fix this please\n$ npm test", prose: "" },
    {
      name: "fewer than half pasted: only those lines go",
      text: "fix this please\n$ npm test\nit fails on main",
      prose: "fix this please\nit fails on main",
    },
    { name: "each paragraph judged on its own", text: "> quoted output\n\nkeep this\nand this", prose: "keep this\nand this" },
  ])("pasted lines by paragraph: $name", ({ text, prose }) => {
    expect(userProse(text).prose).toBe(prose);
  });

  test("a list the user typed is kept; a diff with line numbers is not", () => {
    expect(userProse("do this:\n- remove duplication\n- split modules").prose).toBe("do this:\n- remove duplication\n- split modules");
    expect(userProse("+ 8 - **User Message**: text\n+ 9 - **Tools**: more\n\nkill this.").prose).toBe("kill this.");
  });
});
