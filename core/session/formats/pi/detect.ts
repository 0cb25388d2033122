import { isObject } from "../../../json.ts";
import { isOmpOnly, titleSlotOf } from "./parse.ts";

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What a file's first lines say of pi's family (pi and omp, its fork, share one layout):
 * whether they start with a session header (after omp's title line, if any), and whether any
 * of them is omp's own. A pi file may still turn out to be omp's further down (an omp entry
 * after the first lines): the reader, which sees every line, has the last word.
 */
export function readPiFamilyHead(head: readonly string[]): { header: boolean; omp: boolean } {
  const titled = head[0] !== undefined && titleSlotOf(head[0]) !== undefined;
  const first = parsed(head[titled ? 1 : 0]);
  const header = isObject(first) && first.type === "session";
  if (!header) return { header, omp: false };
  if (titled) return { header, omp: true };
  for (const text of head.slice(1)) {
    const value = parsed(text);
    if (isObject(value) && typeof value.type === "string" && isOmpOnly(value.type, value)) return { header, omp: true };
  }
  return { header, omp: false };
}
