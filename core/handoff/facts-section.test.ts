import { describe, expect, test } from "bun:test";
import type { CommandRun, SessionFacts } from "../session/facts.ts";
import { judgeRun } from "../session/runs.ts";
import { appendSessionFacts, renderSessionFacts } from "./facts-section.ts";
import { inlineCode } from "./notes/inline-code.ts";

function facts(overrides: Partial<SessionFacts> = {}): SessionFacts {
  return {
    cwd: undefined,
    filesRead: [],
    filesModified: [],
    filesDeleted: [],
    commands: [],
    models: [],
    lastUserRequest: undefined,
    ...overrides,
  };
}

/** A run judged as collectFacts judges it. */
const run = (command: string, exitCode: number | null, by: CommandRun["by"] = "tool", output = ""): CommandRun => ({
  command,
  by,
  ...judgeRun(command, exitCode, output),
});

describe("inlineCode", () => {
  test.each([
    ["plain path", "src/a.ts", "`src/a.ts`"],
    ["backticks inside get a longer fence", "a `b` c", "``a `b` c``"],
    ["a trailing backtick is padded", "echo `date`", "`` echo `date` ``"],
    ["a leading backtick is padded", "`x", "`` `x ``"],
    ["a run of three needs four", "a ``` b", "````a ``` b````"],
    ["line breaks become spaces", "a\nb", "`a b`"],
  ])("%s", (_name, input, expected) => {
    expect(inlineCode(input)).toBe(expected);
  });
});

describe("renderSessionFacts", () => {
  test("starts with the heading, names the source, and has no trailing newline", () => {
    const section = renderSessionFacts(facts(), "/home/me/s.jsonl");
    expect(section.split("\n")[0]).toBe("## Session Facts");
    expect(section).toContain("- Source session: `/home/me/s.jsonl`");
    expect(section.endsWith("\n")).toBe(false);
  });

  test("says none when nothing was recorded", () => {
    const section = renderSessionFacts(facts(), "s.jsonl");
    expect(section).toContain("- Files modified: none");
    expect(section).toContain("- Files read but not modified: none");
    expect(section).toContain("- Commands run: none");
    expect(section).toContain("- Last user request: none recorded");
  });

  test("lists files once, keeps modified files out of the read list, and caps with +N more", () => {
    const section = renderSessionFacts(
      facts({ filesModified: ["a.ts", "b.ts", "a.ts", "c.ts"], filesRead: ["a.ts", "r1.ts", "r2.ts", "r1.ts"] }),
      "s.jsonl",
      { maxFiles: 2 },
    );
    expect(section).toContain("- Files modified (3):\n  - `a.ts`\n  - `b.ts`\n  - … +1 more");
    expect(section).toContain("- Files read but not modified (2):\n  - `r1.ts`\n  - `r2.ts`\n- Commands");
  });

  test("lists deleted files apart, and never as read but not modified", () => {
    const section = renderSessionFacts(
      facts({ filesModified: ["src/store.ts"], filesDeleted: ["db/migrations/001_init.sql", "old.md"], filesRead: ["old.md", "r.ts"] }),
      "s.jsonl",
    );
    expect(section).toContain(
      "- Files modified (1):\n  - `src/store.ts`\n- Files deleted (2):\n  - `db/migrations/001_init.sql`\n  - `old.md`\n- Files read but not modified (1):\n  - `r.ts`\n",
    );
    expect(renderSessionFacts(facts({ filesModified: ["a.ts"] }), "s.jsonl")).not.toContain("Files deleted");
  });

  test("gives every command its exit code, says which failed, and marks the user's own `!` runs", () => {
    const section = renderSessionFacts(
      facts({ commands: [run("npm test", 1), run("npm test", 0), run("ls", 0, "user"), run("sleep 9", null), run("grep -n foo a.ts", 1)] }),
      "s.jsonl",
    );
    expect(section).toContain("- Commands run (5; 1 failed; 1 run by the user with `!`):");
    expect(section).toContain("  - `npm test` — exit 1, failed\n  - `npm test` — exit 0\n");
    expect(section).toContain("  - `ls` — exit 0, run by the user with `!`");
    expect(section).toContain("  - `sleep 9` — no exit code recorded (cancelled, still running, or no result)");
    // grep's exit 1 means it found nothing; that is not a failure.
    expect(section).toContain("  - `grep -n foo a.ts` — exit 1, nothing found");
  });

  test("a pipe whose output shows the build failed is failed, and counted as such", () => {
    const section = renderSessionFacts(
      facts({ commands: [run("npm run build 2>&1 | head -30", 0, "tool", "src/a.ts(7,25): error TS2345: x")] }),
      "s.jsonl",
    );
    expect(section).toContain(
      "- Commands run (1; 1 failed):\n  - `npm run build 2>&1 | head -30` — failed (output shows errors; the pipe's status was 0)",
    );
  });

  test("names files and commands in the one form the document uses: relative to the cwd inside it", () => {
    const section = renderSessionFacts(
      facts({
        cwd: "/w/app",
        filesModified: ["/w/app/src/a.ts", "./src/a.ts", "src/b.ts"],
        filesRead: ["src/a.ts", "/etc/hosts"],
        commands: [run("cd /w/app && npm test", 0)],
      }),
      "s.jsonl",
    );
    expect(section).toContain(
      "- Files modified (2):\n  - `src/a.ts`\n  - `src/b.ts`\n- Files read but not modified (1):\n  - `/etc/hosts`",
    );
    expect(section).toContain("  - `npm test` — exit 0");
    expect(section).not.toContain("/w/app");
  });

  test("caps the command list but keeps the newest failures in view", () => {
    const commands = [run("make build", 2), ...Array.from({ length: 20 }, (_, i) => run(`echo ${i}`, 0))];
    const section = renderSessionFacts(facts({ commands }), "s.jsonl", { maxCommands: 6 });
    // The 15 hidden runs ran between the failure and `echo 15`: the marker stands there.
    expect(section).toContain("  - `make build` — exit 2, failed\n  - … 15 runs not shown here\n  - `echo 15` — exit 0");
    expect(section).toMatch(/ {2}- `echo 19` — exit 0\n(?! {2}- …)/);
    expect(section).not.toContain("`echo 14`");
  });

  test.each([
    [
      Array.from({ length: 8 }, (_, i) => run(`echo ${i}`, 0)),
      6,
      "- Commands run (8; 0 failed):\n  - … 2 runs not shown here\n  - `echo 2` — exit 0",
    ],
    [
      [...Array.from({ length: 7 }, (_, i) => run(`echo ${i}`, 0)), run("make", 2)],
      6,
      "  - … 2 runs not shown here\n  - `echo 2` — exit 0",
    ],
    [
      [run("make", 2), ...Array.from({ length: 7 }, (_, i) => run(`echo ${i}`, 0))],
      6,
      "  - `make` — exit 2, failed\n  - … 2 runs not shown here\n  - `echo 2`",
    ],
    [[run("make", 2), run("echo a", 0), run("echo b", 0), run("echo c", 0)], 3, "  - … 1 run not shown here\n  - `echo b`"],
  ])("the hidden runs are marked where they ran (%#)", (commands, maxCommands, expected) => {
    const section = renderSessionFacts(facts({ commands }), "s.jsonl", { maxCommands });
    expect(section).toContain(expected);
    expect(section).not.toContain("more, not shown");
  });

  test("shows a multi-line command as its first line with a marker", () => {
    const section = renderSessionFacts(facts({ commands: [run("cat <<EOF > a.txt\nhello\nEOF", 0)] }), "s.jsonl");
    expect(section).toContain("  - `cat <<EOF > a.txt …` — exit 0");
  });

  test("quotes the last request verbatim, line by line", () => {
    const section = renderSessionFacts(facts({ lastUserRequest: "Fix the `parse` bug.\n\n## Not a heading\nThanks" }), "s.jsonl");
    expect(section.endsWith("- Last user request (verbatim):\n\n  > Fix the `parse` bug.\n  >\n  > ## Not a heading\n  > Thanks")).toBe(
      true,
    );
  });

  test("cuts a long last request and says how much was cut", () => {
    const section = renderSessionFacts(facts({ lastUserRequest: "x".repeat(50) }), "s.jsonl", { maxRequestChars: 20 });
    expect(section).toContain(`  > ${"x".repeat(20)}\n  > […cut: 30 more characters]`);
  });

  test("is the same for the same facts", () => {
    const input = facts({ filesModified: ["a"], commands: [run("b", 1)], lastUserRequest: "c" });
    expect(renderSessionFacts(input, "s")).toBe(renderSessionFacts(input, "s"));
  });
});

describe("appendSessionFacts", () => {
  const section = renderSessionFacts(facts({ lastUserRequest: "go on" }), "s.jsonl");

  test("puts the section after the document with one blank line", () => {
    expect(appendSessionFacts("## Goal\n- x\n\n", section)).toBe(`## Goal\n- x\n\n${section}`);
  });

  test("replaces a Session Facts section the model echoed at the end", () => {
    const echoed = "## Goal\n- x\n\n## Session Facts\n- made up by the model";
    const result = appendSessionFacts(echoed, section);
    expect(result).toBe(`## Goal\n- x\n\n${section}`);
    expect(result).not.toContain("made up by the model");
  });

  test("replaces an echoed section in the middle and keeps what follows it", () => {
    const echoed = "## Goal\n- x\n\n## Session Facts\n- made up\n\n## Next Steps\n1. y";
    expect(appendSessionFacts(echoed, section)).toBe(`## Goal\n- x\n\n## Next Steps\n1. y\n\n${section}`);
  });

  test("leaves a heading inside a code fence alone", () => {
    const document = "## Goal\n```md\n## Session Facts\n```";
    expect(appendSessionFacts(document, section)).toBe(`${document}\n\n${section}`);
  });

  test("appending twice gives one section", () => {
    const once = appendSessionFacts("## Goal\n- x", section);
    expect(appendSessionFacts(once, section)).toBe(once);
    expect(once.match(/^## Session Facts$/gm)?.length).toBe(1);
  });

  test("an empty document gives the section alone", () => {
    expect(appendSessionFacts("", section)).toBe(section);
  });
});
