/**
 * A session file's first and last lines, read without the rest: what listing and finding
 * sessions needs (an id, a cwd, a title), at the cost of two small reads per file however large
 * it is. A zstd-compressed rollout has no middle to skip: it is streamed through, keeping only
 * its ends, and given up on past a cap (then its size is unknown).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import type { SessionFormat, SessionGlance } from "../core/index.ts";
import { startsWithZstdMagic } from "./zstd.ts";
import { zstdWindow } from "./zstd-window.ts";

/** What is read from each end first: enough for the header and the first prompt of nearly every session. */
const END_BYTES = 64 * 1024;
/** A larger head for a glance that found no id or cwd in the first one (Claude Code can open with large bookkeeping lines). */
const WIDE_HEAD_BYTES = 1024 * 1024;
/** A first line longer than this (no newline in it) is no session line worth reading further. */
const MAX_FIRST_LINE_BYTES = 8 * 1024 * 1024;
/** A compressed file larger than this is not decompressed for a glance. */
const MAX_COMPRESSED_GLANCE_BYTES = 64 * 1024 * 1024;

export interface FileEnds {
  head: string[];
  tail: string[];
  /** The file's size on disk. */
  bytes: number;
  /** The size of its text (decompressed, for a compressed rollout): what a model would be sent; undefined when a compressed one was too large to read to its end. */
  textBytes: number | undefined;
  /** Why a compressed file's end was not read (for `--verbose`). */
  note?: string;
  mtimeMs: number;
}

const decoder = new TextDecoder("utf-8");

/** Whole lines with text in `bytes` (a line cut by either end of the window is left out when `cut` says so). */
function linesOf(bytes: Uint8Array, cut: { start: boolean; end: boolean }): string[] {
  let text = decoder.decode(bytes);
  if (cut.end) {
    const last = text.lastIndexOf("\n");
    text = last === -1 ? "" : text.slice(0, last);
  }
  const lines = text.split("\n");
  if (cut.start) lines.shift();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line)).filter((line) => line.trim() !== "");
}

function readAt(fd: number, length: number, position: number): Uint8Array {
  const buffer = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

/** The head: `want` bytes, or more until the first line ends (a Codex `session_meta` can be long). */
function readHead(fd: number, size: number, want: number): Uint8Array {
  let head = readAt(fd, Math.min(size, want), 0);
  while (head.length < size && !head.includes(10) && head.length < MAX_FIRST_LINE_BYTES) {
    const more = readAt(fd, Math.min(size - head.length, head.length), head.length);
    if (more.length === 0) break;
    const joined = new Uint8Array(head.length + more.length);
    joined.set(head);
    joined.set(more, head.length);
    head = joined;
  }
  return head;
}

/** The lines at a compressed rollout's ends; undefined when it cannot be decompressed. */
function compressedEnds(path: string, size: number): Omit<FileEnds, "bytes" | "mtimeMs"> | undefined {
  if (size > MAX_COMPRESSED_GLANCE_BYTES) return undefined;
  try {
    const window = zstdWindow(path, WIDE_HEAD_BYTES, END_BYTES);
    if (window === undefined) return undefined;
    const whole = window.textBytes !== undefined && window.textBytes <= WIDE_HEAD_BYTES;
    const head = linesOf(window.head, { start: false, end: !whole });
    if (window.tail === undefined)
      return { head, tail: [], textBytes: undefined, note: `it ${window.gaveUp}; listed from its first lines, size unknown` };
    return { head, tail: whole ? head : linesOf(window.tail, { start: true, end: false }), textBytes: window.textBytes };
  } catch {
    return undefined;
  }
}

/**
 * The first and last lines of a regular file; undefined when `path` is not one (a pipe, a
 * device: never opened in a way that could block). `headBytes` bounds the head (more only to
 * finish a first line). Errors reading it are thrown, for the caller to report.
 */
export function readFileEnds(path: string, headBytes = END_BYTES): FileEnds | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const size = stats.size;
    const base = { bytes: size, mtimeMs: stats.mtimeMs };
    const first = readHead(fd, size, headBytes);
    if (startsWithZstdMagic(first)) {
      const ends = compressedEnds(path, size);
      return ends && { ...ends, ...base };
    }
    const whole = first.length >= size;
    const head = linesOf(first, { start: false, end: !whole });
    if (whole) return { head, tail: head, textBytes: size, ...base };
    // The tail starts after the head; one byte more tells whether its first line is whole.
    const start = Math.max(first.length, size - END_BYTES) - 1;
    const tailBytes = readAt(fd, size - start, start);
    return { head, tail: linesOf(tailBytes, { start: true, end: false }), textBytes: size, ...base };
  } finally {
    closeSync(fd);
  }
}

/**
 * What `format` makes of a file's ends; a glance that finds no id or cwd in the head gets one
 * more look at a larger one, when the file has more to show.
 */
export function glanceFile(format: SessionFormat, path: string): { ends: FileEnds; glance: SessionGlance } | undefined {
  const fileName = basename(path);
  let ends = readFileEnds(path);
  if (ends === undefined) return undefined;
  let glance = format.glance({ head: ends.head, tail: ends.tail, fileName });
  if ((glance === undefined || glance.cwd === undefined) && ends.bytes > END_BYTES && ends.textBytes === ends.bytes) {
    ends = readFileEnds(path, WIDE_HEAD_BYTES);
    if (ends === undefined) return undefined;
    glance = format.glance({ head: ends.head, tail: ends.tail, fileName });
  }
  return glance && { ends, glance };
}
