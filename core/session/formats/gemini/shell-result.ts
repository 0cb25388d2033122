/**
 * The exit code Gemini CLI's `run_shell_command` states in its result (shell.ts, 0.61.0). The
 * text, inside `<untrusted_context>` lines, is one of:
 * - `Output: <output or (empty)>`, then in this order and each only when it applies:
 *   `Error: <message>`, `Exit Code: N` (only when not 0), `Signal: S`, `Background PIDs: …`,
 *   `Process Group PGID: N`. No `Exit Code` line is a plain exit 0.
 * - `Command was cancelled by user …` or `Command was automatically cancelled …` (aborted: no code).
 * - `Command moved to background (PID: N). …` (still running: no code yet).
 * Only Gemini's own lines count: they follow the output, so they are read from the end, each
 * section at most once and in Gemini's order; an `Exit Code: N` the command printed itself sits
 * above them (or is followed by more of its own output) and is not read.
 */

/** The lines Gemini appends after the output, last first, as it would have written them in reverse. */
const TRAILERS_LAST_FIRST: readonly RegExp[] = [
  /^Process Group PGID: \d+$/,
  /^Background PIDs: \d+(?:, \d+)*$/,
  /^Signal: \S+$/,
  /^Exit Code: (-?\d+)$/,
];

const OPEN = "<untrusted_context>\n";
const CLOSE = "\n</untrusted_context>";

/** The text without Gemini's `<untrusted_context>` wrapper (older versions wrote none). */
function unwrapped(text: string): string {
  return text.startsWith(OPEN) && text.endsWith(CLOSE) ? text.slice(OPEN.length, -CLOSE.length) : text;
}

export interface GeminiShellResult {
  /** A number (0 when it ran and states none); `null` when there is none (cancelled, killed by a signal, moved to the background). */
  exitCode: number | null;
  /** What the command printed: the output without Gemini's framing around it. */
  body: string;
}

/** A `run_shell_command` result read: `undefined` when the text is not in Gemini's shell shape (a summary, an error of the tool itself). */
export function readGeminiShellResult(text: string): GeminiShellResult | undefined {
  const inner = unwrapped(text);
  if (inner.startsWith("Command was cancelled by user") || inner.startsWith("Command was automatically cancelled"))
    return { exitCode: null, body: inner };
  if (inner.startsWith("Command moved to background (PID: ")) return { exitCode: null, body: inner };
  if (!inner.startsWith("Output: ")) return undefined;
  const lines = inner.split("\n");
  let code: number | undefined;
  let signal = false;
  let next = 0;
  // Peel Gemini's lines off the end, in its order; the first line that is none of them is the output's.
  while (lines.length > 1 && next < TRAILERS_LAST_FIRST.length) {
    const last = lines[lines.length - 1] ?? "";
    const at = TRAILERS_LAST_FIRST.slice(next).findIndex((pattern) => pattern.test(last));
    if (at === -1) break;
    next += at;
    const match = TRAILERS_LAST_FIRST[next]?.exec(last);
    if (last.startsWith("Signal: ")) signal = true;
    if (match?.[1] !== undefined) code = Number(match[1]);
    next += 1;
    lines.pop();
  }
  const output = lines.join("\n").slice("Output: ".length);
  return { exitCode: code ?? (signal ? null : 0), body: output === "(empty)" ? "" : output };
}

/** The code a `run_shell_command` result states (see `readGeminiShellResult`); `undefined` when it is in no shell shape. */
export function geminiShellExitCode(text: string): number | null | undefined {
  return readGeminiShellResult(text)?.exitCode;
}

/** The command's own output in a `run_shell_command` result, for the facts to judge; `undefined` when it is in no shell shape. */
export function geminiShellBody(text: string): string | undefined {
  return readGeminiShellResult(text)?.body;
}
