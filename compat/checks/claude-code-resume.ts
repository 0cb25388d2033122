/**
 * A new Claude Code session we write resumes in the real Claude Code: the document reaches the
 * model verbatim as the first user message, our acknowledgement follows it, Claude Code resumes
 * with the model we meant (the source's, when the source is Claude Code's; its default
 * otherwise), and after its turn the file still starts with our lines and reads back as
 * document, acknowledgement, prompt, answer.
 *
 * The new session comes from `agent handoff --to claude-code` once the CLI has `--to` (the
 * format table routes the handoff to our writer); until then the writer is called in-process
 * on the document the offline engine wrote, which is what the CLI will do.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runHandoff } from "../../core/handoff/pipeline.ts";
import { ACKNOWLEDGEMENT } from "../../core/handoff/wrap.ts";
import { wrapHandoffDocument } from "../../core/handoff/wrap.ts";
import { isObject } from "../../core/json.ts";
import { analyzeBranch } from "../../core/session/analyze.ts";
import { detectClaudeCode } from "../../core/session/formats/claude-code/detect.ts";
import { readClaudeCodeSession } from "../../core/session/formats/claude-code/read.ts";
import { renderClaudeCodeSession } from "../../core/session/formats/claude-code/write.ts";
import { parseSession } from "../../core/session/formats/pi/parse.ts";
import { restoredModel } from "../../core/session/restored-model.ts";
import type { Session } from "../../core/session/types.ts";
import type { Agent } from "../agents.ts";
import { startFakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { blocksOf, CLAUDE_REPLY, claudeConfigDir, placeSession, projectFolder, runClaude } from "./claude-code.ts";
import { REPO } from "./reading.ts";
import { must, type Checks } from "./report.ts";

const NEXT = "COMPAT-NEXT: what is next?";

/** Sources to hand off, and the model Claude Code must resume the new session with (`default`: its own). */
const SOURCES = [
  { file: "fixtures/handoff-markers.jsonl", model: "default" },
  { file: "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl", model: "claude-sonnet-4-5" },
] as const;

/** The source with its working directory moved into the sandbox (Claude Code works in the cwd it is started in). */
function relocated(file: string, project: string): string {
  const text = readFileSync(join(REPO, file), "utf8").replaceAll("/tmp/agent-compat/claude-code-transcript/project", project);
  const read = (content: string): Session => (detectClaudeCode(content.split("\n").slice(0, 20)) ? readClaudeCodeSession(content, file) : parseSession(content, file));
  const cwd = read(text).header.cwd;
  return cwd === undefined || cwd === project ? text : text.replaceAll(JSON.stringify(cwd), JSON.stringify(project));
}

let cliKnowsTo: boolean | undefined;

/** Whether `agent handoff` takes `--to` yet (the format table routes handoffs to every writer). */
async function cliCanHandOffToClaude(sandbox: Sandbox, dns: DnsLog): Promise<boolean> {
  if (cliKnowsTo === undefined) {
    const run = await runAgent([process.execPath, join(REPO, "cli/index.ts"), "handoff", "--help"], { cwd: REPO, env: sandbox.env(), timeoutMs: 60_000 }, dns);
    cliKnowsTo = /--to\b/.test(run.stdout + run.stderr);
  }
  return cliKnowsTo;
}

/** The new session for `source` (a path in the sandbox): its id and the bytes we wrote. */
async function handOff(sandbox: Sandbox, source: string, dns: DnsLog): Promise<{ sessionId: string; path: string; content: string }> {
  if (await cliCanHandOffToClaude(sandbox, dns)) {
    const before = new Set(existsSync(projectFolder(sandbox)) ? readdirSync(projectFolder(sandbox)) : []);
    const env = sandbox.env({ CLAUDE_CONFIG_DIR: claudeConfigDir(sandbox) });
    const run = await runAgent([process.execPath, join(REPO, "cli/index.ts"), "handoff", source, "--to", "claude-code", "--engine", "offline", "--quiet"], { cwd: sandbox.project, env, timeoutMs: 60_000 }, dns);
    must(run.exitCode === 0, `agent handoff --to claude-code failed: ${describeRun(run)}`);
    const made = readdirSync(projectFolder(sandbox)).filter((name) => !before.has(name) && name.endsWith(".jsonl"));
    must(made.length === 1, `expected one new session in ${projectFolder(sandbox)}, found ${made.join(", ") || "none"}`);
    const path = join(projectFolder(sandbox), made[0] ?? "");
    return { sessionId: (made[0] ?? "").replace(/\.jsonl$/, ""), path, content: readFileSync(path, "utf8") };
  }
  const text = readFileSync(source, "utf8");
  const claude = detectClaudeCode(text.split("\n").slice(0, 20));
  const session = claude ? readClaudeCodeSession(text, source) : parseSession(text, source);
  const analysis = analyzeBranch(session);
  const ids = { now: () => new Date(), newSessionId: () => crypto.randomUUID(), newEntryId: () => crypto.randomUUID().slice(0, 8) };
  const { document } = await runHandoff({ session, analysis, sourcePath: source, model: "offline", provider: "offline", engine: "offline" }, { ...ids, complete: async () => Promise.reject(new Error("offline")) });
  const file = renderClaudeCodeSession({
    wrappedDocument: wrapHandoffDocument(document),
    acknowledgement: ACKNOWLEDGEMENT,
    sessionId: crypto.randomUUID(),
    newEntryId: () => crypto.randomUUID().slice(0, 8),
    timestamp: new Date(),
    utcOffsetMinutes: 0,
    cwd: session.header.cwd,
    parentSession: source,
    model: restoredModel(analysis.branch.entries),
    source: { format: session.format, agentVersion: session.header.agentVersion, modelProvider: session.header.modelProvider },
  });
  return { sessionId: file.sessionId, path: placeSession(sandbox, file.sessionId, file.content), content: file.content };
}

/** After Claude Code's turn: every line JSON, the file ends with a newline, no line uuid twice. */
function checkLines(text: string): void {
  must(text.endsWith("\n"), "the file does not end with a newline");
  const seen = new Set<string>();
  for (const [i, line] of text.slice(0, -1).split("\n").entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    const uuid = isObject(value) ? value.uuid : undefined;
    if (typeof uuid !== "string") continue;
    must(!seen.has(uuid), `line ${i + 1} repeats uuid ${uuid}`);
    seen.add(uuid);
  }
}

/** The first line's text (the wrapped document) and the second's (the acknowledgement), as we wrote them. */
function ourLines(content: string): { document: string; acknowledgement: string } {
  const [first, second] = content.split("\n").map((line): unknown => (line === "" ? undefined : JSON.parse(line)));
  const text = (line: unknown) => (isObject(line) ? blocksOf(line.message).blocks.map((b) => (typeof b.text === "string" ? b.text : "")).join("") : "");
  return { document: text(first), acknowledgement: text(second) };
}

export async function checkClaudeCodeResume(agent: Agent, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  for (const { file, model } of SOURCES) {
    const label = `${file.split("/").pop()}, offline engine`;
    await checks.run(agent.name, `resumes the new session from ${label}: the document verbatim, then our acknowledgement, ${model === "default" ? "its default model" : `the source's model ${model}`}, a valid file`, async () => {
      const sandbox = createSandbox(`${agent.name}-resume`);
      const fake = startFakeModelServer(() => ({ text: CLAUDE_REPLY }));
      try {
        const defaultModel = (await runClaude(agent, dir, sandbox, fake, dns, "COMPAT-DEFAULT: which model?")).model;
        const source = join(sandbox.project, "source.jsonl");
        await Bun.write(source, relocated(file, sandbox.project));
        const made = await handOff(sandbox, source, dns);
        const ours = ourLines(made.content);
        const sent = await runClaude(agent, dir, sandbox, fake, dns, NEXT, made.sessionId);
        // For some models Claude Code 2.1.328 puts `system` entries (settings, no words) between the messages.
        const [first, second] = sent.messages.map(blocksOf).filter((m) => m.role !== "system");
        must(first?.role === "user" && first.blocks.length >= 1 && first.blocks[0]?.text === ours.document, "the handoff document is not the first user message, verbatim");
        must(second?.role === "assistant" && second.blocks[0]?.text === ours.acknowledgement, "our acknowledgement does not follow the document");
        const expected = model === "default" ? defaultModel : model;
        must(sent.model === expected, `resumed with ${sent.model}, not ${expected}`);
        const after = readFileSync(made.path, "utf8");
        must(after.startsWith(made.content), "our lines are no longer the start of the file");
        checkLines(after);
        const back = analyzeBranch(readClaudeCodeSession(after, made.path)).context.map((m) => `${m.role}: ${m.content.map((b) => (b.type === "text" ? b.text : "")).join("")}`);
        must(back.join("\n") === [`user: ${ours.document}`, `assistant: ${ours.acknowledgement}`, `user: ${NEXT}`, `assistant: ${CLAUDE_REPLY}`].join("\n"), `reads back as ${back.map((b) => b.slice(0, 40)).join(" | ")}`);
        return `${after.trimEnd().split("\n").length} lines after Claude Code's turn; model ${sent.model}`;
      } finally {
        await fake.stop();
      }
    });
  }
}
