/**
 * Claude Code and Codex: two turns on one session, a compaction (Claude Code: `/compact`
 * headless; Codex: its automatic compaction, started by a low token limit and large reported
 * usage), and a turn after it.
 */
import { basename, join } from "node:path";
import { configureCodex, FAKE_KEY } from "../agent-setup.ts";
import { must } from "../checks/report.ts";
import { jsonlFilesUnder, runTurn, type RecordContext, type TranscriptDriver } from "./context.ts";
import { COMPACT_INSTRUCTIONS, FIRST_PROMPT, SECOND_PROMPT, THANKS } from "./script.ts";

/** Fixed, so the transcript's file name is the same on every run. */
const CLAUDE_SESSION_ID = "7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7";

function claudeEnv(context: RecordContext): Record<string, string> {
  return context.sandbox.env({
    ANTHROPIC_BASE_URL: context.fake.origin,
    ANTHROPIC_API_KEY: FAKE_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
  });
}

export const claudeDriver: TranscriptDriver = {
  style: (project) => ({
    bash: (command) => ({ name: "Bash", arguments: { command, description: "Run a command" } }),
    read: (path) => ({ name: "Read", arguments: { file_path: join(project, path) } }),
    edit: (path, oldText, newText) => ({
      name: "Edit",
      arguments: { file_path: join(project, path), old_string: oldText, new_string: newText },
    }),
  }),
  async record(context) {
    const bin = join(context.dir, context.agent.bin);
    // As root, --dangerously-skip-permissions is refused; these let the scripted tools run.
    const base = [bin, "-p", "--permission-mode", "acceptEdits", "--allowedTools", "Bash,Read,Edit,Write", "--model", "claude-sonnet-4-5"];
    const env = claudeEnv(context);
    await runTurn(context, [...base, "--session-id", CLAUDE_SESSION_ID, FIRST_PROMPT], env);
    await runTurn(context, [...base, "--resume", CLAUDE_SESSION_ID, SECOND_PROMPT], env);
    await runTurn(context, [...base, "--resume", CLAUDE_SESSION_ID, `/compact ${COMPACT_INSTRUCTIONS}`], env);
    await runTurn(context, [...base, "--resume", CLAUDE_SESSION_ID, THANKS], env);
    const files = jsonlFilesUnder(join(context.sandbox.home, ".claude/projects"));
    const main = files.find((f) => basename(f) === `${CLAUDE_SESSION_ID}.jsonl`);
    must(
      main !== undefined,
      `no ${CLAUDE_SESSION_ID}.jsonl under ~/.claude/projects (found ${files.map((f) => basename(f)).join(", ") || "none"})`,
    );
    return new Map(files.map((f) => [basename(f), f]));
  },
};

export const codexDriver: TranscriptDriver = {
  style: () => ({
    bash: (cmd) => ({ name: "exec_command", arguments: { cmd } }),
    read: (path) => ({ name: "exec_command", arguments: { cmd: `cat ${path}` } }),
    edit: (path, oldText, newText) => ({ name: "exec_command", arguments: { cmd: `sed -i 's/${oldText}/${newText}/' ${path}` } }),
  }),
  async record(context) {
    const codexHome = join(context.sandbox.home, ".codex");
    configureCodex(codexHome, context.fake.origin, ["model_auto_compact_token_limit = 2000"]);
    const env = context.sandbox.env({ CODEX_HOME: codexHome, COMPAT_FAKE_KEY: FAKE_KEY });
    const bin = join(context.dir, context.agent.bin);
    const flags = ["--skip-git-repo-check", "-s", "workspace-write", "--json"];
    const first = await runTurn(context, [bin, "exec", ...flags, FIRST_PROMPT], env);
    const thread = /"thread_id":"([^"]+)"/.exec(first.stdout)?.[1];
    must(thread !== undefined, `no thread id in codex's output: ${first.stdout.slice(0, 300)}`);
    // Usage above the limit from here on: Codex compacts before its next request.
    context.setInputTokens(5000);
    await runTurn(context, [bin, "exec", ...flags, "resume", thread, SECOND_PROMPT], env);
    await runTurn(context, [bin, "exec", ...flags, "resume", thread, THANKS], env);
    const files = jsonlFilesUnder(join(codexHome, "sessions"));
    must(files.length === 1, `expected one rollout file, found ${files.length}`);
    return new Map([["rollout.jsonl", files[0] ?? ""]]);
  },
};
