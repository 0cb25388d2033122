import { isObject, type JsonObject } from "../json.ts";

/**
 * The blocks of a message's content as the agents save it: a string, or an array of block
 * objects. `fromString` makes the blocks of a string, `fromBlock` one block of an array
 * (`undefined` leaves it out); anything in the array that is not an object is skipped.
 */
export function readContentBlocks<B>(
  content: unknown,
  fromString: (text: string) => B[],
  fromBlock: (block: JsonObject) => B | undefined,
): B[] {
  if (typeof content === "string") return fromString(content);
  if (!Array.isArray(content)) return [];
  const blocks: B[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    const made = fromBlock(block);
    if (made !== undefined) blocks.push(made);
  }
  return blocks;
}
