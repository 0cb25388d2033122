import type { RawLine, SessionBytes } from "../lines.ts";
import type { Session } from "../types.ts";
import { peekHead } from "./head.ts";
import { looksBinary, notASession } from "./not-a-session.ts";
import { describeFormats, detectFormat, formatNamed } from "./table.ts";
import type { SessionFormat } from "./types.ts";

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The format whose file this is, by its first lines; else why it is none, naming the file and line. */
export function recogniseFormat(head: readonly RawLine[], file: string): SessionFormat {
  const format = detectFormat(head.map((line) => line.text));
  if (format) return format;
  const first = head[0];
  if (first === undefined) throw notASession(file, "the file is empty");
  if (!isJson(first.text))
    throw notASession(file, looksBinary(head.map((line) => line.text)) ? "it looks like binary data" : "the line is not JSON", first.line);
  throw notASession(file, `it is not a ${describeFormats()} session`, first.line);
}

/**
 * Reads a session of any format in the table: its first lines say which format, that format
 * reads it whole, and the session names the agent that wrote it (pi's reader tells omp's files
 * from pi's only once it has seen every line). The chunks are read once, whatever happens.
 */
export function readSession(input: string | SessionBytes, file: string): { session: Session; format: SessionFormat } {
  const peeked = peekHead(input);
  try {
    const session = recogniseFormat(peeked.head, file).read(peeked.input, file);
    return { session, format: formatNamed(session.format) };
  } finally {
    peeked.close();
  }
}
