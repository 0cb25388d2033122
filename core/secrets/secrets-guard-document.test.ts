import { describe, expect, test } from "bun:test";
import type { SessionFacts } from "../session/facts.ts";
import type { ContextMessage } from "../session/messages.ts";
import { createSecretsGuard } from "./secrets-guard.ts";

const TOKEN = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";
const KEY = "Zq8localproxykey44LmNp0wXyQ7";
const context: ContextMessage[] = [
  { role: "user", kind: "user", content: [{ type: "text", text: `deploy with ${TOKEN}` }], entryId: "e1" },
];

const run = (command: string) => ({ command, exitCode: 0, by: "tool" as const, failed: false });
function factsWith(commands: string[], more: Partial<SessionFacts> = {}): SessionFacts {
  return {
    cwd: "/home/me/app",
    filesRead: ["src/a.ts", "src/a.ts"],
    filesModified: [],
    filesDeleted: [],
    commands: commands.map(run),
    models: ["openai/gpt-5"],
    lastUserRequest: "ship it",
    ...more,
  };
}

const NO_STRINGS: SessionFacts = {
  cwd: undefined,
  filesRead: [],
  filesModified: [],
  filesDeleted: [],
  commands: [],
  models: [],
  lastUserRequest: undefined,
};

/** What forDocument gave before each string was mapped once: every string through both passes, in order (as `cwd` is), a fresh copy. */
function eachStringMapped(guard: ReturnType<typeof createSecretsGuard>, facts: SessionFacts): unknown {
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return guard.forDocument(NO_STRINGS, item).cwd;
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item !== "object" || item === null) return item;
    return Object.fromEntries(Object.entries(item).map(([key, inner]) => [key, walk(inner)]));
  };
  return walk(facts);
}

describe("forDocument's facts", () => {
  test("a secret found in one string is replaced in those after it, also in a string seen before, where it recurs", () => {
    const facts = factsWith(["echo Hunter2xyz9", "mysql --password=Hunter2xyz9", "echo Hunter2xyz9"]);
    const sources = createSecretsGuard({ context }).forDocument(facts, undefined);
    expect(sources.facts.commands.map((c) => c.command)).toEqual([
      "echo Hunter2xyz9",
      "mysql --password=[REDACTED:password:1]",
      "echo [REDACTED:password:1]",
    ]);
  });

  test("nothing to redact: the facts passed on are the facts themselves, nothing copied", () => {
    const facts = factsWith(["ls", "ls", "bun test"]);
    expect(createSecretsGuard({ context, withheld: [KEY] }).forDocument(facts, "/home/me/app").facts).toBe(facts);
  });

  test("only the lists and records that hold a changed string are copies", () => {
    const facts = factsWith(["ls", `curl ${KEY}`]);
    const sources = createSecretsGuard({ context, withheld: [KEY] }).forDocument(facts, undefined);
    expect(sources.facts).not.toBe(facts);
    expect(sources.facts.filesRead).toBe(facts.filesRead);
    expect(sources.facts.commands[0]).toBe(facts.commands[0] as (typeof facts.commands)[number]);
    expect(sources.facts.commands[1]).toEqual(run("curl [withheld]"));
    expect(facts.commands[1]).toEqual(run(`curl ${KEY}`));
  });

  const VARIANTS: [what: string, facts: SessionFacts][] = [
    ["no secret", factsWith(["ls", "git status"])],
    ["the context's token, twice", factsWith([`git push https://x:${TOKEN}@github.com`, `echo ${TOKEN}`], { filesRead: [`${TOKEN}.txt`] })],
    ["the key, in a path and a command", factsWith([`curl ${KEY}`], { filesModified: [`keys/${KEY}`], cwd: `/tmp/${KEY}` })],
    [
      "a password found late, quoted early",
      factsWith(["echo s3cr3tPassw0rd", "PGPASSWORD=s3cr3tPassw0rd psql"], { lastUserRequest: "s3cr3tPassw0rd" }),
    ],
    ["strings repeated around a secret", factsWith(["a", "token=abc123XYZ9", "a", "abc123XYZ9", "token=abc123XYZ9"])],
    [
      "one string before and after the secret is found",
      factsWith(["mysql --password=Hunter2xyz9"], { filesRead: ["notes-Hunter2xyz9"], lastUserRequest: "notes-Hunter2xyz9" }),
    ],
    ["no request, no cwd", factsWith(["ls"], { lastUserRequest: undefined, cwd: undefined })],
  ];
  test.each(VARIANTS)("%s: as each string through both passes, in order", (_what, facts) => {
    const guard = createSecretsGuard({ context, withheld: [KEY] });
    const reference = createSecretsGuard({ context, withheld: [KEY] });
    const want = eachStringMapped(reference, facts);
    expect(guard.forDocument(facts, undefined).facts).toEqual(want as SessionFacts);
    expect(guard.redacted).toBe(reference.redacted);
  });
});
