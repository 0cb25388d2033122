import { describe, expect, test } from "bun:test";
import { analyzeBranch } from "../../analyze.ts";
import { codex } from "./index.ts";

/**
 * The shell rules (which step's status is the line's; what a line writes) are agent-independent:
 * the same lines through a Codex rollout, whose `shell` calls are `["bash", "-lc", …]`.
 */
function rollout(calls: readonly [command: string, exitCode: number][]): string {
  const t = "2026-11-30T09:00:00.000Z";
  const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: t, type, payload });
  const lines = [
    line("session_meta", {
      id: "0a1b2c3d-0000-4000-8000-00000000aa13",
      timestamp: t,
      cwd: "/home/dev/shop",
      originator: "codex_cli_rs",
      cli_version: "0.169.0",
      source: "cli",
      model_provider: "openai",
    }),
    line("turn_context", { turn_id: "turn-1", cwd: "/home/dev/shop", approval_policy: "on-request", model: "gpt-5", summary: "auto" }),
    line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "Set up the sources" }] }),
  ];
  calls.forEach(([command, exitCode], i) => {
    const args = JSON.stringify({ command: ["bash", "-lc", command], workdir: "/home/dev/shop" });
    lines.push(line("response_item", { type: "function_call", name: "shell", arguments: args, call_id: `call_${i}` }));
    const output = `Chunk ID: 1a2b3c\nWall time: 0.0100 seconds\nProcess exited with code ${exitCode}\nOriginal token count: 0\nOutput:\n`;
    lines.push(line("response_item", { type: "function_call_output", call_id: `call_${i}`, output }));
  });
  lines.push(line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: "Done." }] }));
  return `${lines.join("\n")}\n`;
}

const factsOf = (calls: readonly [string, number][]) => analyzeBranch(codex.read(Buffer.from(rollout(calls)), "r.jsonl")).facts;

describe("shell lines through a Codex rollout", () => {
  test.each([
    ["[ -f src/legacy.ts ]", 1, false],
    ["[[ -d node_modules ]]", 1, false],
    ["! grep -q TODO src/a.ts", 1, false],
    ["cat log.txt | grep ERROR", 1, false],
    ["test -f package.json && npm test", 1, true],
    ["test -d dist || npm run build", 1, true],
  ])("%s exiting %d: failed is %p", (command, exitCode, failed) => {
    expect(factsOf([[command, exitCode]]).commands).toEqual([{ command, exitCode, by: "tool", failed }]);
  });

  test("every heredoc's file, the commands after them, and glued or forced redirections are listed", () => {
    const facts = factsOf([
      ["printf 'x' > src/old.ts", 0],
      ["cat > src/a.ts <<'EOF'\nexport const a = 1;\nEOF\ncat > src/b.ts <<'EOF'\nexport const b = 1;\nEOF\nrm src/old.ts", 0],
      ["echo done>src/log.txt; echo y >| src/forced.txt", 0],
    ]);
    expect(facts.filesModified).toEqual(["src/a.ts", "src/b.ts", "src/log.txt", "src/forced.txt"]);
    expect(facts.filesDeleted).toEqual(["src/old.ts"]);
  });

  test("a check's answer still wrote its redirection; a failure's changes are not counted", () => {
    const facts = factsOf([
      ["diff -u config.orig config.yml > config.patch", 1],
      ["npm test > test.log", 1],
      ["find src -name '*.ts' > list.txt", 1],
      ["mv legacy.ts modern.ts", 0],
    ]);
    expect(facts.filesModified).toEqual(["config.patch", "modern.ts"]);
    expect(facts.filesDeleted).toEqual(["legacy.ts"]);
    expect(facts.commands.map((c) => c.failed)).toEqual([false, true, true, false]);
  });
});
