/**
 * `agent handoff` run twice in a folder: the session the first run wrote holds nothing but our
 * document, so it is not the newest work to hand off. For every agent's format, the second run
 * passes over it (and says so), naming it is exit 3 saying what it is, and once the user has
 * worked in it, it is a session like any other.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeFormats, type FileAgentName } from "../../../core/index.ts";
import { plantSession } from "../../../fixtures/agent-homes.ts";
import { cleanEnv, runAgent } from "../../../fixtures/run-agent.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SOURCE_ID = "d1000000-0000-4000-8000-000000000001";
const TIME = "2026-12-01T10:00:00.000Z";

/** A line of `agent`'s format saying `words` as `role`, after the line `last` (its parent, where the format chains lines). */
function lineOf(
  agent: FileAgentName,
  role: "user" | "assistant",
  words: string,
  last: Record<string, unknown>,
  n: number,
): Record<string, unknown> {
  if (agent === "codex") {
    const block = { type: role === "user" ? "input_text" : "output_text", text: words };
    return { timestamp: TIME, type: "response_item", payload: { type: "message", role, content: [block] } };
  }
  if (agent === "claude-code") {
    const message =
      role === "user"
        ? { role, content: words }
        : { id: "m9", type: "message", role, model: "claude-sonnet-4-5", content: [{ type: "text", text: words }] };
    return { ...last, type: role, uuid: `eeeeeeee-0000-4000-8000-00000000000${n}`, parentUuid: last.uuid, timestamp: TIME, message };
  }
  return {
    type: "message",
    id: `e000000${n}`,
    parentId: last.id,
    timestamp: TIME,
    message: { role, content: [{ type: "text", text: words }], timestamp: n },
  };
}

/** The user's next words and an answer, as `agent` appends them after the last line of `path`. */
function workLines(agent: FileAgentName, path: string): string {
  const last = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").at(-1) ?? "{}");
  const asked = lineOf(agent, "user", "Now add a health check.", last, 1);
  const answered = lineOf(agent, "assistant", "Added /healthz.", asked, 2);
  return `${JSON.stringify(asked)}\n${JSON.stringify(answered)}\n`;
}

function setUp(agent: FileAgentName) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "agent-twice-")));
  made.push(home);
  const project = join(home, "work", "shop");
  mkdirSync(project, { recursive: true });
  const source = plantSession(
    { home, env: {}, tmpdir: realpathSync(tmpdir()), runFolder: home },
    { agent, id: SOURCE_ID, cwd: project, mtime: 1_789_900_000 },
  );
  const env = cleanEnv(home);
  const handoff = (...args: string[]) => runAgent(["handoff", "--engine", "offline", "--no-record", ...args], env, project);
  return { home, project, source, handoff };
}

/** Every file under `dir`, for "nothing was written". */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** pi and omp record the source in the new session's header; Claude Code's and Codex's files have no place for it. */
const RECORDS_SOURCE: Record<FileAgentName, boolean> = { pi: true, omp: true, "claude-code": false, codex: false, gemini: false };

describe.each<FileAgentName>(["pi", "omp", "claude-code", "codex"])("%s: agent handoff twice in a folder", (agent) => {
  test("the second run hands off the source again, passing over what the first wrote, and says so", async () => {
    const { source, handoff } = setUp(agent);
    const first = await handoff("--json");
    expect(first.code).toBe(0);
    const written = JSON.parse(first.stdout);
    const second = await handoff("--json", "-v");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).sourceFile).toBe(source);
    const from = RECORDS_SOURCE[agent] ? " written from it" : "";
    expect(second.stderr).toContain(
      `: ${source} (the newer session ${written.sessionId} is a handoff session${from}, with nothing after the document yet)\n`,
    );
    expect(second.stderr).toContain(
      `debug: passed over ${written.sessionFile}: a handoff session${RECORDS_SOURCE[agent] ? ` written from ${source}` : ""}, with nothing after the document yet\n`,
    );
  });

  test("named by its path, by --session or by its id as the word: exit 3, saying it is a handoff session, nothing written", async () => {
    const { home, source, handoff } = setUp(agent);
    const written = JSON.parse((await handoff("--json")).stdout);
    const before = filesUnder(home);
    const from = RECORDS_SOURCE[agent] ? ` from ${source}` : "";
    const instead = RECORDS_SOURCE[agent] ? source : "the session it came from";
    for (const named of [[written.sessionFile], ["--session", written.sessionId], [written.sessionId.slice(0, 8)]]) {
      const run = await handoff(...named);
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 3, stdout: "" });
      expect(run.stderr).toEndWith(
        `Nothing to hand off: ${written.sessionFile} is a handoff session (agent handoff wrote it${from}) with nothing after the document yet; hand off ${instead} instead, or continue this one in its agent first\n`,
      );
    }
    expect(filesUnder(home)).toEqual(before);
  });

  test("when only handoff sessions are left: exit 2, saying so and where the newest came from", async () => {
    const { project, source, handoff } = setUp(agent);
    await handoff();
    const written = JSON.parse((await handoff("--json")).stdout);
    rmSync(source);
    const run = await handoff();
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" });
    const whence = RECORDS_SOURCE[agent] ? `was written from ${source}` : "agent handoff wrote";
    expect(run.stderr).toStartWith(`error: no session of ${describeFormats()} with work to hand off worked in ${project} (looked in `);
    expect(run.stderr).toContain(
      `; the 2 there are handoff sessions with nothing after the document yet (the newest, ${written.sessionId}, ${whence}); `,
    );
  });

  test("once the user worked in it, it is the newest session to hand off", async () => {
    const { handoff } = setUp(agent);
    const written = JSON.parse((await handoff("--json")).stdout);
    appendFileSync(written.sessionFile, workLines(agent, written.sessionFile));
    const run = await handoff("--json");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).sourceFile).toBe(written.sessionFile);
    expect(run.stdout).toContain("Now add a health check.");
  });
});
