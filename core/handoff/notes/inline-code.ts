/** Markdown pieces both Session Facts and the offline engine write: code spans that hold any text, commands on one line. */

/**
 * Inline code that survives any content: the fence is longer than every backtick run inside,
 * padding keeps edge backticks from joining the fence, and line breaks become spaces.
 */
export function inlineCode(text: string): string {
  const flat = text.replace(/\r?\n/g, " ");
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat.trim() === "" ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A command on one line: its first line, `…` when lines or characters were left out. */
export function shortCommand(command: string, max = 160): string {
  const lines = command.trim().split("\n");
  const first = (lines[0] ?? "").trimEnd();
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return lines.length > 1 && cut === first ? `${cut} …` : cut;
}
