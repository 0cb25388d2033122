/**
 * A new Claude Code session we write resumes in the real Claude Code: the document reaches the
 * model verbatim as the first user message, our acknowledgement follows it, Claude Code resumes
 * with the model we meant (the source's, when the source is Claude Code's; its default
 * otherwise), and after its turn the file still starts with our lines and reads back as
 * document, acknowledgement, prompt, answer.
 * The matrix (matrix.ts) resumes a new Claude Code session from every source format; this
 * looks closer at two of them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isObject } from "../../core/json.ts";
import { analyzeBranch } from "../../core/session/analyze.ts";
import { detectClaudeCode } from "../../core/session/formats/claude-code/detect.ts";
import { readClaudeCodeSession } from "../../core/session/formats/claude-code/read.ts";
import { parseSession } from "../../core/session/formats/pi/parse.ts";
import type { Session } from "../../core/session/types.ts";
import type { Agent } from "../agents.ts";
import { startFakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { blocksOf, checkTranscript, CLAUDE_REPLY, claudeConfigDir, projectFolder, runClaude } from "./claude-code.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";

const NEXT = "COMPAT-NEXT: what is next?";

/**
 * Sources to hand off, the agent that wrote each, and the model Claude Code must resume the new
 * session with (`default`: its own). A Claude Code source sits where Claude Code keeps it, so
 * its new session goes beside it, where Claude Code finds it by id.
 */
const SOURCES = [
  { file: "fixtures/handoff-markers.jsonl", agent: "pi", model: "default" },
  { file: "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl", agent: "claude-code", model: "claude-sonnet-4-5" },
] as const;

/** The source with its working directory moved into the sandbox (Claude Code works in the cwd it is started in). */
function relocated(file: string, project: string): string {
  const text = readFileSync(join(REPO, file), "utf8").replaceAll("/tmp/agent-compat/claude-code-transcript/project", project);
  const read = (content: string): Session =>
    detectClaudeCode(content.split("\n").slice(0, 20)) ? readClaudeCodeSession(content, file) : parseSession(content, file);
  const cwd = read(text).header.cwd;
  return cwd === undefined || cwd === project ? text : text.replaceAll(JSON.stringify(cwd), JSON.stringify(project));
}

/**
 * The new session for `source` (a path in the sandbox), from `agent handoff --to claude-code`
 * (with `extraEnv` added), expected in `folder`: its id and the bytes we wrote.
 */
async function handOff(
  sandbox: Sandbox,
  source: string,
  dns: DnsLog,
  extraEnv: Record<string, string> = {},
  folder = projectFolder(sandbox),
): Promise<{ sessionId: string; path: string; content: string }> {
  const before = new Set(existsSync(folder) ? readdirSync(folder) : []);
  const env = sandbox.env({ CLAUDE_CONFIG_DIR: claudeConfigDir(sandbox), ...extraEnv });
  const run = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "handoff", source, "--to", "claude-code", "--engine", "offline", "--quiet"],
    { cwd: sandbox.project, env, timeoutMs: 60_000 },
    dns,
  );
  must(run.exitCode === 0, `agent handoff --to claude-code failed: ${describeRun(run)}`);
  const made = existsSync(folder) ? readdirSync(folder).filter((name) => !before.has(name) && name.endsWith(".jsonl")) : [];
  must(made.length === 1, `expected one new session in ${folder}, found ${made.join(", ") || "none"}`);
  const path = join(folder, made[0] ?? "");
  return { sessionId: (made[0] ?? "").replace(/\.jsonl$/, ""), path, content: readFileSync(path, "utf8") };
}

/** The first line's text (the wrapped document) and the second's (the acknowledgement), as we wrote them. */
function ourLines(content: string): { document: string; acknowledgement: string } {
  const [first, second] = content.split("\n").map((line): unknown => (line === "" ? undefined : JSON.parse(line)));
  const text = (line: unknown) =>
    isObject(line)
      ? blocksOf(line.message)
          .blocks.map((b) => (typeof b.text === "string" ? b.text : ""))
          .join("")
      : "";
  return { document: text(first), acknowledgement: text(second) };
}

export async function checkClaudeCodeResume(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  for (const { file, agent: writer, model } of SOURCES) {
    const label = `${file.split("/").pop()}, offline engine`;
    await checks.run(
      agent.name,
      `resumes the new session from ${label}: the document verbatim, then our acknowledgement, ${model === "default" ? "its default model" : `the source's model ${model}`}, a valid file`,
      async () => {
        const sandbox = createSandbox(`${agent.name}-resume`);
        const fake = startFakeModelServer(() => ({ text: CLAUDE_REPLY }));
        try {
          const defaultModel = (await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-DEFAULT: which model?")).model;
          const source = writer === "claude-code" ? join(projectFolder(sandbox), basename(file)) : join(sandbox.project, "source.jsonl");
          await Bun.write(source, relocated(file, sandbox.project));
          const made = await handOff(sandbox, source, dns);
          const ours = ourLines(made.content);
          const sent = await runClaude(agent, dir, sandbox, fake, dns, NEXT, ["--resume", made.sessionId]);
          // For some models Claude Code 2.1.328 puts `system` entries (settings, no words) between the messages.
          const [first, second] = sent.messages.map(blocksOf).filter((m) => m.role !== "system");
          must(
            first?.role === "user" && first.blocks.length >= 1 && first.blocks[0]?.text === ours.document,
            "the handoff document is not the first user message, verbatim",
          );
          must(
            second?.role === "assistant" && second.blocks[0]?.text === ours.acknowledgement,
            "our acknowledgement does not follow the document",
          );
          const expected = model === "default" ? defaultModel : model;
          must(sent.model === expected, `resumed with ${sent.model}, not ${expected}`);
          const after = readFileSync(made.path, "utf8");
          checkTranscript(made.path, made.content);
          const back = analyzeBranch(readClaudeCodeSession(after, made.path)).context.map(
            (m) => `${m.role}: ${m.content.map((b) => (b.type === "text" ? b.text : "")).join("")}`,
          );
          must(
            back.join("\n") ===
              [`user: ${ours.document}`, `assistant: ${ours.acknowledgement}`, `user: ${NEXT}`, `assistant: ${CLAUDE_REPLY}`].join("\n"),
            `reads back as ${back.map((b) => b.slice(0, 40)).join(" | ")}`,
          );
          return `${after.trimEnd().split("\n").length} lines after Claude Code's turn; model ${sent.model}`;
        } finally {
          await fake.stop();
        }
      },
    );
  }
  await checkNamedProjectFolder(agent, dir, checks, dns);
}

/** The folder name `CLAUDE_CODE_PROJECT_DIR_NAME` gives in the check below. */
const NAMED = "compat-named";

/**
 * With `CLAUDE_CONFIG_DIR` set, `CLAUDE_CODE_PROJECT_DIR_NAME` names the project folder: the new
 * session goes there, `claude --resume <id>` continues it there (its turn lands in that file),
 * and `claude -c` finds it as the folder's most recent.
 */
async function checkNamedProjectFolder(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  await checks.run(
    agent.name,
    `CLAUDE_CODE_PROJECT_DIR_NAME=${NAMED}: the new session goes in projects/${NAMED}, where Claude Code resumes it by id and with -c`,
    async () => {
      const sandbox = createSandbox(`${agent.name}-named`);
      const fake = startFakeModelServer(() => ({ text: CLAUDE_REPLY }));
      try {
        const named = { CLAUDE_CODE_PROJECT_DIR_NAME: NAMED };
        const folder = join(claudeConfigDir(sandbox), "projects", NAMED);
        const source = join(sandbox.project, "source.jsonl");
        await Bun.write(source, relocated("fixtures/handoff-markers.jsonl", sandbox.project));
        const made = await handOff(sandbox, source, dns, named, folder);
        must(!existsSync(projectFolder(sandbox)), `we wrote into ${projectFolder(sandbox)} too`);
        const ours = ourLines(made.content);
        for (const which of [["--resume", made.sessionId], ["-c"]]) {
          const prompt = `${NEXT} (${which[0]})`;
          const sent = await runClaude(agent, dir, sandbox, fake, dns, prompt, which, named);
          const [first] = sent.messages.map(blocksOf).filter((m) => m.role !== "system");
          must(
            first?.role === "user" && first.blocks[0]?.text === ours.document,
            `${which[0]}: the handoff document is not the first user message`,
          );
          must(readFileSync(made.path, "utf8").includes(prompt), `${which[0]}: Claude Code did not continue ${made.path}`);
        }
        checkTranscript(made.path, made.content);
        return `resumed by id and with -c from projects/${NAMED}; ${readFileSync(made.path, "utf8").trimEnd().split("\n").length} lines`;
      } finally {
        await fake.stop();
      }
    },
  );
}
