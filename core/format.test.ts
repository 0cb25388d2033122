import { expect, test } from "bun:test";
import { formatCount } from "./format.ts";

test.each([
  [0, "0"],
  [999, "999"],
  [12345, "12,345"],
  [1234567, "1,234,567"],
])("formatCount(%p) is %p", (n, expected) => {
  expect(formatCount(n)).toBe(expected);
});
