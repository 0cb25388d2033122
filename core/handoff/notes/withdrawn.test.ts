import { describe, expect, test } from "bun:test";
import type { ContextMessage } from "../../session/messages.ts";
import { extractNotes } from "../offline/extract.ts";
import { rulesIn, userConstraints } from "./constraints.ts";
import { isWithdrawal } from "./withdrawn.ts";

let n = 0;
const user = (text: string): ContextMessage => ({ role: "user", kind: "user", content: [{ type: "text", text }], entryId: `u${++n}` });
const said = (text: string): ContextMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  provider: undefined,
  model: undefined,
  stopReason: "stop",
  entryId: `a${++n}`,
});

describe("rules the user took back", () => {
  test.each([
    ["a path, after all", "Don't touch src/mail/ for now.", "You can change src/mail/ after all.", []],
    ["a file, fine now", "Never edit `config.yaml` by hand.", "Editing config.yaml is fine now.", []],
    ["that rule", "Always run the full suite.", "Forget that rule, the quick tests are enough.", []],
    ["another path stays", "Don't touch src/mail/ for now.", "You can change src/jobs/ after all.", ["Don't touch src/mail/ for now."]],
    ["no withdrawal", "Never use npm here.", "Use the lockfile as it is.", ["Never use npm here."]],
  ])("%s", (_name, rule, later, standing) => {
    const context = [user(rule), said("OK."), user(later)];
    expect(userConstraints(context)).toEqual(standing);
    expect(extractNotes(context).constraints.map((c) => c.text)).toEqual(standing);
  });

  test("a rule stated after the withdrawal stands", () => {
    const context = [user("You can change src/mail/ after all."), said("OK."), user("Don't touch src/mail/ again.")];
    expect(userConstraints(context)).toEqual(["Don't touch src/mail/ again."]);
  });

  test.each(["after all, it is fine", "You may now edit the schema too", "that rule is lifted"])("withdraws: %s", (s) =>
    expect(isWithdrawal(s)).toBe(true),
  );
  test.each(["Keep going", "Use pnpm", "We are all done"])("does not: %s", (s) => expect(isWithdrawal(s)).toBe(false));
});

describe("corrections", () => {
  test.each([
    [
      "a fact worded as a rule",
      "No, the changelog is not optional: there are three fixes.",
      ["No, the changelog is not optional: there are three fixes."],
    ],
    ["has to", "No. It has to be a separate cron worker.", ["It has to be a separate cron worker."]],
    ["a diagnosis is not a rule", "No, look at src/worker.ts: the ack is not awaited.", []],
    ["not a correction", "The changelog has to wait.", []],
  ])("%s", (_name, text, rules) => {
    expect(rulesIn(text).constraints).toEqual(rules);
  });

  test("turning the assistant down is a decision, with the proposal and the user's reason", () => {
    const notes = extractNotes([
      user("Add the nightly job."),
      said("I plan to poll the table every ten minutes from the web process. OK?"),
      user("No, don't run it in the web process: the pods scale to zero at night."),
    ]);
    expect(notes.steered.map((s) => s.text)).toEqual([
      'The user turned down what the assistant said ("I plan to poll the table every ten minutes from the web process."): "No, don\'t run it in the web process: the pods scale to zero at night."',
    ]);
  });

  test("a plain yes or a new request steers nothing", () => {
    const notes = extractNotes([user("Add the job."), said("I plan to poll it from the web process. OK?"), user("Yes, go ahead.")]);
    expect(notes.steered).toEqual([]);
  });
});

describe("a correction of the assistant's proposal is not a change of the user's goal", () => {
  test.each([
    ["after the assistant's question: the goal stands", "I suggest fake timers. Go ahead?", "Fix the flaky worker test."],
    ["after a statement: a change of plan", "I added Postgres.", "No, use SQLite instead of Postgres for the cache."],
  ])("%s", (_name, reply, goal) => {
    const notes = extractNotes([
      user("Fix the flaky worker test."),
      said(reply),
      user(reply.endsWith("?") ? "No, fake timers would hide the race instead of fixing it." : goal),
    ]);
    const objectives = notes.requests.filter((r) => r.kind === "objective").map((r) => r.text);
    expect(objectives.at(-1)).toBe(goal);
  });
});
