/**
 * The text we put around things that are not plain chat turns, so the model can tell a summary
 * or a user's own shell command from something the user typed. The wording is ours.
 */

/** Keeps text from closing the wrapper it sits in early. */
export function escapeClosingTag(text: string, tag: string): string {
  return text.split(`</${tag}>`).join(`<\\/${tag}>`);
}

/** Undoes `escapeClosingTag`. */
function unescapeClosingTag(text: string, tag: string): string {
  return text.split(`<\\/${tag}>`).join(`</${tag}>`);
}

function summaryBlock(preface: string, summary: string): string {
  return `${preface}\n\n<summary>\n${escapeClosingTag(summary, "summary")}\n</summary>`;
}

/** The line that opens a compaction summary's wrapper. */
export const COMPACTION_PREFACE = "Earlier parts of this conversation were condensed into this summary:";
/** The line that opens a branch summary's wrapper. */
export const BRANCH_SUMMARY_PREFACE = "Summary of work on another branch of this session, which the user left before returning here:";

export function wrapCompactionSummary(summary: string): string {
  return summaryBlock(COMPACTION_PREFACE, summary);
}

export function wrapBranchSummary(summary: string): string {
  return summaryBlock(BRANCH_SUMMARY_PREFACE, summary);
}

/**
 * The summary a compaction or branch-summary wrapper holds, as it was recorded: preface and
 * tags dropped, escaped closing tags restored. Text without our wrapper comes back unchanged.
 */
export function unwrapSummary(wrapped: string): string {
  const open = "\n\n<summary>\n";
  const close = "\n</summary>";
  const start = wrapped.indexOf(open);
  if (start === -1 || !wrapped.endsWith(close) || wrapped.length - close.length < start + open.length) return wrapped;
  return unescapeClosingTag(wrapped.slice(start + open.length, wrapped.length - close.length), "summary");
}

/** Picks a fence longer than any run of backticks in the text, so output cannot break out. */
function fence(text: string, info = ""): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const marks = "`".repeat(longest + 1);
  return `${marks}${info}\n${text}${text.endsWith("\n") ? "" : "\n"}${marks}`;
}

export interface ExecutionFacts {
  language: "shell" | "python";
  source: string;
  output: string;
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
}

export function wrapExecution(run: ExecutionFacts): string {
  const what = run.language === "shell" ? "shell command" : "Python code";
  const lines = [`The user ran this ${what} themselves:`, fence(run.source, run.language === "shell" ? "sh" : "python")];
  lines.push(run.output.trim() === "" ? "It printed nothing." : `Output:\n${fence(run.output)}`);
  if (run.truncated) lines.push("(The output was truncated.)");
  if (run.cancelled) lines.push("(The user cancelled it before it finished.)");
  else if (run.exitCode !== undefined && run.exitCode !== 0) lines.push(`Exit code: ${run.exitCode}`);
  return lines.join("\n\n");
}

export function wrapFileMention(files: { path: string; content: string | undefined }[]): string {
  const parts = ["The user attached these files:"];
  for (const file of files) {
    parts.push(file.content === undefined ? `${file.path} (content not recorded)` : `${file.path}\n${fence(file.content)}`);
  }
  return parts.join("\n\n");
}
