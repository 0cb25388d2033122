import type { ArgsDef } from "citty";
import { describeFormatNames, describeFormatsWhere, PROVIDER_IDS } from "../core/index.ts";
import { SESSION_ARGS } from "./handoff-source.ts";
import type { CommandHelp, HelpSection } from "./help.ts";
import { DEFAULT_MODEL, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from "./options.ts";
import { opensFilesAnywhere } from "./new-session-place.ts";

/** The flags of `agent handoff`; `--help` prints these descriptions. */
export const HANDOFF_ARGS = {
  ...SESSION_ARGS,
  pick: {
    type: "boolean",
    description:
      "Choose the session from a list of every agent's recent sessions (this folder's first, newest first; type to search by title or folder); on a terminal only",
  },
  focus: {
    type: "string",
    alias: "f",
    description: "What the next session should concentrate on (added to the instruction)",
    valueHint: "text",
  },
  model: {
    type: "string",
    alias: "m",
    description: `Model id (env AGENT_MODEL; default ${DEFAULT_MODEL}; at a local endpoint, the one model it serves, asked of it)`,
    valueHint: "model",
  },
  "base-url": { type: "string", description: "OpenAI-compatible endpoint (env OPENAI_BASE_URL; default OpenAI)", valueHint: "url" },
  provider: {
    type: "string",
    description: `Whose documented behaviour the endpoint has: auto (from the base URL; default), ${PROVIDER_IDS.join(", ")} (env AGENT_PROVIDER)`,
    valueHint: "name",
  },
  to: {
    type: "string",
    description: `The agent the new session is for: ${describeFormatNames()} (default: the source's agent; env AGENT_TO)`,
    valueHint: "agent",
  },
  out: {
    type: "string",
    alias: "o",
    description: `Where to write the new session (default: beside a ${describeFormatsWhere(opensFilesAnywhere)} source handed to its own agent, else the agent's folder for the source's cwd); never overwrites. - writes it to stdout (then the document goes to stderr, with -v only; not with --json)`,
    valueHint: "path",
  },
  leaf: { type: "string", description: "Hand off the branch ending at this entry id instead of the last entry", valueHint: "id" },
  record: {
    type: "boolean",
    default: true,
    description: "Record the instruction and the document in the source session",
    negativeDescription: "Leave the source session untouched",
  },
  json: { type: "boolean", description: "Print one JSON object on stdout instead of the document" },
  "dry-run": { type: "boolean", description: "Print the request that would be sent and its token estimate; send and write nothing" },
  strict: { type: "boolean", description: "Fail (exit 1) when the document lacks a section after one repair request" },
  timeout: {
    type: "string",
    description: `Seconds the whole run may take, and the longest silence on the stream (default ${DEFAULT_TIMEOUT_SECONDS})`,
    valueHint: "seconds",
  },
  retries: {
    type: "string",
    description: `Retries for 408, 409, 429, 5xx, timeouts and dropped connections; -v shows each (default ${DEFAULT_RETRIES})`,
    valueHint: "n",
  },
  "context-window": {
    type: "string",
    description: "The model's context window in tokens; a larger session is condensed to fit (env AGENT_CONTEXT_WINDOW; default 128000)",
    valueHint: "tokens",
  },
  "max-output-tokens": {
    type: "string",
    description:
      "Cap on the document's length in tokens, kept free in the window (default: a quarter of the window, at most 8192, not sent)",
    valueHint: "n",
  },
  "max-input-tokens": {
    type: "string",
    description:
      "Refuse a run that would send more input tokens than this, before anything is sent (exit 2); every run that sends says its plan first (env AGENT_MAX_INPUT_TOKENS; default: no limit)",
    valueHint: "tokens",
  },
  engine: {
    type: "string",
    description: `Who writes the document: llm (a model), offline (code, sends nothing), an installed agent's own CLI with your login (${describeFormatNames()}; no tools, run in an empty folder), auto (llm when a key or base URL is set, else offline; default; env AGENT_ENGINE)`,
    valueHint: "engine",
  },
  facts: {
    type: "boolean",
    default: true,
    description: "Append a Session Facts section computed by code",
    negativeDescription: "Leave out the Session Facts section",
  },
  redact: {
    type: "boolean",
    default: true,
    description: "Replace likely secrets in requests with placeholders",
    negativeDescription: "Send the session as it is, secrets included",
  },
  "system-prompt-file": { type: "string", description: "Use this file's text as the system prompt", valueHint: "path" },
  exec: {
    type: "boolean",
    description:
      "Then continue the new session in its agent, in the session's folder, in this terminal (runs the command printed as Continue with: in place of this process; its exit status is ours)",
  },
  quiet: { type: "boolean", alias: "q", description: "Print warnings and errors only" },
  verbose: { type: "boolean", alias: "v", description: "Print debugging detail on stderr (never the key)" },
} satisfies ArgsDef;

/** Printed after the flags by `agent handoff --help`: what a flag list has no place for. */
export const HANDOFF_HELP_SECTIONS: readonly HelpSection[] = [
  {
    title: "ENVIRONMENT",
    rows: [
      ["OPENAI_API_KEY", "The API key (the only way to give it; never printed or written)"],
      ["OPENAI_BASE_URL", "The endpoint, as --base-url"],
      ["AGENT_MODEL", "The model, as --model"],
      ["AGENT_PROVIDER", "The provider profile, as --provider"],
      ["AGENT_CONTEXT_WINDOW", "The context window, as --context-window"],
      ["AGENT_MAX_INPUT_TOKENS", "The most input tokens a run may send, as --max-input-tokens"],
      ["AGENT_ENGINE", "The engine, as --engine"],
      ["AGENT_TO", "The agent the new session is for, as --to"],
      [
        "AGENT_CLAUDE_CODE_BIN",
        "The claude to run for --engine claude-code (also AGENT_CODEX_BIN, AGENT_PI_BIN, AGENT_OMP_BIN); default: the one on PATH",
      ],
    ],
  },
  {
    title: "CONFIG FILE",
    text: [
      "~/.config/agent/config.toml ($XDG_CONFIG_HOME/agent/config.toml when set) keeps model, base-url, context-window, max-input-tokens, engine, to and each agent engine's executable (claude-code-bin, codex-bin, pi-bin, omp-bin). A flag wins over the environment, which wins over the file. See agent help config; agent config shows what is in effect.",
    ],
  },
  {
    title: "EXIT CODES",
    rows: [
      ["0", "The new session was written and the document printed"],
      ["1", "The model call or anything after it failed (Handoff failed: …)"],
      ["2", "Bad usage, or a file that is missing, unreadable or not a session"],
      ["3", "Fewer than 2 messages on the branch (Nothing to hand off)"],
      ["130", "Cancelled by SIGINT, SIGTERM or SIGHUP; nothing written"],
    ],
  },
  {
    title: "EXAMPLES",
    commands: [
      'agent handoff --focus "finish the migration"',
      "agent handoff --pick",
      "agent handoff --agent claude --exec",
      "agent handoff --session 01a22c83",
      "agent handoff session.jsonl --base-url http://localhost:11434/v1 -m qwen3:8b",
      "agent handoff session.jsonl --engine offline --json",
      "agent handoff session.jsonl --dry-run | less",
    ],
  },
];

export const HANDOFF_HELP: CommandHelp = {
  name: "handoff",
  summary: "Write a handoff document for a session and start a new session holding it",
  description:
    "Write a handoff document for a session (with a model, or offline when none is configured), start a new session file holding it, and print the document. " +
    "Without a path, the session is the newest one that worked in the current folder, of any agent (--agent narrows it), passing over sessions agent handoff wrote that hold nothing but the document; stderr says which file, and the command that continues the new session. " +
    "The key comes from OPENAI_API_KEY; any OpenAI-compatible endpoint works.",
  args: HANDOFF_ARGS,
  sections: HANDOFF_HELP_SECTIONS,
};
