import type { HookTrust } from "./hook-trust.ts";
import type { AgentHome, AgentName, PathSegments } from "../../session/formats/types.ts";
import type { ContextUsageReader } from "../../session/context-usage.ts";
import type { EngineName } from "../table.ts";
import type { IntegrateOptions, StopArgs } from "./offer.ts";

/**
 * `/handoff` inside an agent: what `agent integrate <agent>` installs into the agent's home and
 * how `agent hook <agent>` reads the agent's call and answers it. One entry per agent, keyed by its
 * name (`table.ts`); everything here is pure (cli reads and writes the files, runs the handoff).
 */

/** How the agent's hook reaches the `agent` that ran `integrate`. */
export interface HookCommand {
  /** The program and its first arguments, absolute paths: `[agent]`, or `[bun, /…/cli/index.ts]` for a script. */
  argv: readonly string[];
  /**
   * The POSIX shell line for agents that run a hook through a shell (Claude Code, Codex), every
   * word quoted, that ends with `hook <agent>`. When the program is gone it prints the agent's
   * own answer for a failure instead (fail soft: the user's agent keeps working).
   */
  shell: string;
  /**
   * The hooked agent's own executable, absolute, as `integrate` found it (its `<agent>-bin`
   * setting, else PATH): the hook's engine runs it when the agent's own PATH lacks it (a hook runs
   * with the agent's environment). Undefined when it was not found.
   */
  agentBin?: string | undefined;
  /**
   * The shell line for another entry of ours (the offer's `Stop`, the `PreCompact`): it runs
   * `hook <agent> <args…>`, and when the program is gone prints `gone(why)` (the agent's own
   * answer for that event; empty: nothing) instead.
   */
  shellWith(args: readonly string[], gone: (text: string) => string): string;
}

/** A settings file of the agent's, changed at the text level: every other key, its order and comments kept. */
export interface TextMerge {
  /**
   * The text with our entries added or brought up to date (`before` is undefined when there is no
   * file). Idempotent: `add(add(x)) === add(x)`. Throws an `IntegrationProblem` when the text
   * cannot be read as its format.
   */
  add(before: string | undefined): string;
  /**
   * The text with our entries taken out (undefined: no file). Where our `add` also made the
   * containers (or the file) they are in, the text before it is found again: the most collapsed
   * text `add` turns into `current` that `wasBefore` accepts (cli knows the file's hash from
   * before `integrate`). None: only our entries go.
   */
  remove(current: string, wasBefore: (text: string | undefined) => boolean): string | undefined;
  /** Whether `current` holds our entries, exactly as `add` writes them now (`current`), or older ones (`outdated`). */
  state(current: string | undefined): IntegrationState;
}

/** A file `integrate` installs: one that is ours whole (written, removed on uninstall), or the agent's own settings, merged. */
export type IntegrationFile = { kind: "own"; path: PathSegments; text: string } | { kind: "merge"; path: PathSegments; merge: TextMerge };

/** `unreadable`: the file is there but cannot be read or parsed, so whether our entry is in it is not known. */
export type IntegrationState = "current" | "outdated" | "absent" | "unreadable";

/** What an agent's call of `agent hook <agent>` gave: its JSON on stdin (Claude Code, Codex) or argv items (pi, omp). */
export interface HookInput {
  /** Standard input, whole; undefined when there was none (a terminal, or closed). */
  stdin: string | undefined;
  /** The arguments after `agent hook <agent>`. */
  argv: readonly string[];
  home: AgentHome;
}

/** What a call asks for. `args` is the text after the command (`[--to <agent>] [focus …]`): data, never shell text. */
export type HookRequest =
  | { kind: "ignore" }
  | { kind: "problem"; message: string }
  | {
      kind: "handoff";
      sessionPath: string;
      sessionId: string;
      cwd: string | undefined;
      args: string;
      /** The agent's own executable as integrate recorded it (`HookCommand.agentBin`), when the call carries it. */
      agentBin?: string | undefined;
      /** The prompt as the agent may already have recorded it at hook time (Codex does): the handoff ends before it. */
      prompt?: string;
    };

/** How a handoff asked from inside the agent ended, for the agent's answer. */
export type HookReply =
  | {
      kind: "handed-off";
      /** One or two lines for the user: where the new session is and what to type. */
      text: string;
      sessionFile: string;
      sessionId: string;
      /** The agent the new session is for. */
      sessionFormat: AgentName;
      /** One line more, in `text` too: the offline engine wrote the document, as the session was too long for the hook's time. */
      note?: string;
    }
  | { kind: "failed"; text: string };

/** A call of the hook at the end of a turn (the offer) or before a compaction: the session it is about. */
export type StopRequest =
  | { kind: "ignore" }
  | { kind: "problem"; message: string }
  | {
      kind: "stop";
      sessionPath: string;
      sessionId: string;
      cwd: string | undefined;
      /** The model's window as the running agent knows it (pi, omp), when it says. */
      window?: number | undefined;
    };

/**
 * The hooks at the end of a turn (the offer before the context rots) and, for Claude Code, before
 * an automatic compaction. Absent: the agent has no such hook.
 */
export interface StopSupport {
  /** Reads the newest usage from the agent's session (core, beside the format's reader). */
  usage: ContextUsageReader;
  /** What the user types to hand off, as the offer names it: `/handoff`, `$handoff`, `/agent-handoff`. */
  command: string;
  /** Reads one end-of-turn call. */
  readStop(input: HookInput, args: StopArgs): StopRequest;
  /** What the hook prints to show `lines` at the end of a turn (none: nothing at all). */
  notice(lines: readonly string[]): HookAnswer;
  /** The hook before a compaction (`--before-compact`), or why the agent cannot have it (one line, for `integrate`'s refusal). */
  beforeCompact: BeforeCompactSupport | string;
}

/** What the hook before a compaction needs of an agent (before-compact.ts holds the rule). */
export interface BeforeCompactSupport {
  /** Reads one call (only an automatic compaction is handed off). */
  read(input: HookInput): StopRequest;
  /** Whether one line of the session records a compaction (Claude Code: its `compact_boundary`). */
  isCompaction(line: string): boolean;
}

/** What `agent hook` prints and how it exits. */
export interface HookAnswer {
  stdout: string;
  exitCode: number;
}

export interface AgentIntegration {
  /** An agent with an engine: `/handoff` inside it has that agent write the document by default (`hook-engine`). */
  name: EngineName;
  /** The product's name, for messages: `Claude Code`. */
  label: string;
  /** The folder whose presence says the agent is used here (`integrate --all`), besides its command on PATH. */
  home(home: AgentHome): PathSegments;
  /** The longest the agent lets a hook run, in seconds; the hook's handoff must end before it. */
  hookTimeoutSeconds: number;
  /** Every file `integrate` writes or merges, made from the command the hook runs and what else is asked for. */
  files(home: AgentHome, command: HookCommand, options: IntegrateOptions): IntegrationFile[];
  /** The offer and the hook before compaction, where the agent has them. */
  stop?: StopSupport;
  /** What an earlier `integrate` installed besides `/handoff` (the offer's percent, …), read from the files `read` gives. */
  installedOptions(read: (path: PathSegments) => string | undefined, home: AgentHome): IntegrateOptions;
  /** Lines `integrate` says after installing, whatever changed (the trust lines are `trust.notes`). */
  notes: readonly string[];
  /** For an agent that asks the user to trust each hook (Codex): where it keeps the trust, and what `integrate` says of it. */
  trust?: HookTrustSupport;
  /** How the user asks for a handoff inside the agent, for messages: `/handoff [--to <agent>] [focus …]`. */
  usage: string;
  /**
   * For an agent whose hook sees every prompt (Codex): a `grep -E` extended regular expression
   * over the hook's stdin (the JSON, as the agent writes it) that matches a handoff prompt: the
   * hook's shell line passes every other prompt at once, without starting `agent`. It may match
   * more than handoffs (`readHook` decides), never fewer. Absent: the agent calls the hook for handoffs only.
   */
  handoffPromptPattern?: string;
  /** Reads one call of the hook. */
  readHook(input: HookInput): HookRequest;
  /** What the hook prints for a reply (block JSON, or what the extension reads). */
  answer(reply: HookReply): HookAnswer;
}

/**
 * How `integrate` tells whether the agent will ask to trust our hooks at its next start: it reads
 * the hooks file and the file the agent keeps the trust in (hook-trust.ts holds the rule for Codex).
 */
export interface HookTrustSupport {
  /** The hooks file whose hooks the agent trusts one by one. */
  hooksFile(home: AgentHome): PathSegments;
  /** The TOML file that holds `[hooks.state."<key>"] trusted_hash`. */
  configFile(home: AgentHome): PathSegments;
  /** One line per hook of ours (by event), saying whether the agent asks to trust it. */
  notes(found: readonly { event: string; trust: HookTrust }[]): string[];
}

/** A settings file that cannot be merged (not JSON, not an object where one is needed): the message names the line. */
export class IntegrationProblem extends Error {
  constructor(
    readonly problem: string,
    readonly line?: number,
  ) {
    super(problem);
    this.name = "IntegrationProblem";
  }
}
