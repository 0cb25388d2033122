/**
 * CI's check of a release binary (`bun scripts/smoke-release.ts [target]`, default linux-x64):
 * run it as a user would, offline, on the bundled example in a scratch folder and HOME, and check
 * the exit status, the document on stdout and the new session on disk. Quick: one offline run.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import packageJson from "../package.json" with { type: "json" };
import { binaryName, isTarget, RELEASE_DIR, TARGETS, type Target } from "./release.ts";
import { errorMessage } from "../core/errors.ts";

const SECTIONS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "## Key Decisions",
  "## Critical Context",
  "## Next Steps",
  "## Session Facts",
];

function fail(message: string): never {
  throw new Error(message);
}

async function run(binary: string, args: string[], dir: string) {
  // An explicit environment: no key, no endpoint, a HOME of its own (so no config file is read).
  const proc = Bun.spawn([binary, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
    stdin: "ignore",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

async function smoke(target: Target): Promise<void> {
  const binary = join(RELEASE_DIR, binaryName(target));
  if (!existsSync(binary)) fail(`${binary} is missing (run bun run release first)`);
  const dir = mkdtempSync(join(tmpdir(), "agent-smoke-"));
  try {
    const version = await run(binary, ["--version"], dir);
    if (version.code !== 0 || version.stdout !== `${packageJson.version}\n`)
      fail(`--version: exit ${version.code}, ${JSON.stringify(version.stdout)}`);
    copyFileSync(join(import.meta.dir, "..", "fixtures", "example.jsonl"), join(dir, "source.jsonl"));
    const out = join(dir, "new.jsonl");
    const handoff = await run(binary, ["handoff", "source.jsonl", "--engine", "offline", "-o", out], dir);
    if (handoff.code !== 0) fail(`handoff exited ${handoff.code}: ${handoff.stderr.trim()}`);
    const missing = SECTIONS.filter((heading) => !handoff.stdout.split("\n").includes(heading));
    if (missing.length > 0) fail(`the document lacks ${missing.join(", ")}`);
    const [header, entry] = readFileSync(out, "utf8")
      .split("\n")
      .map((line) => (line ? JSON.parse(line) : undefined));
    if (header?.type !== "session" || entry?.customType !== "handoff" || !String(entry.content).includes("## Goal"))
      fail(`${out} is not a session starting with the handoff`);
    if (!readFileSync(join(dir, "source.jsonl"), "utf8").includes("## Next Steps")) fail("the handoff was not recorded in the source");
    process.stderr.write(`smoke test passed: ${join("dist", "release", binaryName(target))} handed off the example offline\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const target = process.argv[2] ?? "linux-x64";
if (!isTarget(target)) {
  process.stderr.write(`error: unknown target ${target} (targets: ${Object.keys(TARGETS).join(", ")})\n`);
  process.exitCode = 2;
} else {
  try {
    await smoke(target);
  } catch (error) {
    process.stderr.write(`error: smoke test of ${target} failed: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  }
}
