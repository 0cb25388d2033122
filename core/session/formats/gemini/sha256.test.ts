import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { SHA256_H0, SHA256_K, sha256Hex } from "./sha256.ts";

function firstPrimes(count: number): number[] {
  const primes: number[] = [];
  for (let n = 2; primes.length < count; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  return primes;
}

/** The first 32 bits of a number's fractional part. */
const fraction32 = (x: number) => Math.floor((x % 1) * 2 ** 32) >>> 0;

describe("sha256Hex", () => {
  test("its written-out constants are the fractional parts of the primes' roots FIPS 180-4 names", () => {
    const primes = firstPrimes(64);
    expect(SHA256_K).toEqual(primes.map((p) => fraction32(Math.cbrt(p))));
    expect(SHA256_H0).toEqual(primes.slice(0, 8).map((p) => fraction32(Math.sqrt(p))));
  });

  // FIPS 180-4's examples (one block, two blocks) and the empty string, and a path as Gemini hashes one.
  test.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    ["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
  ])("%j hashes to its published digest", (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  // Around each padding boundary (55/56 bytes fit or spill a block), and text that is not ASCII.
  const lengths = [1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000];
  test.each([
    ...lengths.map((n): [string, string] => [`${n} bytes`, "a".repeat(n)]),
    ["a path with accents and an emoji", "/home/zoë/проект/🚀 app"],
  ])("%s: the same digest as node:crypto", (_, text) => {
    expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });
});
