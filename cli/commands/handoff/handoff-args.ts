import {
  describeEngineNames,
  describeFormatNames,
  describeFormatNamesInCode,
  describeFormatsWhere,
  isEngineName,
  PROVIDER_IDS,
} from "../../../core/index.ts";
import { SESSION_ARGS } from "../../flags/handoff-source.ts";
import type { CommandHelp, HelpSection } from "../help.ts";
import type { FlagsDef } from "../../flags/flags-def.ts";
import { DEFAULT_MODEL, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECONDS } from "../../flags/options.ts";
import { opensFilesAnywhere } from "../../sessions/new-session-place.ts";

/** The flags of `agent handoff`; `--help` prints these descriptions. */
export const HANDOFF_ARGS = {
  ...SESSION_ARGS,
  pick: {
    type: "boolean",
    description:
      "Choose the session from a list of every agent's recent sessions (this folder's first, newest first; type to search by title or folder); on a terminal only",
    details:
      "choose the session from a list, as `claude --resume` and `codex resume` offer theirs: the recent sessions of every agent (`--agent` narrows it), the current folder's first, each part newest first (sessions `agent handoff` wrote that nothing happened in yet are left out, as the no-path choice passes over them), one line each (title, agent, age, folder: the title is cut first, so the folder shows whole at 80 columns); typing narrows it to the sessions whose title, folder or id hold every word typed; Enter hands off the one chosen, Esc or Ctrl-C ends the run with `Handoff cancelled`, exit 130, nothing written. On a terminal only (stdin and stderr; stdout may be a pipe or a file): elsewhere, or with a path or `--session`, a usage error (exit 2). The list is drawn by [@clack/prompts](https://github.com/bombshell-dev/clack)",
  },
  focus: {
    type: "string",
    alias: "f",
    description: "What the next session should concentrate on (added to the instruction)",
    valueHint: "text",
    details: "what the next session should concentrate on; appended to the instruction as `Additional focus: <text>`",
  },
  model: {
    type: "string",
    alias: "m",
    description: `Model id (env AGENT_MODEL; default ${DEFAULT_MODEL}; at a local endpoint, the one model it serves, asked of it)`,
    valueHint: "model",
    details:
      "model id; env `AGENT_MODEL`; config `model`; default `gpt-4.1-mini`, except at a local endpoint (Ollama, vLLM, llama.cpp, LM Studio, any loopback or private host): there the endpoint is asked for its models and its only one is used (see [No model named at a local endpoint](engines.md#no-model-named-at-a-local-endpoint))",
  },
  "base-url": {
    type: "string",
    description: "OpenAI-compatible endpoint (env OPENAI_BASE_URL; default OpenAI)",
    valueHint: "url",
    details: "any OpenAI-compatible endpoint; env `OPENAI_BASE_URL`; config `base-url`; default OpenAI",
  },
  provider: {
    type: "string",
    description: `Whose documented behaviour the endpoint has: auto (from the base URL; default), ${PROVIDER_IDS.join(", ")} (env AGENT_PROVIDER)`,
    valueHint: "name",
    details:
      "whose documented behaviour to expect (see [Providers](engines.md#providers)): `openai`, `openrouter`, `anthropic`, `google`, `deepseek`, `groq`, `mistral`, `ollama`, `vllm`, `llamacpp`, `lmstudio`, `generic`, in any case; env `AGENT_PROVIDER`; default `auto`, from the base URL",
  },
  to: {
    type: "string",
    description: `The agent the new session is for: ${describeFormatNames()} (default: the source's agent; env AGENT_TO)`,
    valueHint: "agent",
    details: `the agent the new session is for: ${describeFormatNamesInCode()}, in any case; env \`AGENT_TO\`; config \`to\`; default the source's agent. The same spelling is used everywhere (\`inspect\`'s \`format\`, \`--json\`)`,
  },
  out: {
    type: "string",
    alias: "o",
    description: `Where to write the new session (default: beside a ${describeFormatsWhere(opensFilesAnywhere)} source handed to its own agent, else the agent's folder for the source's cwd); never overwrites. - writes it to stdout (then the document goes to stderr, with -v only; not with --json)`,
    valueHint: "path",
    details:
      "where to write the new session; default beside the source for pi or omp handed to itself, else the `--to` agent's folder (see [Where the new session goes](handoff.md#where-the-new-session-goes)), named as that agent names its files. Never overwrites, refuses symlinks, missing folders and names over 255 bytes; a folder is refused as one (`-o` names the file: `-o out/handoff.jsonl`, not `-o out/`). `-o -` writes the new session to stdout instead (see [Streams](handoff.md#streams)); `-o ./-` is a file named `-`",
  },
  leaf: {
    type: "string",
    description: "Hand off the branch ending at this entry id instead of the last entry",
    valueHint: "id",
    details:
      "hand off the branch that ends at this entry instead of the last entry (in a Claude Code session, a line's `uuid`; any line of an answer Claude Code saved a block per line names that answer)",
  },
  record: {
    type: "boolean",
    default: true,
    description: "Record the instruction and the document in the source session",
    negativeDescription: "Leave the source session untouched",
    details:
      "leave the source session untouched (by default the instruction and the document are appended to a pi or omp source, in one write; a version 1 or 2 source is first upgraded to version 3 in place, atomically, every entry kept). A Claude Code or Codex source is never written to: one line says so, `<file>: not recorded in the source: a Claude Code session is never written to; it was left untouched`, and `recorded` is `false`",
  },
  json: {
    type: "boolean",
    description: "Print one JSON object on stdout instead of the document",
    details:
      "print one JSON object instead of the document: `document`, `sessionFile`, `sourceFile`, `sessionId` (the id the agent resumes it by), `sourceFormat` and `sessionFormat` (the agents, as `--to` spells them), `engine`, `model`, `usage` (`inputTokens`, `outputTokens`, and `reasoningTokens` when the provider counts them; `null` when the engine did not say for every request, or said something that is not a count: a non-negative integer up to 10 billion), `missingSections`, `recorded`, `condensed` (null, or what was condensed), `redacted` (secrets replaced), `resume` (`{argv, cwd}`: the command that continues the new session and the folder to run it in; null when none can)",
  },
  "dry-run": {
    type: "boolean",
    description: "Print the request that would be sent and its token estimate; send and write nothing",
    details:
      'print the exact request body that would be sent (redacted as it would be; an array of requests when the session is condensed), and the plan and token estimate on stderr (the `plan: …` line a real run prints first, with the same numbers, among them); with the offline engine, the document. Send nothing, write nothing, contact nothing: a model a local endpoint would be asked for shows as `"model": "<asked of the endpoint when run>"`, with a line on stderr saying so. With `--json`: one object, `{dryRun, engine, requests, plan, estimatedTokens, redacted, condensed}` or `{dryRun, engine, document}`. With an agent engine: the exact prompt each run of the agent would get on stdin (stdout; `# run i of n` before each when condensed) and the command line that would start it (stderr), nothing run; with `--json`, `{dryRun, engine, runs: [{command, env, files, prompt}], plan, estimatedTokens, redacted, condensed}`; `files` are what the run writes into its empty folder first (Codex\'s instructions file: our system prompt; omp\'s empty `.git`), shown on stdout as `# file <path>` \u2026 `# stdin` before the prompt',
  },
  strict: {
    type: "boolean",
    description: "Fail (exit 1) when the document lacks a section after one repair request",
    details:
      "a document missing any of the six sections gets one repair request; still missing \u2192 exit 1, nothing written. Without it, a warning names the missing sections",
  },
  timeout: {
    type: "string",
    description: `Seconds the whole run may take, and the longest silence on the stream (default ${DEFAULT_TIMEOUT_SECONDS})`,
    valueHint: "seconds",
    details:
      "bounds the whole run (default 300); an attempt silent for its share of it (the timeout divided by `--retries` + 1, but at least a minute, or half the timeout when that is shorter) is given up and tried again",
  },
  retries: {
    type: "string",
    description: `Retries for 408, 409, 429, 5xx, timeouts and dropped connections; -v shows each (default ${DEFAULT_RETRIES})`,
    valueHint: "n",
    details:
      "retries for 408, 409, 429, 5xx (also as the code of an error sent inside a 200 answer), an attempt that falls silent, and dropped connections (a connection broken mid-answer, a stream that stops before the model finished, an answer broken off by an error event), with backoff (honouring `retry-after`; default 2); `-v` prints each retry and its cause, and a final failure says how many attempts were made",
  },
  "context-window": {
    type: "string",
    description: "The model's context window in tokens; a larger session is condensed to fit (env AGENT_CONTEXT_WINDOW; default 128000)",
    valueHint: "tokens",
    details:
      "the model's context window; env `AGENT_CONTEXT_WINDOW`; config `context-window`; default 128000 (with an agent engine: 200000 for Claude Code and Codex, 128000 for pi and omp). A session larger than fits is condensed, see [Sessions larger than the window](handoff.md#sessions-larger-than-the-window)",
  },
  "max-output-tokens": {
    type: "string",
    description:
      "Cap on the document's length in tokens, kept free in the window (default: a quarter of the window, at most 8192, not sent)",
    valueHint: "n",
    details:
      "cap on the document's length, sent in the field the provider takes (`max_tokens`, or `max_completion_tokens` for OpenAI and Groq) and kept free in the window; a reasoning model gets room to think on top of it (see [Providers](engines.md#providers)) (default: nothing sent, a quarter of the window, at most 8192, kept free). It also bounds what we read: an answer (its reasoning included) longer than 16 characters for each token of the limit sent, plus 4,096, or than 4,000,000 characters (the bound when no limit is sent) is a model running on: the stream is closed there and the handoff fails (exit 1, nothing written, the source untouched); so is one line of the stream longer than 6 bytes for each of those characters plus 64 KiB (a single event that never ends is not held whole)",
  },
  "max-input-tokens": {
    type: "string",
    description:
      "Refuse a run that would send more input tokens than this, before anything is sent (exit 2); every run that sends says its plan first (env AGENT_MAX_INPUT_TOKENS; default: no limit)",
    valueHint: "tokens",
    details:
      "the most input tokens the run may send; env `AGENT_MAX_INPUT_TOKENS`; config `max-input-tokens`; default no limit. Before a model or an agent engine is sent anything, one line on stderr gives the plan: `plan: 20 requests to gpt-4.1-mini, ~1,900,000 input tokens` (an agent engine: `plan: 3 runs of claude-code, ~\u2026 input tokens`, counted as the prompt, arguments and files each run is given, to which the agent adds its own instructions; not with `-q`; the offline engine sends nothing and says nothing). A plan over the limit is refused before anything is sent, the endpoint not even asked for its model: exit 2, one line, `the handoff would send ~1,900,000 input tokens (20 requests to gpt-4.1-mini), more than --max-input-tokens 500000 allows; nothing was sent`. Every request sent counts, each attempt of it: a request no plan foresaw (a retry after a failure, a request sent again without a refused parameter, a `--strict` repair, a smaller plan after the endpoint refused a request as too large) is not sent when it would take the run past the limit: the run fails, exit 1. `--dry-run` prints the requests as always, then refuses a plan over the limit with the same line and exit 2, so a script gets the answer the real run would give",
  },
  engine: {
    type: "string",
    description: `Who writes the document: llm (a model), offline (code, sends nothing), an installed agent's own CLI with your login (${describeEngineNames()}; no tools, run in an empty folder), auto (llm when a key or base URL is set, else offline; default; env AGENT_ENGINE)`,
    valueHint: "engine",
    details: `who writes the document: \`auto\`, \`llm\`, \`offline\`, ${describeFormatNamesInCode((format) => isEngineName(format.name))}, in any case; env \`AGENT_ENGINE\`; config \`engine\`. \`llm\`: the model. \`offline\`: code, from the branch alone; sends nothing, same input \u2192 same bytes. An agent's name: that installed agent's own CLI, with your login and model (see [An installed agent as the engine](engines.md#an-installed-agent-as-the-engine)). \`auto\` (default): \`llm\` when \`OPENAI_API_KEY\` or a base URL is set, else \`offline\`, with one short line on stderr saying so (\`no model configured: the offline engine writes the handoff (see agent config)\`, once per run; \`-q\` hides it; when an agent's CLI is on \`PATH\` the line adds \`; Claude Code is installed: --engine claude-code has it write the handoff\`). \`auto\` never starts an agent`,
  },
  "last-exchanges": {
    type: "boolean",
    description:
      "Append the branch's last exchanges verbatim, newest last, after Session Facts (default: on for the offline engine, off for the others; env AGENT_LAST_EXCHANGES)",
    negativeDescription: "Leave out the Last Exchanges section",
    details:
      "append `## Last Exchanges`: the end of the branch as it was recorded, newest last, within 1,500 words (what the user and the assistant wrote quoted whole up to a cap, tool output cut in the middle, the API key withheld as everywhere); Session Facts then point at it instead of repeating the last request. Env `AGENT_LAST_EXCHANGES` (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`); config `last-exchanges = true`; default on for `--engine offline` (and `auto` when it picks offline), off for a model and an installed agent. `--no-last-exchanges` leaves it out",
  },
  facts: {
    type: "boolean",
    default: true,
    description: "Append a Session Facts section computed by code",
    negativeDescription: "Leave out the Session Facts section",
    details: "leave out the `## Session Facts` section (see [The document](handoff.md#the-document))",
  },
  redact: {
    type: "boolean",
    default: true,
    description: "Replace likely secrets in requests with placeholders",
    negativeDescription: "Send the session as it is, secrets included",
    details: "send the session as it is, secrets included (see [secrets.md](secrets.md)); the API key is still withheld",
  },
  "system-prompt-file": {
    type: "string",
    description: "Use this file's text as the system prompt",
    valueHint: "path",
    details:
      "use this file's text as the system prompt; only a regular UTF-8 text file of at most 1 MiB is read (a pipe, a device, a folder, a larger file, or one that looks like binary data, with NUL or other control bytes besides tab, line breaks and form feed, is refused before it is read: exit 2, one line naming it and, when too large, its size)",
  },
  exec: {
    type: "boolean",
    description:
      "Then continue the new session in its agent, in the session's folder, in this terminal (runs the command printed as Continue with: in place of this process; its exit status is ours)",
    details:
      "once everything is written, continue the new session in its agent: the printed command runs in place of `agent` (the same process, `execve`; on Windows as a child whose exit status is ours), in the session's folder; when that folder is gone, in the current one (a warning says so), with the command computed for it: Claude Code, which finds a session by id only from its project folder, is then given the file, `claude --resume <file>`. Checked before anything is asked or written: a usage error (exit 2) with `-o -`, `--dry-run`, when the agent's command is not on the `PATH`, when the agent cannot open a file where `-o` puts it (Codex), or when stdin or stdout is not a terminal (the agent's screen would write into a pipe); exit 1, one line naming it, when the program found there is one the system cannot run (on Linux: neither a binary nor a `#!` script, or not executable). Should the exec still fail, one line says so and gives the command, exit 1",
  },
  quiet: { type: "boolean", alias: "q", description: "Print warnings and errors only", details: "fewer / more messages on stderr" },
  verbose: {
    type: "boolean",
    alias: "v",
    description: "Print debugging detail on stderr (never the key)",
    details: "fewer / more messages on stderr",
  },
} satisfies FlagsDef;

/** Printed after the flags by `agent handoff --help`: what a flag list has no place for. */
export const HANDOFF_HELP_SECTIONS: readonly HelpSection[] = [
  {
    title: "ENVIRONMENT",
    rows: [
      ["OPENAI_API_KEY", "The API key (the only way to give it; never printed or written)"],
      ["OPENAI_BASE_URL", "The endpoint, as --base-url"],
      ["OPENAI_ORG_ID", "The OpenAI organization, sent as the OpenAI-Organization header"],
      ["OPENAI_PROJECT_ID", "The OpenAI project, sent as the OpenAI-Project header"],
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
