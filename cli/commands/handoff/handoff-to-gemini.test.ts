/**
 * `--to gemini`: the new session goes in the chats folder Gemini CLI's `projects.json` names for
 * the source's cwd, and only the entry Gemini itself would add for a new cwd is added (the rest of
 * the file byte for byte as it was); a list Gemini could not read is refused before anything is
 * written; while Gemini holds its lock the write waits, then fails with nothing left.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const CWD = "/home/dev/Shop App";
const SOURCE = "fixtures/real/codex/rollout.jsonl";

/** The Codex transcript, its cwd moved to CWD, in the sandbox. */
function source(): string {
  const text = readFileSync(join(REPO, SOURCE), "utf8").replaceAll("/tmp/agent-compat/codex-transcript/project", CWD);
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, text);
  return path;
}

/** Every file under `dir`, as paths, sorted. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

const projects = () => join(sandbox.home, ".gemini", "projects.json");

async function toGemini() {
  const run = await runAgent(["handoff", source(), "--to", "gemini", "--engine", "offline", "--json"], cleanEnv(sandbox.home));
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : undefined };
}

describe("agent handoff --to gemini", () => {
  test.each<[string, string | undefined, string, string | undefined]>([
    // [case, projects.json before, the folder, projects.json after (undefined: unchanged)]
    [
      "no projects.json: the folder's name from the cwd, and the file Gemini would make",
      undefined,
      "shop-app",
      `{\n  "projects": {\n    "${CWD}": "shop-app"\n  }\n}`,
    ],
    [
      "another project holds the name: the next one, the other entry kept as it was",
      `{"projects":{"/srv/shop-app":"shop-app"},"extra":1}`,
      "shop-app-1",
      `{\n  "projects": {\n    "/srv/shop-app": "shop-app",\n    "${CWD}": "shop-app-1"\n  },\n  "extra": 1\n}`,
    ],
    ["the cwd already has a folder: that one, the file untouched", `{"projects":{"${CWD}":"mine"}}`, "mine", undefined],
  ])("%s", async (_, before, folder, after) => {
    if (before !== undefined) {
      mkdirSync(dirname(projects()), { recursive: true });
      writeFileSync(projects(), before);
    }
    const run = await toGemini();
    expect(run.code).toBe(0);
    expect(dirname(run.json.sessionFile)).toBe(join(sandbox.home, ".gemini", "tmp", folder, "chats"));
    expect(run.json.sessionFile).toEndWith(`-${run.json.sessionId.slice(0, 8)}.jsonl`);
    expect(run.json.resume).toEqual({ argv: ["gemini", "-r", run.json.sessionId], cwd: CWD });
    expect(readFileSync(projects(), "utf8")).toBe(after ?? before ?? "");
    // Only the session and the list: Gemini makes its own markers (.project_root) when it starts.
    expect(filesIn(join(sandbox.home, ".gemini"))).toEqual([projects(), run.json.sessionFile].sort());
  });

  test.each([
    ["another path's marker", "/srv/shop-app", "shop-app-1"],
    ["no marker (Gemini marks it and takes it)", undefined, "shop-app"],
    ["the cwd's own marker", CWD, "shop-app"],
  ])("a folder of that name already there, with %s: the folder Gemini would take", async (_, owner, folder) => {
    const existing = join(sandbox.home, ".gemini", "tmp", "shop-app");
    mkdirSync(existing, { recursive: true });
    if (owner !== undefined) writeFileSync(join(existing, ".project_root"), owner);
    const run = await toGemini();
    expect(run.code).toBe(0);
    expect(dirname(run.json.sessionFile)).toBe(join(sandbox.home, ".gemini", "tmp", folder, "chats"));
    expect(JSON.parse(readFileSync(projects(), "utf8"))).toEqual({ projects: { [CWD]: folder } });
  });

  test.each([
    ["not JSON", "{"],
    ["no projects", `{"other":{}}`],
    ["a folder name Gemini refuses", `{"projects":{"/a":"Upper Case"}}`],
  ])("a projects.json Gemini would start afresh (%s): exit 2 naming it before the engine runs, nothing written", async (_, text) => {
    mkdirSync(dirname(projects()), { recursive: true });
    writeFileSync(projects(), text);
    const run = await toGemini();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`\nerror: ${projects()}: not a Gemini CLI project list`);
    expect(readFileSync(projects(), "utf8")).toBe(text);
    expect(filesIn(join(sandbox.home, ".gemini"))).toEqual([projects()]);
  });

  test("Gemini holding its lock on projects.json past 2 s: exit 1, the new session removed, the list as it was", async () => {
    mkdirSync(`${projects()}.lock`, { recursive: true });
    const run = await toGemini();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("stayed locked");
    expect(filesIn(join(sandbox.home, ".gemini"))).toEqual([]);
  });
});
