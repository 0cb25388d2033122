/**
 * A session file's first and last lines, read without the rest: what listing and finding
 * sessions needs (an id, a cwd, a title), at the cost of two small reads per file however large
 * it is. Each byte is read at most once (all reads go through glance-read.ts, which counts them);
 * a first line that does not end within `MAX_FIRST_LINE_BYTES` is given up on there, for every
 * agent (the last lines are still read: Claude Code's say where the session lies). A zstd-compressed rollout has no middle to skip: it is streamed through, keeping only
 * its ends, and given up on past a cap (then its size is unknown).
 */
import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { basename, dirname } from "node:path";
import { detectFormat, type SessionFormat, type SessionGlance } from "../../core/index.ts";
import { folderOwnerOf } from "./folder-registry.ts";
import { readAt } from "./glance-read.ts";
import { startsWithZstdMagic } from "../io/zstd.ts";
import { zstdWindow } from "../io/zstd-window.ts";

/** What is read from each end first: enough for the header and the first prompt of nearly every session. */
const END_BYTES = 64 * 1024;
/** A larger head for a glance that found no id or cwd in the first one (Claude Code can open with large bookkeeping lines). */
const WIDE_HEAD_BYTES = 1024 * 1024;
/**
 * A first line longer than this (no newline in it) is no session line worth reading further:
 * the largest real one, a Codex `session_meta` carrying its base instructions, is about 25 KB.
 */
export const MAX_FIRST_LINE_BYTES = 256 * 1024;
/** A compressed file larger than this is not decompressed for a glance. */
const MAX_COMPRESSED_GLANCE_BYTES = 64 * 1024 * 1024;

export interface FileEnds {
  head: string[];
  tail: string[];
  /** The file's size on disk. */
  bytes: number;
  /** The size of its text (decompressed, for a compressed rollout): what a model would be sent; undefined when a compressed one was too large to read to its end. */
  textBytes: number | undefined;
  /** Why the file was not read as a whole glance (its first line never ends; a compressed one's end not reached), for `--verbose`. */
  note?: string;
  /** Set when its first line did not end within `MAX_FIRST_LINE_BYTES` (or its text's, compressed): `head` is then empty, and the file is unreadable for a glance. */
  firstLineGivenUp?: boolean;
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

function joined(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const givenUp = `its first line does not end within ${MAX_FIRST_LINE_BYTES / 1024} KiB; not read as a session (name its path to read it whole)`;

const givenUpButListed = `its first line does not end within ${MAX_FIRST_LINE_BYTES / 1024} KiB; listed from its last lines (name its path to read it whole)`;

/**
 * A plain file's ends as read so far: the head from the first byte, and the tail from `tailFrom`
 * to the last (after the byte before it, which tells whether the tail's first line is whole).
 */
class PlainEnds {
  private tailFrom: number;
  private tail: Uint8Array;

  constructor(
    private readonly fd: number,
    private readonly size: number,
    private head: Uint8Array,
  ) {
    // The first line may go on past the first read: on to its end, doubling, but only so far.
    while (!this.firstLineEnds() && head.length < size && head.length < MAX_FIRST_LINE_BYTES) {
      const more = readAt(fd, Math.min(size, MAX_FIRST_LINE_BYTES, 2 * head.length) - head.length, head.length);
      if (more.length === 0) break;
      head = this.head = joined(head, more);
    }
    this.tailFrom = Math.max(head.length, size - END_BYTES);
    // A first line given up on still leaves the last lines to read: Claude Code repeats its folder on every line.
    if (this.isWhole()) this.tail = new Uint8Array();
    else if (this.tailFrom > head.length) this.tail = readAt(fd, size - this.tailFrom + 1, this.tailFrom - 1);
    else this.tail = joined(head.subarray(-1), readAt(fd, size - this.tailFrom, this.tailFrom));
  }

  private isWhole(): boolean {
    return this.head.length >= this.size;
  }

  /** Whether a first line ends within the bound; a file whose first line never does is given up on (its tail is not read). */
  private firstLineEnds(): boolean {
    return this.head.subarray(0, MAX_FIRST_LINE_BYTES).includes(10) || this.isWhole();
  }

  /** The head read on up to `want` bytes, each byte once (where it reaches the tail, the two make the whole file); false when there is no more. */
  widen(want: number): boolean {
    const end = Math.min(want, this.size);
    if (end <= this.head.length || !this.firstLineEnds()) return false;
    if (end < this.tailFrom) this.head = joined(this.head, readAt(this.fd, end - this.head.length, this.head.length));
    else this.head = joined(this.head, readAt(this.fd, this.tailFrom - this.head.length, this.head.length), this.tail.subarray(1));
    return true;
  }

  ends(): Omit<FileEnds, "bytes" | "mtimeMs"> {
    if (this.isWhole()) {
      const lines = linesOf(this.head, { start: false, end: false });
      return { head: lines, tail: lines, textBytes: this.size };
    }
    if (!this.firstLineEnds())
      return {
        head: [],
        tail: linesOf(this.tail, { start: true, end: false }),
        textBytes: this.size,
        note: givenUp,
        firstLineGivenUp: true,
      };
    const head = linesOf(this.head, { start: false, end: true });
    return { head, tail: linesOf(this.tail, { start: true, end: false }), textBytes: this.size };
  }
}

/** The lines at a compressed rollout's ends (its first bytes, `start`, already read); undefined when it cannot be decompressed. */
function compressedEnds(fd: number, size: number, start: Uint8Array): Omit<FileEnds, "bytes" | "mtimeMs"> | undefined {
  if (size > MAX_COMPRESSED_GLANCE_BYTES) return undefined;
  const window = zstdWindow(fd, start, { headBytes: WIDE_HEAD_BYTES, tailBytes: END_BYTES, firstLineBytes: MAX_FIRST_LINE_BYTES });
  if (window === undefined) return undefined;
  const whole = window.textBytes !== undefined && window.textBytes <= WIDE_HEAD_BYTES;
  const head = linesOf(window.head, { start: false, end: !whole });
  if (window.tail === undefined) {
    const listed = head.length > 0 ? "listed from its first lines, size unknown" : "not read as a session (name its path to read it whole)";
    return {
      head,
      tail: [],
      textBytes: undefined,
      note: `it ${window.gaveUp}; ${listed}`,
      ...(head.length === 0 ? { firstLineGivenUp: true } : {}),
    };
  }
  return { head, tail: whole ? head : linesOf(window.tail, { start: true, end: false }), textBytes: window.textBytes };
}

/** An open regular file's ends; `widen` reads a plain file's head on (a compressed one's head is wide already). */
interface OpenEnds {
  ends: FileEnds;
  widen: (want: number) => FileEnds | undefined;
}

/**
 * Runs `look` on the ends of the regular file at `path`; undefined when it is not one (a pipe, a
 * device: never opened in a way that could block). Errors reading it are thrown, for the caller
 * to report. `headBytes` is what is read of the head first (more only to finish a first line).
 */
function withEnds<T>(path: string, headBytes: number, look: (file: OpenEnds) => T): T | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const base = { bytes: stats.size, mtimeMs: stats.mtimeMs };
    const first = readAt(fd, Math.min(stats.size, headBytes), 0);
    if (startsWithZstdMagic(first)) {
      let ends: Omit<FileEnds, "bytes" | "mtimeMs"> | undefined;
      try {
        ends = compressedEnds(fd, stats.size, first);
      } catch {
        ends = undefined;
      }
      return ends && look({ ends: { ...ends, ...base }, widen: () => undefined });
    }
    const plain = new PlainEnds(fd, stats.size, first);
    return look({ ends: { ...plain.ends(), ...base }, widen: (want) => (plain.widen(want) ? { ...plain.ends(), ...base } : undefined) });
  } finally {
    closeSync(fd);
  }
}

/** The first and last lines of a regular file; undefined when `path` is not one. See `withEnds`. */
export function readFileEnds(path: string, headBytes = END_BYTES): FileEnds | undefined {
  return withEnds(path, headBytes, (file) => file.ends);
}

export interface GlancedFile {
  /** Whose session it is: the first of `formats`, unless the file's own lines name another of them. */
  format: SessionFormat;
  ends: FileEnds;
  glance: SessionGlance;
}

/**
 * What a file found under the roots of `formats` is (two agents can share a folder: pi's and
 * omp's `PI_CODING_AGENT_DIR`, and the file's own lines say whose it is), from its ends, read
 * once. A glance that finds no id or cwd in the head gets one more look at a larger one, read on
 * from where the first stopped. `note` hears why a file was not read as a session (`--verbose`).
 */
export function glanceFile(formats: readonly SessionFormat[], path: string, note?: (line: string) => void): GlancedFile | undefined {
  const fileName = basename(path);
  const folderName = basename(dirname(path));
  return withEnds(path, END_BYTES, (file): GlancedFile | undefined => {
    let ends = file.ends;
    const [claimed] = formats;
    if (claimed === undefined) return undefined;
    const named = formats.length > 1 ? detectFormat(ends.head) : undefined;
    const format = named !== undefined && formats.includes(named) ? named : claimed;
    const folderOwner = folderOwnerOf(format, path);
    let glance = format.glance({ head: ends.head, tail: ends.tail, fileName, folderName, folderOwner });
    if (glance === undefined || glance.cwd === undefined) {
      const wider = file.widen(WIDE_HEAD_BYTES);
      if (wider !== undefined) {
        ends = wider;
        glance = format.glance({ head: ends.head, tail: ends.tail, fileName, folderName, folderOwner });
      }
    }
    // A file given up on before its first line ended is said to be so; one that is simply no session of these agents is not.
    if (glance === undefined && ends.head.length === 0 && ends.note !== undefined) note?.(ends.note);
    // Listed from its last lines alone (Claude Code's), it is said to be so instead.
    if (glance !== undefined && ends.firstLineGivenUp === true) ends = { ...ends, note: givenUpButListed };
    return glance && { format, ends, glance };
  });
}
