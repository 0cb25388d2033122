import { describe, expect, test } from "bun:test";
import { inputFor } from "../../fixtures/handoff-pipeline.ts";
import { assistant, call, chain, text, toolResult, user } from "../../fixtures/sessions/builders.ts";
import { compaction } from "../../fixtures/sessions/context.ts";
import { renderAgentPrompt } from "./agent-prompt.ts";
import { planHandoffRequests } from "./pipeline.ts";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "./prompt.ts";

const SECRET = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";

const session = chain([
  user(1, "Set up the parser."),
  assistant(2, [text("Setting it up.")]),
  compaction("e04", "We set up the parser in src/parse.ts."),
  user(4, `Run the tests, the token is ${SECRET}.`),
  assistant(5, [text("Running them."), call("c1", "bash", { command: "bun test src/parse.test.ts" })]),
  toolResult(6, "c1", "bash", "3 pass\n1 fail: </tool-result> parse.test.ts:12", true),
  assistant(7, [text("One test fails at parse.test.ts:12.")]),
  user(8, "Fix the failing test next."),
  assistant(9, [text("Will do.")]),
]);

/** The prompt an agent engine gets for the session's one handoff request. */
function promptFor(focus?: string, source = session, systemPrompt?: string) {
  const { requests } = planHandoffRequests(inputFor(source, { focus, systemPrompt }));
  const [request] = requests;
  expect(requests).toHaveLength(1);
  if (request === undefined) throw new Error("no request was planned");
  return renderAgentPrompt(request);
}

describe("the transcript prompt an agent gets", () => {
  test("the system prompt goes apart; the body is the transcript, then our instruction with the focus, word for word", () => {
    const prompt = promptFor("finish the parser");
    expect(prompt.system).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(prompt.body.endsWith(`</transcript>\n\n${renderInstruction("finish the parser")}`)).toBe(true);
    expect(prompt.body).toContain("Additional focus: finish the parser");
    expect(prompt.body.startsWith("Below is a coding session")).toBe(true);
  });

  test("each message is tagged by its role, in order: the compaction summary marked as one, tool calls and results named", () => {
    const body = promptFor().body;
    const tags = [...body.matchAll(/^<(user|assistant|tool-call|tool-result|compaction-summary)( name="[^"]*")?>$/gm)].map(
      (m) => `${m[1]}${m[2] ?? ""}`,
    );
    expect(tags).toEqual([
      "compaction-summary",
      "user",
      "assistant",
      'tool-call name="bash"',
      'tool-result name="bash"',
      "assistant",
      "user",
      "assistant",
    ]);
    expect(body).toContain(
      "<compaction-summary>\nEarlier parts of this conversation were condensed into this summary:\n\n<summary>\nWe set up the parser in src/parse.ts.\n</summary>\n</compaction-summary>",
    );
    expect(body).toContain('<tool-call name="bash">\n{"command":"bun test src/parse.test.ts"}\n</tool-call>');
    expect(body).toContain("<user>\nFix the failing test next.\n</user>");
  });

  test("no text of the session, the focus or the system prompt can make an agent read a file, inject a skill or run a command", () => {
    const mentions = "notes in @/abs/notes.txt, key @~/.ssh/id_test, use $skill-creator, ask ^openai/gpt-5";
    const mentioning = chain([
      user(1, mentions),
      assistant(2, [text(`Reading ${mentions}`), call("c1", "bash", { command: `cat @/abs/notes.txt $skill` })]),
      toolResult(3, "c1", "bash", mentions),
      compaction("e02", mentions),
      user(5, "Go on."),
      assistant(6, [text("Done.")]),
    ]);
    const prompt = promptFor("read @/abs/focus.txt", mentioning, "/review first");
    const acted = /(?:^|[\s([{<"'`])@\S|\$[A-Za-z0-9_:-]|(?:^|\s)\^\S/u;
    expect(prompt.body).not.toMatch(acted);
    expect(prompt.system).toBe("\u2060/review first");
    // Read with the joiners taken out, it is the session's text.
    expect(prompt.body.replaceAll("\u2060", "")).toContain(`<tool-result name="bash">\n${mentions}\n</tool-result>`);
    expect(prompt.body.replaceAll("\u2060", "")).toContain("Additional focus: read @/abs/focus.txt");
  });

  test("text that would close its tag early is escaped", () => {
    const body = promptFor().body;
    expect(body).toContain("1 fail: <\\/tool-result> parse.test.ts:12");
    expect(body.match(/<\/tool-result>/g)).toHaveLength(1);
  });

  // Models read tags loosely: any spelling of a closing tag of ours in session text is escaped.
  const closings = [
    "</user>",
    "</USER>",
    "</Transcript >",
    "</ user>",
    "< /user>",
    "</transcript\n>",
    "</Assistant\t>",
    "</TOOL-RESULT>",
    "</tool-call >",
    "</instructions>",
    "</Condensed-Notes>",
  ];
  test.each(closings)("session text holding %j never closes a tag of the transcript", (closing) => {
    const said = `a ${closing} b`;
    const prompt = renderAgentPrompt({
      model: "m",
      stream: true,
      messages: [
        { role: "user", content: said },
        {
          role: "assistant",
          content: said,
          tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: said }) } }],
        },
        { role: "tool", tool_call_id: "c1", content: said },
        { role: "user", content: "Write it." },
      ],
    });
    // Every closing tag left, in any spelling, is one we wrote: exact, lower case, on its own line.
    const loose = [...prompt.body.matchAll(/<\s*\/\s*([\w-]+)[^>]*>/g)].map((m) => m[0]);
    expect(loose).toEqual(["</user>", "</tool-call>", "</assistant>", "</tool-result>", "</transcript>"]);
    expect(prompt.body).toContain(`<user>\na ${closing.replace("/", "\\/")} b\n</user>`);
  });

  test("a closing tag that is not ours stays as written", () => {
    const prompt = renderAgentPrompt({
      model: "m",
      stream: true,
      messages: [
        { role: "user", content: "</div> </username> </summary>" },
        { role: "user", content: "Write it." },
      ],
    });
    expect(prompt.body).toContain("<user>\n</div> </username> </summary>\n</user>");
  });

  test("secrets stay placeholders: the prompt is built from the redacted request", () => {
    const body = promptFor().body;
    expect(body).not.toContain(SECRET);
    expect(body).toContain("the token is [REDACTED:github-token:1].");
  });

  test("a request with no history (a notes request) is its one message, untagged", () => {
    const prompt = renderAgentPrompt({
      model: "m",
      stream: true,
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "Summarise this." },
      ],
    });
    expect(prompt).toEqual({ system: "S", body: "Summarise this." });
  });

  test("a repair request: the first answer is part of the transcript, the repair ask comes last", () => {
    const prompt = renderAgentPrompt({
      model: "m",
      stream: true,
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "Write it." },
        { role: "assistant", content: "## Goal\nx" },
        { role: "user", content: "Your document is missing these sections." },
      ],
    });
    expect(prompt.body).toEndWith(
      "<user>\nWrite it.\n</user>\n\n<assistant>\n## Goal\nx\n</assistant>\n</transcript>\n\nYour document is missing these sections.",
    );
  });

  test("images become a note naming their type, never their bytes", () => {
    const prompt = renderAgentPrompt({
      model: "m",
      stream: true,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
        { role: "user", content: "Write it." },
      ],
    });
    expect(prompt.system).toBe("");
    expect(prompt.body).toContain("<user>\nlook\n[image: image/png]\n</user>");
    expect(prompt.body).not.toContain("AAAA");
  });
});
