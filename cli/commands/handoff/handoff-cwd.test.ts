/**
 * A source's cwd names the target agent's folder and the resume command's folder: it is read
 * once, checked and normalised (core/session/cwd.ts). A relative one counts as none; an
 * absolute one is spelled one way. Every target, with the offline engine and a HOME of its own.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

/** fixtures/example.jsonl (pi) with its header's cwd replaced, or removed. */
function sourceWithCwd(cwd: string | undefined): string {
  const [header = "", ...rest] = readFileSync(join(REPO, "fixtures", "example.jsonl"), "utf8").split("\n");
  const parsed = JSON.parse(header);
  if (cwd === undefined) delete parsed.cwd;
  else parsed.cwd = cwd;
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, `${JSON.stringify(parsed)}\n${rest.join("\n")}`);
  return path;
}

/** The folder each target files a session of `/tmp/x/proj` in, under the test's HOME. */
const FOLDER: Record<string, (home: string) => string> = {
  omp: (home) => join(home, ".omp", "agent", "sessions", "-tmp-x-proj"),
  claude: (home) => join(home, ".claude", "projects", "-tmp-x-proj"),
  codex: (home) => join(home, ".codex", "sessions"),
};

const ABSOLUTE = ["/tmp/x/proj", "//tmp//x/./proj/", "/tmp/x/../x/proj", "/tmp/x/proj/."];
const NONE = [undefined, "proj", ".", "./proj", "~/proj", ""];

describe("the source's cwd, normalised: one folder, one spelling, for every target", () => {
  const rows = ["pi", "omp", "claude", "codex"].flatMap((to) => ABSOLUTE.map((cwd) => [to, cwd] as const));
  test.each(rows)("--to %s, cwd %p", async (to, cwd) => {
    const src = sourceWithCwd(cwd);
    const run = await runAgent(["handoff", src, "--no-record", "--engine", "offline", "--to", to, "--json", "-q"], cleanEnv(sandbox.home));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.resume.cwd).toBe("/tmp/x/proj");
    const folder = FOLDER[to];
    if (folder) expect(out.sessionFile.startsWith(`${folder(sandbox.home)}/`)).toBe(true);
    else expect(out.sessionFile.startsWith(`${sandbox.dir}/`)).toBe(true);
    expect(readFileSync(out.sessionFile, "utf8")).toContain('"cwd":"/tmp/x/proj"');
  });
});

describe("a relative cwd counts as none, as a missing one does", () => {
  const rows = ["pi", "omp", "claude", "codex"].flatMap((to) => NONE.map((cwd) => [to, cwd] as const));
  test.each(rows)("--to %s, cwd %p", async (to, cwd) => {
    const src = sourceWithCwd(cwd);
    const run = await runAgent(["handoff", src, "--no-record", "--engine", "offline", "--to", to, "--json", "-q"], cleanEnv(sandbox.home));
    if (to === "pi") {
      // Beside the source, as pi opens a file anywhere; no folder to continue in.
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      expect(out.resume.cwd).toBeNull();
      expect(readFileSync(out.sessionFile, "utf8").split("\n")[0]).not.toContain('"cwd"');
      return;
    }
    const label = { omp: "omp", claude: "Claude Code", codex: "Codex" }[to];
    expect(run.stderr).toBe(
      `error: the session records no working directory (or not an absolute one), so there is no ${label} folder for it; say where the new session goes with -o\n`,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    for (const agent of [".omp", ".claude", ".codex"]) expect(existsSync(join(sandbox.home, agent))).toBe(false);
  });
});
