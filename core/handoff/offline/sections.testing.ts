/** Helpers the offline engine's tests share: reading a document back by its headings. */

/** The headings every handoff document has, in order (Progress's three parts included). */
export const HANDOFF_HEADINGS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Pending",
  "## Key Decisions",
  "## Critical Context",
  "## Next Steps",
] as const;

/** The `##`/`###` headings of a document, in order. */
export function headingsOf(document: string): string[] {
  return document.split("\n").filter((line) => /^#{2,3} /.test(line));
}

/** The body of one section (up to the next `##`/`###` heading), trailing blank lines dropped. */
export function sectionOf(document: string, heading: string): string {
  const lines = document.split("\n");
  const start = lines.indexOf(heading);
  if (start === -1) return "";
  const end = lines.findIndex((line, i) => i > start && /^#{2,3} /.test(line));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .join("\n")
    .trimEnd();
}
