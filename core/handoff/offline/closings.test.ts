import { describe, expect, test } from "bun:test";
import { sectionOf as section } from "./sections.testing.ts";
import { isAcknowledgement, isCourtesyOnly } from "./closings.ts";
import { classifyRequest } from "./user-requests.ts";
import { assistant, call, offline, result, text, user } from "./session.testing.ts";

describe("closings are recognised by shape, in a few languages", () => {
  test.each([
    "Thanks a lot, that's all",
    "No, that's all",
    "Nope, that's all",
    "ok that's everything for today",
    "Great, thank you so much!",
    "perfect — thanks",
    "great job, thanks",
    "Done here",
    "see you tomorrow",
    "Merci, c'est tout.",
    "Danke, das war's.",
    "Gracias, eso es todo.",
    "ありがとう、以上です。",
    "谢谢，就这些",
    "Спасибо, это всё.",
  ])("%s", (closing) => {
    expect(isAcknowledgement(closing)).toBe(true);
  });

  test.each([
    "Thanks! Now add tests for the parser",
    "No more console logs",
    "That is all wrong",
    "That's it?",
    "Merci, now add the French locale",
    "5以上の値を拒否して",
    "Danke, und jetzt die Tests",
  ])("not a closing: %s", (request) => {
    expect(isAcknowledgement(request)).toBe(false);
  });
});

describe("a reply that is only courtesy reports nothing done", () => {
  test.each([
    ["Sure.", true],
    ["You're welcome!", true],
    ["Happy to help", true],
    ["Of course! 🙂", true],
    ["Sure, starting on it.", false],
    ["Done: the tests are added.", false],
  ])("%s", (reply, courtesy) => {
    expect(isCourtesyOnly(reply)).toBe(courtesy);
  });

  const opening = [
    user("Fix the date parsing bug in src/parse.ts so ISO weeks round-trip"),
    assistant([call("c1", "edit", { path: "src/parse.ts", oldText: "a", newText: "b" })], "toolUse"),
    result("c1", "edit", "ok"),
    assistant([text("Fixed the ISO week parsing in src/parse.ts. Anything else?")]),
  ];
  test.each([
    ["Now add tests for the parser", "You're welcome!"],
    ["Thanks! Now add tests for the parser", "Sure."],
    ["Now add tests for the parser", "Sure."],
    ["Now add tests for the parser", "Happy to help"],
  ])("%s → %s: the request stays open, without the thanks", (ask, reply) => {
    const document = offline([...opening, user(ask), assistant([text(reply)])]);
    expect(section(document, "### Pending")).toBe("- Open request: Add tests for the parser.");
    expect(section(document, "## Goal")).not.toContain("Thanks");
  });

  test.each(["Thanks a lot, that's all", "No, that's all", "Merci, c'est tout.", "ありがとう、以上です。"])(
    "%s → You're welcome!: finished, and no request",
    (closing) => {
      const document = offline([...opening, user(closing), assistant([text("You're welcome!")])]);
      expect(section(document, "### Pending")).toBe("- No open requests: everything asked was reported done.");
      expect(section(document, "## Goal")).toBe("Fix the date parsing bug in src/parse.ts so ISO weeks round-trip.");
    },
  );
});

describe("a one-word reply to the assistant's question is the user's choice", () => {
  test.each(["Everything.", "All.", "Both.", "all of them", "The second one"])("%s", (reply) => {
    expect(classifyRequest(reply, 3, true, false).kind).toBe("answer");
  });

  test.each(["Everything.", "All."])("%s, not after a question, is an acknowledgement", (reply) => {
    expect(classifyRequest(reply, 3, false, false).kind).toBe("ack");
  });

  test("the choice is kept with the question it answers", () => {
    const document = offline([
      user("Replace the deprecated moment.js calls in src/dates.ts"),
      assistant([call("c1", "edit", { path: "src/dates.ts", oldText: "moment()", newText: "new Date()" })], "toolUse"),
      result("c1", "edit", "ok"),
      assistant([text("Replaced them in src/dates.ts. They are also in src/report.ts — should I fix just dates.ts, or everything?")]),
      user("Everything."),
    ]);
    expect(section(document, "## Key Decisions")).toContain('The user answered "Everything." to: "They are also in src/report.ts');
  });

  // A question in reply answers nothing: it is not a choice to record (seen on the real before-compaction session).
  test.each(["are we all committed?", "why both?", "which is faster？", "Everything?"])(
    "a reply that is a question, %s, is not an answer",
    (reply) => {
      const document = offline([
        user("Replace the deprecated moment.js calls in src/dates.ts"),
        assistant([text("Replaced them in src/dates.ts. Should I fix just dates.ts, or everything?")]),
        user(reply),
      ]);
      expect(document).not.toContain("The user answered");
    },
  );
});
