/**
 * Each real agent as the target of a handoff, in one table: how it is pointed at the fake model
 * server in a sandbox, how it continues a session file with one prompt (and which request to
 * the model that produced), and what its file must still look like after its turn. Checks that
 * resume what we wrote (the matrix, and any later family) ask this table, not the agent's name.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent, AgentName } from "../agents.ts";
import { agentEnv, configureAgent, continueCommand, FAKE_KEY, SERVED_MODELS, startCommand } from "../agent-setup.ts";
import type { FakeModelServer } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { checkTranscript, claudeConfigDir, claudeEnv, runClaude } from "./claude-code.ts";
import { checkGeminiFile, GEMINI_MODEL, geminiEnv, prepareGemini, runGemini } from "./gemini.ts";
import { checkRollout, codexEnv, codexHomeOf, execResume, execStart, prepareCodex } from "./codex.ts";
import { opencodeTarget } from "./opencode-target.ts";
import { must } from "./report.ts";
import { carriesVerbatim, checkSessionFile, conversationRequests } from "./session-file.ts";

/** One agent run: who, where, against which fake. */
export interface TargetRun {
  agent: Agent;
  /** The agent's install folder. */
  dir: string;
  sandbox: Sandbox;
  fake: FakeModelServer;
  dns: DnsLog;
}

/**
 * A session we wrote for the target: where it is (its file, or the database its rows are in),
 * the id the agent resumes it by, and what of it must stay as we wrote it (`snapshot`).
 */
export interface WrittenSession {
  path: string;
  id: string;
  content: string;
}

/** What a target needs to know of a handoff's source to say which model it continues with. */
export interface SourceFacts {
  name: AgentName;
  /** The provider the source's session names its model by (pi's word for it), if any. */
  provider: string | undefined;
}

/** The model request the agent sent for its turn: the model it asked for and the messages (or Responses input) it sent. */
export interface SentTurn {
  model: string;
  messages: unknown[];
}

export interface ResumeTarget {
  /**
   * Writes the agent's configuration (the fake as its provider, `defaultModel` its default) into
   * the sandbox's HOME, and makes whatever there only the agent makes (opencode's database).
   */
  prepare(run: TargetRun): void | Promise<void>;
  /**
   * The model the agent starts with when a session names none it can use, as its request names
   * it: one the fake serves (else the agent would try its real provider), and none of the
   * sources' own models, so a check tells the two apart.
   */
  defaultModel: string;
  /** Whether it continues a session handed off from `source` with the source's own model (else with `defaultModel`). */
  keepsSourceModel(source: SourceFacts): boolean;
  /**
   * Continues `session` with `prompt` in the sandbox's project, headless; the request that carried
   * the prompt. With no session, the agent's own "continue the most recent session of this
   * folder" (`pi -c`, `claude -c`, `codex exec resume --last`). `env` is added to the agent's
   * environment (a terminal's identity, for omp's per-terminal note).
   */
  resume(run: TargetRun, session: WrittenSession | undefined, prompt: string, env?: Record<string, string>): Promise<SentTurn>;
  /**
   * Starts a new session of the agent's own in the sandbox's project with `prompt`, headless
   * (`pi -p`, `claude -p`, `codex exec`), as a user's earlier work: the history a used home holds
   * (its files, its indexes, its notes).
   */
  start(run: TargetRun, prompt: string, env?: Record<string, string>): Promise<void>;
  /** The environment the agent runs with in the sandbox (its configuration there, the fake's key). */
  env(run: TargetRun): Record<string, string>;
  /** What its interactive screen needs beyond `prepare`: first-run questions answered ahead, update checks off. */
  prepareScreen(run: TargetRun): void;
  /**
   * Names its interactive screen looks up at start whatever the configuration says, carrying
   * nothing of the session (the namespace refuses them anyway).
   */
  screenLookups: readonly string[];
  /** What of the new session at `path` must stay as we wrote it: the file's text, or the session's rows. */
  snapshot(session: { path: string; id: string }): string;
  /**
   * After the agent's turn: what we wrote is still there as we wrote it, and the session is one
   * valid session (the agent may be asked to read it again); a note for the report.
   */
  checkFile(session: WrittenSession, run: TargetRun): string | Promise<string>;
}

/** A session file's text: all of it must still start the file after the agent's turn. */
const fileText = (session: { path: string }) => readFileSync(session.path, "utf8");

/** pi and omp: print mode on the file (`--session <path>`), against the fake's Chat Completions. */
const piFamily: ResumeTarget = {
  prepare: ({ agent, dir, sandbox, fake }) => {
    // omp's interactive screen looks for a newer omp at start (print mode does not).
    const settings =
      agent.name === "pi"
        ? { defaultProvider: "openai", defaultModel: "gpt-5.1" }
        : { modelRoles: { default: "openai/gpt-5.1" }, startup: { checkUpdate: false } };
    configureAgent(agent, sandbox, fake.origin, dir, settings);
  },
  defaultModel: "gpt-5.1",
  // They resume with the source's model when they have its provider (the fake serves theirs).
  keepsSourceModel: (source) => source.provider !== undefined && source.provider in SERVED_MODELS,
  env: ({ sandbox }) => agentEnv(sandbox),
  prepareScreen: () => {},
  screenLookups: [],
  async resume({ agent, dir, sandbox, fake, dns }, session, prompt, env = {}) {
    const before = fake.requests.length;
    const run = await runAgent(
      continueCommand(agent, dir, session?.path, prompt),
      { cwd: sandbox.project, env: { ...agentEnv(sandbox), ...env }, timeoutMs: 120_000 },
      dns,
    );
    must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
    must(run.exitCode === 0, describeRun(run));
    const turn = conversationRequests(fake.requests.slice(before), "").find((request) => carriesVerbatim(request.messages, prompt));
    must(turn !== undefined, `sent no request carrying the prompt; ${describeRun(run)}`);
    return turn;
  },
  async start({ agent, dir, sandbox, dns }, prompt, env = {}) {
    const options = { cwd: sandbox.project, env: { ...agentEnv(sandbox), ...env }, timeoutMs: 120_000 };
    const run = await runAgent(startCommand(agent, dir, prompt), options, dns);
    must(run.outside.length === 0, `tried to reach ${run.outside.join(", ")}`);
    must(run.exitCode === 0, describeRun(run));
  },
  snapshot: fileText,
  checkFile: (session) => checkSessionFile(session.path, session.content),
};

/** Claude Code: `claude -p --resume <id>` from the project, against the fake's Anthropic Messages. */
const claudeCode: ResumeTarget = {
  prepare: ({ sandbox }) => {
    mkdirSync(claudeConfigDir(sandbox), { recursive: true });
    writeFileSync(join(claudeConfigDir(sandbox), "settings.json"), JSON.stringify({ model: "claude-opus-4-5" }));
  },
  defaultModel: "claude-opus-4-5",
  // Only a Claude Code session names a model it takes as its own.
  keepsSourceModel: (source) => source.name === "claude-code",
  env: ({ sandbox, fake }) => claudeEnv(sandbox, fake),
  // Its screen asks for a theme, trust in the folder and approval of the key on a first start.
  prepareScreen: ({ sandbox }) => {
    const state = {
      hasCompletedOnboarding: true,
      theme: "dark",
      customApiKeyResponses: { approved: [FAKE_KEY.slice(-20)], rejected: [] },
      projects: { [sandbox.project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    };
    writeFileSync(join(claudeConfigDir(sandbox), ".claude.json"), JSON.stringify(state));
  },
  screenLookups: [],
  resume: ({ agent, dir, sandbox, fake, dns }, session, prompt, env = {}) =>
    runClaude(agent, dir, sandbox, fake, dns, prompt, session ? ["--resume", session.id] : ["-c"], env),
  start: async ({ agent, dir, sandbox, fake, dns }, prompt, env = {}) =>
    void (await runClaude(agent, dir, sandbox, fake, dns, prompt, [], env)),
  snapshot: fileText,
  checkFile: (session) => checkTranscript(session.path, session.content),
};

/** Codex: `codex exec resume <id>` from the project, against the fake's Responses API. */
const codex: ResumeTarget = {
  prepare: ({ sandbox, fake }) => void prepareCodex(sandbox, fake),
  // configureCodex's `model`; Codex resumes with its configured model, whatever the file says.
  defaultModel: "gpt-5",
  keepsSourceModel: () => false,
  env: ({ sandbox }) => codexEnv(sandbox),
  // Its screen looks for a newer Codex and fetches a tip of the day at start.
  prepareScreen: ({ sandbox, fake }) =>
    void prepareCodex(sandbox, fake, ["check_for_update_on_startup = false", "tui.show_tooltips = false"]),
  // The tip of the day (openai/codex's announcement_tip.toml), fetched even with tooltips off.
  screenLookups: ["raw.githubusercontent.com"],
  async resume({ agent, dir, sandbox, fake, dns }, session, prompt) {
    const sent = await execResume(agent, dir, sandbox, codexHomeOf(sandbox), fake, session ? [session.id] : ["--last"], prompt, dns);
    if (session) must(sent.thread === session.id, `continued thread ${sent.thread}, not ${session.id}`);
    must(carriesVerbatim(sent.input, prompt), "the prompt is not in its request");
    return { model: sent.model, messages: sent.input };
  },
  start: async ({ agent, dir, sandbox, dns }, prompt) => void (await execStart(agent, dir, sandbox, codexHomeOf(sandbox), prompt, dns)),
  snapshot: fileText,
  checkFile: (session) => checkRollout(session.path, session.content),
};

/** Gemini CLI: `gemini -r <id> -p <prompt>` (`-r latest` for the newest) from the project, against the fake's Gemini API. */
const gemini: ResumeTarget = {
  prepare: ({ sandbox }) => prepareGemini(sandbox),
  // Its settings name the model; it resumes with it whatever the file says.
  defaultModel: GEMINI_MODEL,
  keepsSourceModel: () => false,
  env: ({ sandbox, fake }) => geminiEnv(sandbox, fake),
  prepareScreen: () => {},
  screenLookups: [],
  resume: ({ agent, dir, sandbox, fake, dns }, session, prompt) =>
    runGemini(agent, dir, sandbox, fake, dns, prompt, session ? session.id : "latest"),
  start: async ({ agent, dir, sandbox, fake, dns }, prompt) => void (await runGemini(agent, dir, sandbox, fake, dns, prompt, undefined)),
  snapshot: fileText,
  checkFile: (session) => checkGeminiFile(session.path, session.content),
};

export const TARGETS: Record<AgentName, ResumeTarget> = {
  pi: piFamily,
  omp: piFamily,
  "claude-code": claudeCode,
  codex,
  gemini,
  opencode: opencodeTarget,
};
