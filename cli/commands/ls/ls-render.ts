/**
 * How `agent ls` shows sessions (pure): one JSON object per session; on a terminal a table that
 * fits its width; in a pipe one tab-separated line per session with every field whole.
 */
import type { LsSessionJson } from "../../../core/index.ts";
import type { PrintedFilter } from "../../output/printed.ts";
import { fitEnd, fitMiddle } from "../../output/shorten.ts";
import { asField, stripControls } from "../../output/terminal.ts";
import { tildePath } from "../../output/ages-and-folders.ts";

/** One session as `agent ls --json` prints it: the contract lives in core (core/contracts.ts). */
export type ListedSession = LsSessionJson;

/** A rough count of tokens: four bytes of text each, as everywhere in this tool's estimates. */
export function estimateTokensOfBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/** `2026-11-30 12:52` in the user's time zone (`utcOffsetMinutes` east of UTC). */
export function localMinute(ms: number, utcOffsetMinutes: number): string {
  return new Date(ms + utcOffsetMinutes * 60_000).toISOString().slice(0, 16).replace("T", " ");
}

/** `812`, `12K`, `3.4M`, `1.2G`: sizes as `ls -h` writes them. */
export function formatBytes(bytes: number): string {
  const units = ["K", "M", "G", "T"];
  let value = bytes;
  let unit = "";
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  if (unit === "") return String(bytes);
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, "") : Math.round(value)}${unit}`;
}

/** `950`, `3.1k`, `12k`, `1.3M`. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 1_000_000) return `${tokens < 10_000 ? (tokens / 1000).toFixed(1).replace(/\.0$/, "") : Math.round(tokens / 1000)}k`;
  return `${(tokens / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** For each id, its shortest start (at least 8 characters) that no other listed id shares. */
export function shortIds(ids: readonly string[]): string[] {
  const lower = ids.map((id) => id.toLowerCase());
  return ids.map((id, i) => {
    let length = Math.min(8, id.length);
    for (const [j, other] of lower.entries()) {
      if (j === i || other === lower[i]) continue;
      let shared = 0;
      while (shared < other.length && other[shared] === lower[i]?.[shared]) shared++;
      length = Math.max(length, Math.min(id.length, shared + 1));
    }
    return id.slice(0, length);
  });
}

export interface TableOptions {
  /** The run's printed-line filter: a cut comes only after it. */
  printed: PrintedFilter;
  width: number;
  utcOffsetMinutes: number;
  home: string;
  /** Sessions of every folder: each says its cwd. */
  all: boolean;
}

/** The table's columns, given all or without size and tokens (for a narrow terminal). */
function columnsOf(
  rows: readonly ListedSession[],
  ids: readonly string[],
  options: TableOptions,
  narrow: boolean,
): { heads: string[]; cells: string[][]; right: Set<number> } {
  const withMessages = rows[0]?.messages !== undefined;
  const heads = ["UPDATED", "AGENT", "ID", ...(narrow ? [] : ["SIZE", "TOKENS"]), ...(withMessages ? ["MSGS"] : [])];
  const cells = rows.map((row, i) => [
    localMinute(Date.parse(row.updated), options.utcOffsetMinutes),
    row.agent,
    ids[i] ?? row.id,
    ...(narrow ? [] : [formatBytes(row.bytes), row.estimatedTokens === null ? "?" : formatTokens(row.estimatedTokens)]),
    ...(withMessages ? [row.messages === null || row.messages === undefined ? "?" : String(row.messages)] : []),
  ]);
  const right = new Set(heads.flatMap((head, c) => (["SIZE", "TOKENS", "MSGS"].includes(head) ? [c] : [])));
  return { heads, cells, right };
}

/** Room the title needs at the least before size and tokens make way for it. */
const MIN_TITLE = 16;

/**
 * A table for a terminal: a line per session (when, which agent, the id's short form, size,
 * estimated tokens, the title cut to the width), and under it the file (with `--all`, the
 * folder it worked in first), cut in the middle when wider than the terminal. A narrow terminal
 * loses the size and token columns first.
 */
export function renderTable(rows: readonly ListedSession[], options: TableOptions): string {
  const clearedForStdout = (text: string) => options.printed.clearedForStdout(text);
  const ids = shortIds(rows.map((r) => clearedForStdout(asField(r.id))));
  let table = columnsOf(rows, ids, options, false);
  const widthsOf = (t: typeof table) => t.heads.map((head, c) => Math.max(head.length, ...t.cells.map((row) => (row[c] ?? "").length)));
  const leadOf = (t: typeof table) => widthsOf(t).reduce((sum, w) => sum + w + 2, 0);
  if (options.width - leadOf(table) < MIN_TITLE) table = columnsOf(rows, ids, options, true);
  const { heads, cells, right } = table;
  const widths = widthsOf(table);
  const line = (values: readonly string[]) =>
    values.map((v, c) => (right.has(c) ? v.padStart(widths[c] ?? 0) : v.padEnd(widths[c] ?? 0))).join("  ");
  // Too little room for a title to say anything: none, rather than a line wider than the terminal.
  const titleWidth = options.width - leadOf(table) >= 5 ? options.width - leadOf(table) : 0;
  const out = [titleWidth > 0 ? `${line(heads)}  TITLE` : line(heads).trimEnd()];
  for (const [i, row] of rows.entries()) {
    const title = titleWidth > 0 ? fitEnd(clearedForStdout(row.title ?? ""), titleWidth) : "";
    out.push(`${line(cells[i] ?? [])}  ${title}`.trimEnd());
    const where = tildePath(row.path, options.home);
    const place = options.all && row.cwd !== null ? `${tildePath(row.cwd, options.home)}  ${where}` : where;
    out.push(`  ${fitMiddle(clearedForStdout(asField(place)), options.width - 2)}`);
  }
  return `${out.join("\n")}\n`;
}

/** For a pipe: one line per session, tab-separated, nothing cut: updated, agent, id, bytes, tokens, [messages,] title, cwd, path. */
export function renderTabs(rows: readonly ListedSession[]): string {
  // Every field on its one line and in its column, and nothing a terminal acts on: a pipe's reader is often a terminal too (| grep, | column).
  const flat = (text: string | null) => stripControls((text ?? "").replace(/[\t\n\r]+/g, " "));
  return rows
    .map((row) =>
      [
        row.updated,
        row.agent,
        flat(row.id),
        String(row.bytes),
        row.estimatedTokens === null ? "" : String(row.estimatedTokens),
        ...(row.messages === undefined ? [] : [row.messages === null ? "" : String(row.messages)]),
        flat(row.title),
        flat(row.cwd),
        flat(row.path),
      ].join("\t"),
    )
    .map((line) => `${line}\n`)
    .join("");
}
