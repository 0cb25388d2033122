import { describe, expect, test } from "bun:test";
import { forPeople, recogniseInOutput } from "./printed.ts";

const PASSWORD = "Pw0rdXy7zQ9v";
const OPENAI = "sk-proj-Qm4Zt8Lw2Rx6Vb1Nc5Hd9Jf3Kg7Ps0Ty";
const API_KEY = "wkzrdyjkvnoarvqnolaqwq";
const CWD = `/home/dev/DATABASE_URL=postgres://app:${PASSWORD}@db/app ${OPENAI} api_key: ${API_KEY}`;

describe("messages: a secret of the cwd, recognised, is replaced where a folder name made from it recurs", () => {
  recogniseInOutput([CWD]);
  /** [whose folder name, the message]. */
  const MESSAGES: [string, string][] = [
    ["Claude Code's", `New session: ~/.claude/projects/${CWD.replace(/[^A-Za-z0-9]/g, "-")}/a.jsonl`],
    ["pi's", `error: ~/.pi/agent/sessions/--${CWD.slice(1).replace(/[/\\:]/g, "-")}--: too long`],
    ["a bare quote", `the folder ends in ${API_KEY}.`],
  ];
  test.each(MESSAGES)("%s", (_whose, message) => {
    const printed = forPeople(message);
    expect([PASSWORD, OPENAI, API_KEY].filter((secret) => printed.includes(secret))).toEqual([]);
    expect(printed).toContain("[REDACTED:");
  });

  test("a secret found in one message is replaced where a later one repeats it bare", () => {
    expect(forPeople("config line: token = Tk9mZq4Wv7Lr2")).not.toContain("Tk9mZq4Wv7Lr2");
    expect(forPeople("the value Tk9mZq4Wv7Lr2 again")).not.toContain("Tk9mZq4Wv7Lr2");
  });

  test("text with no secret is printed as it is", () => {
    expect(forPeople("New session started: ~/.claude/projects/-home-dev-shop/a.jsonl")).toBe(
      "New session started: ~/.claude/projects/-home-dev-shop/a.jsonl",
    );
  });
});
