/**
 * The one way a file named by a path is read whole (the system prompt, the config file, an omp
 * blob; the session, which may be a stream, has its own reader, with the same refusals but for
 * the streams it documents). Before a byte is read: only a regular file (a pipe with no writer
 * would block the run, a device such as `/dev/zero` would feed it until memory runs out, a
 * folder is no text), and no larger than the bound its use sets (a 3 GB "system prompt" ended in
 * an internal error after 18 s and 3 GB of memory). Text must be UTF-8 and not look like binary
 * data, the refusal a session gets. The path is opened without blocking and the descriptor itself
 * is checked, so nothing swapped in between a look and the read gets read.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { countOf, AgentError } from "../../core/index.ts";
import { describeNonFile } from "../sessions/session-file.ts";
import { fsReason, isMissing } from "./fs-errors.ts";

/** Why a file could not be read: an error naming the path and what it was for. */
export type CannotRead = (reason: string) => AgentError;

/** The largest system prompt or config file read (README "--system-prompt-file"); a prompt must fit the window anyway. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

/** A size in words: bytes below a KiB, else KiB, MiB or GiB with one decimal where it matters. */
export function describeSize(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? countOf(bytes, "byte") : `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * A regular file's bytes, refused (by `cannotRead`) when it is no regular file or is larger than
 * `maxBytes`. Returns `undefined` when nothing is there and `missing` says so is fine.
 */
export function readRegularFile(path: string, cannotRead: CannotRead, maxBytes: number): Buffer;
export function readRegularFile(path: string, cannotRead: CannotRead, maxBytes: number, missing: "undefined"): Buffer | undefined;
export function readRegularFile(path: string, cannotRead: CannotRead, maxBytes: number, missing?: "undefined"): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (missing && isMissing(error)) return undefined;
    throw cannotRead(fsReason(error));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw cannotRead(describeNonFile(stats));
    if (stats.size > maxBytes) throw cannotRead(`it is ${describeSize(stats.size)}; the most read is ${describeSize(maxBytes)}`);
    const bytes = readFileSync(fd);
    // A file that grew between the look and the read is held to the same bound.
    if (bytes.length > maxBytes) throw cannotRead(`it is over ${describeSize(maxBytes)}, the most read`);
    return bytes;
  } catch (error) {
    if (error instanceof AgentError) throw error;
    throw cannotRead(fsReason(error));
  } finally {
    closeSync(fd);
  }
}

/** Control characters no text file holds (tab, line breaks and form feed aside): what a session's binary check looks for. */
const BINARY = /[\u0000-\u0008\u000e-\u001f]/;

/** A regular text file, as `readRegularFile`, that must also be UTF-8 and not look like binary data. */
export function readTextFile(path: string, cannotRead: CannotRead, maxBytes: number): string;
export function readTextFile(path: string, cannotRead: CannotRead, maxBytes: number, missing: "undefined"): string | undefined;
export function readTextFile(path: string, cannotRead: CannotRead, maxBytes: number, missing?: "undefined"): string | undefined {
  const bytes = missing ? readRegularFile(path, cannotRead, maxBytes, missing) : readRegularFile(path, cannotRead, maxBytes);
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw cannotRead("it looks like binary data: it is not UTF-8 text");
  }
  if (BINARY.test(text)) throw cannotRead("it looks like binary data");
  return text;
}
