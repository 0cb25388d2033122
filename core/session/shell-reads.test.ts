import { describe, expect, test } from "bun:test";
import { assistant, call, chain, jsonl, text, toolResult, user } from "../../fixtures/sessions/builders.ts";
import { analyzeBranch } from "./analyze.ts";
import { readSession } from "./formats/read.ts";
import { shellFileEvents } from "./shell-changes.ts";

/** The files a command line read into the session, as written (relative to the folder it ran in). */
const readsOf = (command: string) =>
  shellFileEvents(command)
    .filter((e) => e.op === "read")
    .map((e) => e.path);

/** Every way of reading a file the table names, and what looks like one but is not. */
const COMMANDS: readonly [command: string, read: string[]][] = [
  // Each reader, bare and with its options.
  ["cat src/a.ts", ["src/a.ts"]],
  ["cat -n src/a.ts src/b.ts", ["src/a.ts", "src/b.ts"]],
  ["tac log.txt", ["log.txt"]],
  ["nl -ba src/app.ts", ["src/app.ts"]],
  ["nl -b a -w 4 src/app.ts", ["src/app.ts"]],
  ["head -n 5 README.md", ["README.md"]],
  ["head -n5 README.md", ["README.md"]],
  ["head -20 README.md", ["README.md"]],
  ["head --lines 5 README.md", ["README.md"]],
  ["head --lines=5 README.md", ["README.md"]],
  ["head -c 100 data.bin", ["data.bin"]],
  ["tail -f server.log", ["server.log"]],
  ["tail -n +40 src/a.ts", ["src/a.ts"]],
  ["tail +5 notes.md", ["notes.md"]],
  ["less -N src/a.ts", ["src/a.ts"]],
  ["less +G app.log", ["app.log"]],
  ["more CHANGELOG.md", ["CHANGELOG.md"]],
  ["bat -r 1:40 src/a.ts", ["src/a.ts"]],
  ["bat --line-range 1:40 --style=plain src/a.ts", ["src/a.ts"]],
  ["batcat src/a.ts", ["src/a.ts"]],
  ["sed -n '1,20p' src/a.ts", ["src/a.ts"]],
  ["sed -n 1,20p src/a.ts", ["src/a.ts"]],
  ["sed -n -e '5p' -e '9p' src/a.ts", ["src/a.ts"]],
  ["sed 's/a/b/' src/a.ts", ["src/a.ts"]],
  ["sed -E -n '/^export/p' src/a.ts", ["src/a.ts"]],
  // Quoted and escaped names, `--`, prefixes, stdin from a file.
  ['cat "docs/my notes.md"', ["docs/my notes.md"]],
  ["cat docs/my\\ notes.md", ["docs/my notes.md"]],
  ["cat -- -odd-name.txt", ["-odd-name.txt"]],
  ["sudo cat /etc/hosts", ["/etc/hosts"]],
  ["LC_ALL=C head -3 data.csv", ["data.csv"]],
  ["head -n 3 < data.csv", ["data.csv"]],
  ["cat<data.csv", ["data.csv"]],
  ["cat ~/.bashrc", ["~/.bashrc"]],
  // Pipes, chains, folders: each step on its own, in the folder a `cd` moved to.
  ["nl -ba src/app.ts | sed -n '120,200p'", ["src/app.ts"]],
  // Through a pipe: read when every step after it passes the text on, and the last one's output reaches the session.
  ["cat package.json | head -20", ["package.json"]],
  ["cat src/a.ts | less", ["src/a.ts"]],
  ["cat src/a.ts | cat -n -", ["src/a.ts"]],
  ["nl -ba src/app.ts | sed -n '1,80p' | head -40", ["src/app.ts"]],
  ["cat src/a.ts |& head", ["src/a.ts"]],
  ["cat src/a.ts 2>&1 | tail -5", ["src/a.ts"]],
  ["cat a.txt | tee copy.txt | head", ["a.txt"]],
  // …not when a step makes something else of it (a count, a pick, a sort), or sends it to a file.
  ["cat f | wc -l", []],
  ["cat src/a.ts | wc -l", []],
  ["cat package.json | grep -A 5 scripts", []],
  ["head -100 data.csv | sort | uniq -c", []],
  ["nl -ba src/app.ts | sed -n '1,80p' | wc -l", []],
  ["cat src/a.ts | head -5 > top.txt", []],
  ["cat src/a.ts | sed -i 's/a/b/' other.ts", []],
  ["cat src/a.ts | head -5 other.ts", ["other.ts"]],
  ["cat src/a.ts | xargs echo", []],
  ["cat src/a.ts | sh", []],
  ["(cat src/a.ts) | wc -c", []],
  ["cat a.txt | wc -l; cat b.txt", ["b.txt"]],
  ["cat a.txt | wc -l && head b.txt | cat", ["b.txt"]],
  // A name starting with `-`, written as a path or after `--`, is a file; bare, an option.
  ["cat ./-n", ["./-n"]],
  ["cat -n ./-n", ["./-n"]],
  ["cat -- -n", ["-n"]],
  ["head -5 ./-n", ["./-n"]],
  ["sed -n 1,5p ./-n", ["./-n"]],
  ["tail ./-f ./+5", ["./-f", "./+5"]],
  ["less -- -N", ["-N"]],
  ["cat ./-n | wc -l", []],
  ["cat -n", []],
  ["cd pkg && cat package.json && head -5 README.md", ["pkg/package.json", "pkg/README.md"]],
  ["(cd sub && cat a.txt); cat b.txt", ["sub/a.txt", "b.txt"]],
  ["ls src; cat src/index.ts", ["src/index.ts"]],
  ["bash -lc 'sed -n 1,80p core/x.ts'", ["core/x.ts"]],
  ["cat a.txt 2>/dev/null || echo missing", ["a.txt"]],
  ["cat notes.txt >&2", ["notes.txt"]],
  ["cat a.txt | tee copy.txt", ["a.txt"]],
  // Not a read: a write, output sent to a file, a heredoc, a glob, a variable, stdin.
  ["cat > src/new.ts <<'EOF'\nexport const a = 1;\nEOF", []],
  ["cat <<EOF > out.txt\nsrc/a.ts\nEOF", []],
  ["cat << EOF\nhello\nEOF", []],
  ["cat <<< 'src/a.ts'", []],
  ["cat a.txt > b.txt", []],
  ["head -5 a.txt >> summary.txt", []],
  ["cat a.txt &> all.log", []],
  ["sed -n '1,5p' a.txt > part.txt", []],
  ["sed -i 's/a/b/' src/a.ts", []],
  ["sed -i.bak -n 's/a/b/p' src/a.ts", []],
  ["cat src/*.ts", []],
  ['cat "$FILE"', []],
  ["cat -", []],
  ["cat /dev/null", []],
  ["echo 'cat secret.txt'", []],
  ['grep -n "cat a.txt" notes.md', []],
  // Not a read: programs that show a pick, a count or bytes, not the file.
  ["grep -n TODO src/a.ts", []],
  ["rg --files", []],
  ["awk 'NR<5' src/a.ts", []],
  ["wc -l src/a.ts", []],
  ["jq . package.json", []],
  ["xxd data.bin", []],
  ["diff a.txt b.txt", []],
  ["sort names.txt", []],
  ["git show HEAD:src/a.ts", []],
];

describe("the files a shell command read", () => {
  test.each(COMMANDS)("%j → %j", (command, read) => {
    expect(readsOf(command)).toEqual(read);
  });
});

/** One shell call that ran and succeeded, as each agent records it, with the user's ask before it. */
const SESSIONS: Record<string, (command: string) => string> = {
  pi: (command) =>
    chain([
      user(1, "Look at the code"),
      assistant(2, [call("c1", "bash", { command })], "toolUse"),
      toolResult(3, "c1", "bash", "…file text…"),
      assistant(4, [text("Read it.")]),
    ]),
  omp: (command) => {
    const title = { type: "title", v: 1, title: "t", updatedAt: "2026-11-29T09:00:00.000Z", pad: "" };
    const line = JSON.stringify(title);
    const padded = JSON.stringify({ ...title, pad: " ".repeat(255 - line.length) });
    return `${padded}\n${chain([
      user(1, "Look at the code"),
      assistant(2, [call("c1", "bash", { command })], "toolUse"),
      toolResult(3, "c1", "bash", "…file text…"),
      assistant(4, [text("Read it.")]),
    ])}`;
  },
  "claude-code": (command) => {
    const base = {
      isSidechain: false,
      userType: "external",
      cwd: "/work/app",
      sessionId: "5a1b2c3d-0000-4000-8000-0000000000aa",
      version: "2.1.328",
    };
    const at = (n: number) => `2026-11-30T09:00:0${n}.000Z`;
    const uuid = (n: number) => `ffffffff-0000-4000-8000-00000000000${n}`;
    return jsonl([
      { ...base, parentUuid: null, uuid: uuid(1), timestamp: at(1), type: "user", message: { role: "user", content: "Look at the code" } },
      {
        ...base,
        parentUuid: uuid(1),
        uuid: uuid(2),
        timestamp: at(2),
        type: "assistant",
        message: {
          id: "msg_1",
          role: "assistant",
          model: "claude-opus-4-5",
          content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command } }],
        },
      },
      {
        ...base,
        parentUuid: uuid(2),
        uuid: uuid(3),
        timestamp: at(3),
        type: "user",
        toolUseResult: { stdout: "…file text…", stderr: "", interrupted: false, isImage: false },
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "…file text…", is_error: false }] },
      },
      {
        ...base,
        parentUuid: uuid(3),
        uuid: uuid(4),
        timestamp: at(4),
        type: "assistant",
        message: { id: "msg_2", role: "assistant", model: "claude-opus-4-5", content: [{ type: "text", text: "Read it." }] },
      },
    ]);
  },
  codex: (command) => {
    const t = "2026-11-30T09:00:00.000Z";
    const line = (type: string, payload: unknown) => ({ timestamp: t, type, payload });
    return jsonl([
      line("session_meta", {
        id: "0a1b2c3d-0000-4000-8000-0000000000bb",
        timestamp: t,
        cwd: "/work/app",
        originator: "codex_cli_rs",
        cli_version: "0.169.0",
        source: "cli",
        model_provider: "openai",
      }),
      line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "Look at the code" }] }),
      line("response_item", {
        type: "function_call",
        name: "exec_command",
        arguments: JSON.stringify({ cmd: command, workdir: "/work/app" }),
        call_id: "call_1",
      }),
      line("response_item", {
        type: "function_call_output",
        call_id: "call_1",
        output: "Chunk ID: 1a2b3c\nWall time: 0.0100 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\n…file text…\n",
      }),
      line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "Read it." }] }),
    ]);
  },
};

/** A sample of the table, through every agent's reader: the rule is the same whatever wrote the session. */
const THROUGH_AGENTS: readonly [string, string[]][] = [
  ["sed -n '1,200p' src/app.ts", ["src/app.ts"]],
  ["nl -ba src/app.ts | sed -n '1,80p'", ["src/app.ts"]],
  ["cd src && head -n 40 a.ts && tail -5 b.ts", ["src/a.ts", "src/b.ts"]],
  ['cat "docs/my notes.md" 2>/dev/null', ["docs/my notes.md"]],
  ["cat /work/app/lib/x.ts", ["lib/x.ts"]],
  ["cat src/*.ts", []],
  ["cat > out.ts <<'EOF'\nx\nEOF", []],
  ["wc -l src/app.ts", []],
  ["cat ./-n", ["-n"]],
  ["cat src/app.ts | wc -l", []],
];

describe("files read through the shell count as files read, for every agent", () => {
  for (const [agent, session] of Object.entries(SESSIONS)) {
    test.each(THROUGH_AGENTS)(`${agent}: %j → %j`, (command, read) => {
      const { session: parsed, format } = readSession(session(command), `/sessions/${agent}.jsonl`);
      expect(format.name as string).toBe(agent);
      const { facts } = analyzeBranch(parsed);
      expect(facts.filesRead).toEqual(read);
      expect(facts.commands.map((c) => c.command)).toEqual([command]);
    });
  }

  test("a read that failed read nothing", () => {
    const session = chain([
      user(1, "Look"),
      assistant(2, [call("c1", "bash", { command: "cat missing.txt" })], "toolUse"),
      toolResult(3, "c1", "bash", "cat: missing.txt: No such file or directory\n\nCommand exited with code 1", true),
      assistant(4, [text("It is not there.")]),
    ]);
    expect(analyzeBranch(readSession(session, "s.jsonl").session).facts.filesRead).toEqual([]);
  });
});

/** Names every plain object answers to: a program or an operator called so is not in a table of ours. */
const OBJECT_NAMES = Object.getOwnPropertyNames(Object.prototype);

describe("a program named like an object's property is not a reader", () => {
  test.each(OBJECT_NAMES)("%s", (name) => {
    for (const command of [`${name} -n 5 a.txt`, `cat a.txt | ${name} -n 5`, `cat a.txt | ${name}`, `sudo ${name} -x`]) {
      const { session } = readSession(SESSIONS.pi?.(command) ?? "", "/sessions/pi.jsonl");
      const { facts } = analyzeBranch(session);
      expect({ command, read: facts.filesRead, ran: facts.commands.map((c) => c.command) }).toEqual({ command, read: [], ran: [command] });
    }
  });
});
