/**
 * What a tool result's own framing states (exit code, still running, never ran, failed): only the agent's
 * words count, never text inside the output. The statements, agent by agent: docs/design/tool-output-statements.md.
 */
import { isObject } from "../json.ts";
import { CLAUDE_CODE_FRAMING, readStatement, type ResultFraming } from "./tool-statements.ts";

export interface ToolResultReading {
  /** The exit code the agent stated, else 0 for a plain success; `null` when there is none (still running, cancelled, a bare error). */
  exitCode: number | null;
  /** `exitCode` is the agent's own statement, not the 0 a plain success implies. */
  stated: boolean;
  /** Codex unified exec: the session still running the command, whose later `write_stdin` poll states its code. */
  runningSession: string | undefined;
  /** The call never ran: refused by a permission rule or the user, or its input rejected before running. */
  refused: boolean;
  /** The call was interrupted or abandoned before it returned: no code, and it changed no file. */
  cutShort: boolean;
  /** The agent said the tool could not do it (a spawn error, a patch that did not apply): a failed run, code or not. */
  couldNotRun: boolean;
  /** The tool reported failure: an error result, a non-zero code, a failure statement. Such a call changed no file. */
  failed: boolean;
  /** What the command printed: the output without Codex's header or JSON envelope around it. */
  body: string;
}

/** Older Codex versions answer with JSON, `{"output":"…","metadata":{"exit_code":N,…}}`: its text, and its code when it has one. */
function jsonEnvelope(output: string): { text: string; exitCode: number | undefined } | undefined {
  if (!output.startsWith('{"output":')) return undefined;
  try {
    const value: unknown = JSON.parse(output);
    if (!isObject(value) || typeof value.output !== "string") return undefined;
    const metadata = isObject(value.metadata) ? value.metadata : undefined;
    return { text: value.output, exitCode: metadata && typeof metadata.exit_code === "number" ? metadata.exit_code : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Codex prefixes an output it shortened: "Warning: truncated output (original token count: N)"
 * and/or "Total output lines: N" and a blank line (codex-rs output-truncation, 0.169).
 */
const TRUNCATION_PREAMBLE = /^(?:Warning: truncated output \(original token count: \d+\)\n)?(?:Total output lines: \d+\n\n)?/;

/**
 * The header lines Codex writes before `Output:`, in its two shapes: unified exec (`Chunk ID`,
 * `Wall time`, `Process exited with code N` once finished, `Process running with session ID N`
 * while not, `Original token count`) and the older shell tool (`Exit code: N`, `Wall time`,
 * `Total output lines`).
 */
const HEADER_LINE =
  /^(?:Chunk ID: \S+|Wall time: -?[\d.]+ seconds|Process exited with code (-?\d+)|Process running with session ID (-?\d+)|Original token count: \d+|Exit code: (-?\d+)|Total output lines: \d+)$/;

/** How a Codex header starts: its first line, or the truncation preamble before it. */
const HEADER_START = /^(?:Chunk ID|Wall time|Exit code: |Process |Warning: truncated|Total output)/;
/** The letters those start with. */
const HEADER_FIRST_LETTERS = "CWEPT";

interface CodexHeader {
  exitCode: number | null;
  runningSession: string | undefined;
  /** Where the command's own output starts. */
  bodyAt: number;
}

/**
 * A Codex shell header: every line before `Output:` one of `HEADER_LINE`, `Wall time` among
 * them. A header without "Process exited" (or "Exit code") states no code: the command was
 * still running, and 0 would be a guess.
 */
function codexHeader(output: string): CodexHeader | undefined {
  // Most outputs are no Codex header: their first character says so (no search at all), else one look at the first words.
  if (!HEADER_FIRST_LETTERS.includes(output.charAt(0)) || !HEADER_START.test(output)) return undefined;
  // Both of the preamble's lines are optional: an output starting with neither has none.
  const preamble =
    output.startsWith("Warning: truncated") || output.startsWith("Total output") ? (TRUNCATION_PREAMBLE.exec(output)?.[0].length ?? 0) : 0;
  const head = output.slice(preamble, preamble + 1_000);
  const end = head.indexOf("\nOutput:");
  if (end === -1) return undefined;
  let exitCode: number | null = null;
  let runningSession: string | undefined;
  let wallTime = false;
  for (const line of head.slice(0, end).split("\n")) {
    const match = HEADER_LINE.exec(line);
    if (!match) return undefined;
    const [, exited, running, legacy] = match;
    if (line.startsWith("Wall time")) wallTime = true;
    if (exited !== undefined || legacy !== undefined) exitCode = Number(exited ?? legacy);
    if (running !== undefined) runningSession = running;
  }
  const bodyAt = preamble + end + "\nOutput:".length + (head[end + "\nOutput:".length] === "\n" ? 1 : 0);
  return wallTime ? { exitCode, runningSession, bodyAt } : undefined;
}

/** The closing line pi and omp write on a failed run, and the opening line Claude Code writes on one. */
const EXIT_TRAILER = /^(?:Command exited with code|exit code:?)\s*(-?\d+)$/i;
const EXIT_HEADER = /^exit code:?\s*(-?\d+)$/i;

/** Whether a line may be one of those two: they start with `c` or `e` (any case) and end with a digit; most last lines do not. */
function mayStateCode(line: string): boolean {
  const last = line.charCodeAt(line.length - 1);
  return "cCeE".includes(line.charAt(0)) && last >= 48 && last <= 57;
}

/** The code a failed result states on its first or last line, and the output without that line. */
function statedOnError(output: string): { code: number; body: string } | undefined {
  // Only the first and last lines matter: no need to split a long output.
  const trimmed = output.trim();
  const lastAt = trimmed.lastIndexOf("\n") + 1;
  const last = trimmed.slice(lastAt).trim();
  const trailer = mayStateCode(last) ? EXIT_TRAILER.exec(last)?.[1] : undefined;
  if (trailer !== undefined) return { code: Number(trailer), body: trimmed.slice(0, lastAt).trimEnd() };
  const newline = trimmed.indexOf("\n");
  const first = (newline === -1 ? trimmed : trimmed.slice(0, newline)).trim();
  const header = mayStateCode(first) ? EXIT_HEADER.exec(first)?.[1] : undefined;
  if (header !== undefined) return { code: Number(header), body: newline === -1 ? "" : trimmed.slice(newline + 1) };
  return undefined;
}

/** Which tool answered: whose words count (tool-statements.ts), and whether it runs a command. */
export interface ToolOfResult {
  framing: ResultFraming;
  /** A call that runs a command (not one Codex turns into a patch). */
  shell: boolean;
}

/**
 * Reads one tool result. `stated` is the code a reader found beside the text (Claude Code's
 * `toolUseResult`): a number, `null` for a run cut short, `undefined` when it found none.
 */
export function readToolResult(
  output: string,
  isError: boolean,
  stated?: number | null,
  tool: ToolOfResult = { framing: CLAUDE_CODE_FRAMING, shell: false },
): ToolResultReading {
  const envelope = jsonEnvelope(output);
  const text = envelope ? envelope.text : output;
  // Inside Codex's JSON envelope the command speaks from the first byte: no statement of the agent's is read there.
  const statement = envelope ? undefined : readStatement(text, isError, tool.framing);
  const refused = statement?.meaning === "refused";
  const cutShort = statement?.meaning === "cut short";
  const toolFailed = statement?.meaning === "failed";
  const header = stated === undefined && !envelope ? codexHeader(output) : undefined;
  const onError = isError && !header && !envelope ? statedOnError(output) : undefined;
  const said = stated !== undefined ? stated : (envelope?.exitCode ?? (header ? header.exitCode : (onError?.code ?? statement?.exitCode)));
  // A Codex shell call that ran always states its code in a header or the JSON envelope.
  const codexSaidNothing = tool.framing.shellStatesEveryCode && tool.shell && !header && !envelope;
  const exitCode = refused || cutShort ? null : said !== undefined ? said : isError || toolFailed || codexSaidNothing ? null : 0;
  const failed = isError || refused || toolFailed || (exitCode !== null && exitCode !== 0);
  const framed = tool.shell && !header && !onError ? tool.framing.shellBody?.(text) : undefined;
  const body = header ? output.slice(header.bodyAt) : onError ? onError.body : (framed ?? text);
  return {
    exitCode,
    stated: said !== undefined && said !== null && !refused && !cutShort,
    runningSession: header?.runningSession,
    refused,
    cutShort,
    couldNotRun: toolFailed,
    failed,
    body,
  };
}
