/**
 * opencode's ids, as opencode 1.18.33 makes them (its `Identifier` module, read in the package):
 * `<prefix>_` then 12 hex digits, the time in milliseconds times 4096 plus a counter of the ids
 * made in the same millisecond (from 1), kept to 48 bits, then 14 random base-62 characters.
 * Messages and parts sort ascending (oldest first, the order opencode rebuilds a session in);
 * a session's 12 digits are the bitwise complement, so the newest session sorts first.
 */

/** The prefixes of the ids a session's rows hold. */
export type IdPrefix = "ses" | "msg" | "prt";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const MASK_48 = (1n << 48n) - 1n;
const RANDOM_CHARACTERS = 14;

/**
 * 14 base-62 characters from the hex of `random` (core has no randomness of its own: the
 * caller's fresh 8-hex entry ids, four of them give 128 bits for 14 × 5.95).
 */
function base62(randomHex: string): string {
  let value = BigInt(`0x${randomHex || "0"}`);
  let out = "";
  for (let i = 0; i < RANDOM_CHARACTERS; i++) {
    out += BASE62[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}

/** One id: `counter` is how many ids of this millisecond were made before it, plus one. */
export function opencodeId(prefix: IdPrefix, timeMs: number, counter: number, randomHex: string): string {
  const stamp = (BigInt(Math.floor(timeMs)) * 4096n + BigInt(counter)) & MASK_48;
  const digits = (prefix === "ses" ? ~stamp & MASK_48 : stamp).toString(16).padStart(12, "0");
  return `${prefix}_${digits}${base62(randomHex)}`;
}

/** The millisecond an ascending id was made in, as opencode's `Identifier.timestamp` reads it back (the low 48 bits of it). */
export function idTimeBits(id: string): bigint | undefined {
  const digits = /^[a-z]+_([0-9a-f]{12})/.exec(id)?.[1];
  return digits === undefined ? undefined : BigInt(`0x${digits}`) / 4096n;
}

/** Makes the ids of one new session's rows, all of the same millisecond, in the order opencode would. */
export class IdMaker {
  private counter = 0;
  constructor(
    private readonly timeMs: number,
    private readonly random: () => string,
  ) {}
  next(prefix: IdPrefix): string {
    return opencodeId(prefix, this.timeMs, ++this.counter, this.random() + this.random() + this.random() + this.random());
  }
}
