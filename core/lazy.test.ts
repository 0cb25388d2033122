import { expect, test } from "bun:test";
import { lazily, lazyWordSet } from "./lazy.ts";

test("a lazy value is built on first use, once, and not at all if never used", () => {
  let builds = 0;
  const value = lazily(() => ++builds);
  const unused = lazily(() => ++builds);
  expect(builds).toBe(0);
  expect([value(), value()]).toEqual([1, 1]);
  expect(builds).toBe(1);
  expect(typeof unused).toBe("function");
});

test("a lazy word set holds every word of every list", () => {
  const words = lazyWordSet("a b", "c");
  expect([...words()]).toEqual(["a", "b", "c"]);
  expect(words()).toBe(words());
});
