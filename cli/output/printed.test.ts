import { describe, expect, test } from "bun:test";
import { PrintedFilter } from "./printed.ts";

// One filter for the file, as one run's: what one test recognises, the next prints.
const filter = new PrintedFilter();
const forPeople = (text: string) => filter.forPeople(text);
const recogniseInOutput = (texts: readonly string[]) => filter.recogniseInOutput(texts);

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

/** The letters and digits of `text`, placeholders left out: what a name made from it keeps. */
function lettersOf(text: string): string {
  return text.replace(/\[REDACTED:[a-z0-9-]+:\d+\]/g, " ").replace(/[^A-Za-z0-9]/g, "");
}

/** Every 12 of `secret`'s letters and digits in a row: none may be left in a message. */
function partsOf(secret: string): string[] {
  const letters = lettersOf(secret);
  return Array.from({ length: Math.max(1, letters.length - 11) }, (_, i) => letters.slice(i, i + 12));
}

describe("messages: a secret of the cwd is replaced in any name made from it, however its punctuation changed", () => {
  const PEM_BODY = [
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj",
    "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu",
    "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ",
  ].join("\n");
  const SECRETS: [string, string][] = [
    ["a private key", `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`],
    ["a Slack webhook", "https://hooks.slack.com/services/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"],
    ["a GitHub token", "ghp_Zx9Kq2Lm4Np6Rs8Tv0Wy1Ab3Cd5Ef7Gh9Ij1K"],
    ["a URL's password", "postgres://app:Qv7_Lk2-Zp9.Xw4Rt8Mn3@db/app"],
  ];
  /** The names the agents and our messages make from a cwd. */
  const DERIVED: [string, (cwd: string) => string][] = [
    ["normalised (// → /)", (cwd) => cwd.replace(/\/+/g, "/")],
    ["Claude Code's folder", (cwd) => cwd.replace(/[^A-Za-z0-9]/g, "-")],
    ["Claude Code's folder, cut short with a hash", (cwd) => `${cwd.replace(/[^A-Za-z0-9]/g, "-").slice(0, 150)}-x7rz2`],
    ["pi's folder", (cwd) => `--${cwd.slice(1).replace(/[/\\:]/g, "-")}--`],
  ];
  for (const [what, secret] of SECRETS) {
    const cwd = `/home/dev/${secret}/app`;
    recogniseInOutput([cwd]);
    test.each(DERIVED)(`${what}: %s`, (_name, derive) => {
      const printed = forPeople(`error: ~/.agent/${derive(cwd)}: more than 255 bytes`);
      expect(partsOf(secret).filter((part) => lettersOf(printed).includes(part))).toEqual([]);
      expect(printed).toContain("[REDACTED:");
      expect(printed).toEndWith(": more than 255 bytes");
    });
  }

  test("a long run that shares nothing with a secret is printed as it is", () => {
    const text = "~/.claude/projects/-home-dev-averyveryverylongfoldername2026-app/a.jsonl";
    expect(forPeople(text)).toBe(text);
  });
});
