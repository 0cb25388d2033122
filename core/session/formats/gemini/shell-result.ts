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
 * above them (or is followed by more of its own output) and is not read. Results in sessions of
 * the versions before (`.json` files) state every field, in the shape `readOlderShellResult` reads.
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

/**
 * The fields Gemini CLI wrote before 0.61 (the time of its `.json` sessions), after the command
 * and its output, each always on a line of its own and `(none)` when it has no value; the last
 * one (the process group) came later than the rest.
 */
const OLDER_TRAILERS_LAST_FIRST = ["Process Group PGID: ", "Background PIDs: ", "Signal: ", "Exit Code: ", "Error: "] as const;

/**
 * A result in the shape before 0.61: `Command: …`, `Directory: …`, `Output: …` (earlier
 * `Stdout: …` and `Stderr: …`), then every field of `OLDER_TRAILERS_LAST_FIRST`. `Exit Code:
 * (none)` is no code (killed by a signal, or it never ran).
 */
function readOlderShellResult(text: string): GeminiShellResult | undefined {
  if (!text.startsWith("Command: ")) return undefined;
  const lines = text.split("\n");
  const fields = new Map<string, string>();
  for (const name of OLDER_TRAILERS_LAST_FIRST) {
    const last = lines.at(-1) ?? "";
    if (last.startsWith(name)) {
      fields.set(name, last.slice(name.length));
      lines.pop();
    } else if (name !== "Process Group PGID: ") return undefined;
  }
  const output = lines.findIndex((line) => line.startsWith("Output: ") || line.startsWith("Stdout: "));
  if (output === -1 || !lines.slice(1, output).some((line) => line.startsWith("Directory: "))) return undefined;
  const rest = lines.slice(output).join("\n");
  const streams = /^Stdout: ([\s\S]*)\nStderr: ([\s\S]*)$/.exec(rest);
  const printed = (value: string) => (value === "(empty)" ? "" : value);
  const body = streams
    ? [printed(streams[1] ?? ""), printed(streams[2] ?? "")].filter(Boolean).join("\n")
    : printed(rest.slice("Output: ".length));
  const code = fields.get("Exit Code: ") ?? "(none)";
  return { exitCode: /^-?\d+$/.test(code) ? Number(code) : null, body };
}

/** A `run_shell_command` result read: `undefined` when the text is not in Gemini's shell shape (a summary, an error of the tool itself). */
export function readGeminiShellResult(text: string): GeminiShellResult | undefined {
  const older = readOlderShellResult(text);
  if (older !== undefined) return older;
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
