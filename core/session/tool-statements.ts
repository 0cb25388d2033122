/**
 * What an agent says, in its own words at the start of a tool result, about a call that did not
 * run to its end: one table per agent, filled from the strings of the version we test against,
 * so a new wording is a new row. Three meanings:
 * - `refused`: the call never ran (a permission, the user, a policy, a sandbox said no). No command
 *   ran, no file changed.
 * - `cut short`: the call was interrupted or abandoned (the user pressed Esc, the turn ended). No
 *   exit code (never a guessed 0), no file changed.
 * - `failed`: the tool could not do it (a spawn error, a patch that did not apply), with the code
 *   the agent states where it states one. No file changed.
 *
 * Only the start of the output counts: there the agent speaks; further on, the command does.
 */

export type StatementMeaning = "refused" | "cut short" | "failed";

interface Row {
  meaning: StatementMeaning;
  /** Matched at the start of the result's text (see `readStatement`). */
  pattern: RegExp;
  /** The exit code the statement names, in the pattern's first group. */
  statesCode?: true;
  /** The literal text the tested version's binary holds for it (compat/checks/statements.ts looks for each). */
  words: readonly string[];
}

/**
 * Codex 0.169.0 (strings of codex-linux-x64's binary, 0.169.0). Codex marks none of them as an
 * error, so they are read on any result of a Codex tool, and only of a Codex tool.
 */
const CODEX: readonly Row[] = [
  // The user declined the approval prompt.
  {
    meaning: "refused",
    pattern: /^(?:exec command|patch) rejected by user/,
    words: ["exec command rejected by user", "patch rejected by user"],
  },
  // apply_patch refused by its safety check: "patch rejected: {reason}".
  { meaning: "refused", pattern: /^patch rejected: /, words: ["patch rejected: "] },
  // A poll refused: "write_stdin rejected: {reason}".
  { meaning: "refused", pattern: /^write_stdin rejected: /, words: ["write_stdin rejected: "] },
  // The guardian auto-reviewer: "This action was rejected due to unacceptable risk.\nReason: {reason}\n".
  {
    meaning: "refused",
    pattern: /^This action was rejected due to unacceptable risk\./,
    words: ["This action was rejected due to unacceptable risk.\nReason: "],
  },
  // The exec policy: "`{command}` rejected: policy forbids commands starting with `{prefix}`", "`{command}` rejected: blocked by policy".
  {
    meaning: "refused",
    pattern: /^`[\s\S]*?` rejected: (?:policy forbids commands starting with `|blocked by policy)/,
    words: ["` rejected: policy forbids commands starting with `", "` rejected: blocked by policy"],
  },
  // The sandbox refused to start it: "Command denied by sandbox: {reason}".
  { meaning: "refused", pattern: /^Command denied by sandbox: /, words: ["Command denied by sandbox: "] },
  // The auto-reviewer gave up: "Automatic approval review rejected too many approval requests for this turn (…); interrupting the turn."
  {
    meaning: "refused",
    pattern: /^Automatic approval review rejected too many approval requests/,
    words: ["Automatic approval review rejected too many approval requests for this turn ("],
  },
  // The user interrupted the turn before the call returned (core/src/tools/parallel.rs): exactly
  // "aborted by user after {secs:.1}s", or for shell_command and unified exec
  // "Wall time: {secs:.1} seconds\naborted by user"; "aborted before dispatch" when it never started.
  {
    meaning: "cut short",
    pattern: /^(?:aborted by user after -?[\d.]+s|Wall time: -?[\d.]+ seconds\naborted by user|aborted before dispatch)\s*$/,
    words: ["aborted by user after ", " seconds\naborted by user", "aborted before dispatch"],
  },
  // A sandboxed run the sandbox stopped, with the code it ended with:
  // "sandbox denied exec error, exit code: {code}, stdout: {…}, stderr: {…}", alone or after "execution error: ".
  {
    meaning: "failed",
    pattern: /^(?:execution error: )?sandbox denied exec error, exit code: (-?\d+)/,
    statesCode: true,
    words: ["sandbox denied exec error, exit code: "],
  },
  // Codex could not run it: "execution error: {error}" (a spawn error, the sandbox's).
  { meaning: "failed", pattern: /^execution error: /, words: ["execution error: "] },
  // A patch that did not apply, arguments it could not read, a call it could not make, a tool it does not have.
  {
    meaning: "failed",
    pattern: /^(?:apply_patch verification failed|failed to parse \w+ arguments|(?:exec_command|write_stdin) failed:|unsupported call)/,
    words: [
      "apply_patch verification failed: ",
      "failed to parse function arguments: ",
      "exec_command failed: ",
      "write_stdin failed: ",
      "unsupported call: ",
    ],
  },
];

/**
 * Claude Code 2.1.328 (strings of its linux-x64 binary, 2.1.328). Claude Code writes them as
 * error results (`is_error`), so only an error result is read: a successful `cat` of a log
 * holding the same words printed them.
 */
const CLAUDE_CODE: readonly Row[] = [
  // Refused before running: invalid input, an unknown tool, a permission rule (`<tool_use_error>…`).
  { meaning: "refused", pattern: /^<tool_use_error>/, words: ["<tool_use_error>"] },
  // A permission rule or mode: "Permission to use Bash with command … has been denied.", "Permission to read … has been denied.".
  { meaning: "refused", pattern: /^Permission to \w+ [\s\S]*? has been denied/, words: ["Permission to read ", " has been denied."] },
  // "Permission for this action was denied by the Claude Code auto mode classifier. Reason: …",
  // "Permission for this action has been denied. Reason: …", "Permission for this tool use was
  // denied…" (no approval surface, interactive approval needed, the user said no), "Permission for
  // this command was denied by a built-in Claude Code safety check…".
  {
    meaning: "refused",
    pattern: /^Permission for this (?:action|tool use|command) (?:was|has been) denied/,
    words: [
      "Permission for this action was denied by the Claude Code auto mode classifier. Reason: ",
      "Permission for this action has been denied. Reason: ",
      "Permission for this tool use was denied. It requires approval, and this session has no approval surface",
      "Permission for this tool use was denied: it requires interactive approval",
      "Permission for this tool use was denied. The tool use was rejected",
      "Permission for this command was denied by a built-in Claude Code safety check",
    ],
  },
  // The user's "no": "The user doesn't want to proceed with this tool use…", "The user doesn't want to take this action right now…".
  {
    meaning: "refused",
    pattern: /^The user doesn't want to (?:proceed with this tool use|take this action)/,
    words: ["The user doesn't want to proceed with this tool use.", "The user doesn't want to take this action right now."],
  },
  // Calls that never started: "[Tool call not run: …]", "[Tool call skipped: …]", "[Tool call not
  // completed: … the action awaiting approval did not run]", "[Tool call not made: …]".
  {
    meaning: "refused",
    pattern: /^\[Tool call (?:not run|skipped|not completed|not made): /,
    words: ["[Tool call not run: ", "[Tool call skipped: ", "[Tool call not completed: ", "[Tool call not made: "],
  },
  // The user pressed Esc while it ran: "[Request interrupted by user for tool use]", "[Request
  // interrupted by user]"; or the session stopped: "[Request interrupted: …]"; Claude Code puts
  // the first after "Exit code N" when the interrupted command's code is known.
  {
    meaning: "cut short",
    pattern: /^(?:Exit code -?\d+\n)?\[Request interrupted(?: by user(?: for tool use)?\]|: )/,
    words: ["[Request interrupted by user for tool use]", "[Request interrupted by user]", "[Request interrupted: "],
  },
  // "[Tool call did not complete: …]", "[Tool call interrupted: … its outcome is unknown …]",
  // "[Tool call result not in this copy: …]", "[Agent call interrupted: …]".
  {
    meaning: "cut short",
    pattern: /^\[(?:Tool call did not complete|Tool call interrupted|Tool call result not in this copy|Agent call interrupted): /,
    words: [
      "[Tool call did not complete: ",
      "[Tool call interrupted: ",
      "[Tool call result not in this copy: ",
      "[Agent call interrupted: ",
    ],
  },
];

/**
 * How an agent frames its tools' results, beyond the statements: whether it marks them as errors
 * (then only an error result is read), and whether every shell call that ran states its code in
 * the agent's own framing (then a result without one states none).
 */
export interface ResultFraming {
  statements: readonly Row[];
  /** Every character a statement of `statements` can start with (a test reads them off the patterns): most results start with none. */
  statementStarts: string;
  onlyOnError: boolean;
  shellStatesEveryCode: boolean;
  /** The command's own output inside the agent's framing of a shell result (Gemini's `Output: …` and its lines after it). */
  shellBody?: (text: string) => string | undefined;
}

/** Codex's tools (core/session/tools.ts names them): its header or its JSON envelope frames every shell result that ran. */
export const CODEX_FRAMING: ResultFraming = {
  statements: CODEX,
  statementStarts: "epwT`CAaWsfu",
  onlyOnError: false,
  shellStatesEveryCode: true,
};

/** Every other tool: Claude Code's words, on an error result only (pi and omp write none of them). */
export const CLAUDE_CODE_FRAMING: ResultFraming = {
  statements: CLAUDE_CODE,
  statementStarts: "<PT[E",
  onlyOnError: true,
  shellStatesEveryCode: false,
};

/** Every row's words, per agent, with the version they come from: what that version's binary must hold. */
export const STATEMENT_WORDS = {
  codex: { version: "0.169.0", words: CODEX.flatMap((row) => row.words) },
  "claude-code": { version: "2.1.328", words: CLAUDE_CODE.flatMap((row) => row.words) },
} as const;

export interface Statement {
  meaning: StatementMeaning;
  /** The exit code the statement names, when it names one. */
  exitCode: number | undefined;
}

/** The statement a result opens with, read in the table of the agent whose tool answered. */
export function readStatement(text: string, isError: boolean, framing: ResultFraming): Statement | undefined {
  if (framing.onlyOnError && !isError) return undefined;
  // The statements are short; a command echoed inside one (`…` rejected) is bounded too.
  const start = text.slice(0, 4_000).trimStart();
  if (!framing.statementStarts.includes(start.charAt(0)) || start === "") return undefined;
  for (const row of framing.statements) {
    const match = row.pattern.exec(start);
    if (match) return { meaning: row.meaning, exitCode: row.statesCode && match[1] !== undefined ? Number(match[1]) : undefined };
  }
  return undefined;
}
