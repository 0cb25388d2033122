import { expect, test } from "bun:test";
import packageJson from "../package.json" with { type: "json" };
import { COMPILE_FLAGS } from "./release.ts";

// One set of flags: a binary built with `bun run build` (what the tests and the benchmarks run)
// is built as the released ones are; the JIT policy is set at run time instead (cli/process/host.ts).
test("bun run build compiles with the release's flags", () => {
  expect(packageJson.scripts.build).toBe(`bun build cli/index.ts ${COMPILE_FLAGS.join(" ")} --outfile dist/agent`);
  expect(COMPILE_FLAGS.some((flag) => flag.startsWith("--compile-jit-policy"))).toBe(false);
});
