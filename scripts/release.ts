/**
 * `bun run release [target…]`: self-contained binaries of the CLI for every platform we ship,
 * in dist/release/, with a SHA256SUMS file that `sha256sum -c` checks. Bun compiles for another
 * platform by fetching that platform's Bun from the npm registry (once; it is cached).
 * With target names (`bun run release linux-x64`), only those are built.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import packageJson from "../package.json" with { type: "json" };
import { errorMessage } from "../core/errors.ts";

const ROOT = join(import.meta.dir, "..");
export const RELEASE_DIR = join(ROOT, "dist", "release");

/** Our name for each platform, and Bun's. Only linux-x64 is run in CI; the rest are built, not run. */
export const TARGETS = {
  "linux-x64": "bun-linux-x64",
  "linux-arm64": "bun-linux-arm64",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
} as const;

export type Target = keyof typeof TARGETS;

export function isTarget(name: string): name is Target {
  return Object.hasOwn(TARGETS, name);
}

export function binaryName(target: Target): string {
  return `agent-${packageJson.version}-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

/**
 * The flags every build compiles with, `bun run build` (package.json, which a test holds to these)
 * and each release target: see the house notes on autoload and bytecode.
 * `--splitting`: what is loaded with `import()` (the prompts of `--pick`, the offline
 * engine) is a chunk of its own, with the built-in modules it imports; in one file those load at
 * every start (`node:readline` for the prompts: some milliseconds of every command).
 * The JIT's policy is set at run time, not here (cli/process/host.ts): the source run gets it
 * too, and a session of many megabytes sets the usual policy again.
 */
export const COMPILE_FLAGS = [
  "--compile",
  "--splitting",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
] as const;

function compile(target: Target): void {
  const outfile = join(RELEASE_DIR, binaryName(target));
  const args = ["build", join(ROOT, "cli", "index.ts"), ...COMPILE_FLAGS, `--target=${TARGETS[target]}`, "--outfile", outfile];
  const build = Bun.spawnSync([process.execPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) {
    process.stderr.write(build.stderr.toString());
    throw new Error(`bun build for ${target} failed (exit ${build.exitCode})`);
  }
}

function main(argv: string[]): number {
  const unknown = argv.filter((name) => !isTarget(name));
  if (unknown.length > 0) {
    process.stderr.write(`error: unknown target ${unknown.join(", ")} (targets: ${Object.keys(TARGETS).join(", ")})\n`);
    return 2;
  }
  const targets = argv.length > 0 ? argv.filter(isTarget) : (Object.keys(TARGETS) as Target[]);
  rmSync(RELEASE_DIR, { recursive: true, force: true });
  mkdirSync(RELEASE_DIR, { recursive: true });
  const sums: string[] = [];
  for (const target of targets) {
    const started = performance.now();
    compile(target);
    const name = binaryName(target);
    sums.push(
      `${createHash("sha256")
        .update(readFileSync(join(RELEASE_DIR, name)))
        .digest("hex")}  ${name}\n`,
    );
    process.stderr.write(`built ${join("dist", "release", name)} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  }
  writeFileSync(join(RELEASE_DIR, "SHA256SUMS"), sums.join(""));
  process.stderr.write(`wrote ${join("dist", "release", "SHA256SUMS")}\n`);
  return 0;
}

if (import.meta.main) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`error: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  }
}
