/**
 * The statement tables (core/session/tool-statements.ts) follow the tested versions: the native
 * binary of Claude Code and of Codex holds every text a row stands for, and every shell tool
 * Claude Code declares that runs a command and answers like Bash is a shell tool in our table
 * (core/session/tools.ts). A new version that rewords a refusal or adds a shell tool fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { STATEMENT_WORDS } from "../../core/session/tool-statements.ts";
import { classifyToolCall } from "../../core/session/tools.ts";
import type { Agent } from "../agents.ts";
import { must, type Checks } from "./report.ts";

/** The native executable inside the install folder (linux x64, where the suite runs). */
const NATIVE: Record<string, string> = {
  codex: "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
  "claude-code": "node_modules/@anthropic-ai/claude-code-linux-x64/claude",
};

/** Claude Code 2.1.328's list of its shell tools, as its bundle writes it. */
const CLAUDE_SHELL_TOOLS = '["Bash","Monitor","PowerShell"]';
/** Those of them that run one command and answer like Bash ("Exit code N"); Monitor streams a background process's lines instead. */
const CLAUDE_COMMAND_TOOLS = ["Bash", "PowerShell"];

export async function checkStatements(agent: Agent, dir: string, checks: Checks): Promise<void> {
  const table = agent.name === "codex" || agent.name === "claude-code" ? STATEMENT_WORDS[agent.name] : undefined;
  const native = NATIVE[agent.name];
  if (!table || native === undefined) return;
  await checks.run(agent.name, `statements: the binary holds every text of our ${table.version} table`, async () => {
    must(agent.version === table.version, `the table is from ${table.version}, the pinned version is ${agent.version}`);
    const path = join(dir, native);
    must(existsSync(path), `no native binary at ${path}`);
    const binary = readFileSync(path);
    const missing = table.words.filter((words) => !binary.includes(words));
    must(missing.length === 0, `not in the binary: ${missing.map((words) => JSON.stringify(words)).join(", ")}`);
    if (agent.name === "claude-code") {
      must(binary.includes(CLAUDE_SHELL_TOOLS), `its shell tools are no longer ${CLAUDE_SHELL_TOOLS}`);
      const notShell = CLAUDE_COMMAND_TOOLS.filter((name) => classifyToolCall(name, { command: "true" }).kind !== "shell");
      must(notShell.length === 0, `not shell tools in core/session/tools.ts: ${notShell.join(", ")}`);
    }
    return `${table.words.length} texts`;
  });
}
