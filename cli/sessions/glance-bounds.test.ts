/**
 * What a glance reads, counted at its one read boundary (glance-read.ts): every agent's file,
 * plain or compressed, ordinary or broken, costs at most its two ends, a first line is read once
 * and given up on past 256 KiB, and no byte is read twice (a wider head for a glance that found
 * no folder reads on from where the first stopped; a file two agents share a folder for is read
 * once). The time this saves is in `bun bench/ls.ts`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zstdCompressSync } from "node:zlib";
import { FILE_FORMATS, formatNamed, type FileAgentName } from "../../core/index.ts";
import { plantSession, transcriptAs } from "../../fixtures/agent-homes.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { discoverSessions } from "./discover.ts";
import { MAX_FIRST_LINE_BYTES } from "./glance-file.ts";
import { glanceReads } from "./glance-read.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const AGENTS: FileAgentName[] = ["pi", "omp", "claude-code", "codex"];
/** The most an ordinary glance reads: 64 KiB from each end, and one byte before the tail. */
const ENDS = 2 * 64 * KiB + 1;

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-glance-")));
  made.push(dir);
  return dir;
}

/** `head`, then a hole of NUL bytes (no disk, no newline) up to `size` less `tail`, then `tail`. */
function writeSparse(path: string, head: string, size: number, tail = ""): void {
  const fd = openSync(path, "w");
  try {
    writeSync(fd, head);
    ftruncateSync(fd, size - Buffer.byteLength(tail));
    if (tail !== "") writeSync(fd, tail, size - Buffer.byteLength(tail));
  } finally {
    closeSync(fd);
  }
}

/** A home with one session file of `agent` in `app`, written by `write`; what a discovery of that folder reads and finds. */
function glanceOne(agent: FileAgentName, write: (path: string, transcript: string) => void) {
  const home = scratch();
  const app = join(home, "app");
  mkdirSync(app);
  const id = "d1000000-0000-4000-8000-000000000001";
  const path = plantSession({ home, env: {}, tmpdir: home, runFolder: home }, { agent, id, cwd: app, mtime: 1_789_900_000 });
  write(path, transcriptAs(agent, id, app));
  utimesSync(path, 1_789_900_000, 1_789_900_000);
  const before = { ...glanceReads };
  const notes: string[] = [];
  const found = discoverSessions({ home, env: {}, tmpdir: home, runFolder: home }, { formats: FILE_FORMATS, cwd: app }, (line) =>
    notes.push(line),
  );
  return {
    path,
    bytes: glanceReads.bytes - before.bytes,
    text: glanceReads.text - before.text,
    listed: found.sessions.map((s) => s.glance.id),
    title: found.sessions[0]?.glance.title,
    notes,
    id,
  };
}

/** The agent's real first line, cut before its end: a line that never ends. */
const openFirstLine = (transcript: string) => transcript.slice(0, transcript.indexOf("\n") - 10);
const lastLine = (transcript: string) => `\n${transcript.trimEnd().split("\n").at(-1)}\n`;
/** The last `count` lines (Claude Code's last conversation line lies a few bookkeeping lines up). */
const lastLines = (transcript: string, count: number) => `\n${transcript.trimEnd().split("\n").slice(-count).join("\n")}\n`;

const idIn = (text: string) => text.match(/"sessionId":"([^"]+)"/)?.[1];
/** Claude Code's bookkeeping lines (queued prompts: a session id, no folder) of 10 KiB each, `bytes` of them. */
const queued = (text: string, bytes: number) =>
  Array.from(
    { length: bytes / (10 * KiB) },
    () =>
      `${JSON.stringify({ type: "queue-operation", operation: "enqueue", sessionId: idIn(text), content: "x".repeat(10 * KiB - 120) })}\n`,
  ).join("");

describe("a glance reads each file's ends, once", () => {
  test.each(AGENTS)("%s: an ordinary 40 MB session costs its two ends", (agent) => {
    const seen = glanceOne(agent, (path, text) => writeSparse(path, text, 40 * MiB, lastLine(text)));
    expect(seen.listed).toEqual([seen.id]);
    expect(seen.bytes).toBeLessThanOrEqual(ENDS);
  });

  test.each<[FileAgentName, boolean]>([
    ["pi", false],
    ["omp", false],
    ["claude-code", true],
    ["codex", false],
  ])("%s: a 40 MB file whose first line never ends: 256 KiB and the tail read, listed from its last lines: %p", (agent, listed) => {
    const seen = glanceOne(agent, (path, text) => writeSparse(path, openFirstLine(text), 40 * MiB, lastLines(text, 8)));
    expect(seen.listed).toEqual(listed ? [seen.id] : []);
    expect(seen.bytes).toBe(MAX_FIRST_LINE_BYTES + 64 * KiB + 1);
    expect(seen.notes).toEqual([
      `${seen.path}: its first line does not end within 256 KiB; ${listed ? "listed from its last lines" : "not read as a session"} (name its path to read it whole)`,
    ]);
  });

  test.each(AGENTS)("%s: compressed, a first line that never ends is given up on after 256 KiB of text", (agent) => {
    const seen = glanceOne(agent, (path, text) =>
      writeFileSync(path, zstdCompressSync(Buffer.concat([Buffer.from(openFirstLine(text)), Buffer.alloc(64 * MiB, 0x61)]))),
    );
    expect(seen.listed).toEqual([]);
    expect(seen.text).toBeLessThanOrEqual(MAX_FIRST_LINE_BYTES + 64 * KiB);
    expect(seen.notes).toEqual([
      `${seen.path}: it has no line break in its first 256 KiB of text; not read as a session (name its path to read it whole)`,
    ]);
  });

  test("a Claude Code session whose first 64 KiB name no folder: the wider head is read on, not again", () => {
    // Bookkeeping lines with no cwd first (as a long queued prompt makes), then the conversation.
    const seen = glanceOne("claude-code", (path, text) => writeSparse(path, `${queued(text, 200 * KiB)}${text}`, 40 * MiB, lastLine(text)));
    expect(seen.listed).toEqual([seen.id]);
    // More than the ends (the wider head was read), less than the ends and the wider head again (it was read on).
    expect(seen.bytes).toBeGreaterThan(ENDS);
    expect(seen.bytes).toBeLessThanOrEqual(MiB + 64 * KiB + 1);
  });

  test("the same, in a file of 300 KB: the wider head reaches the tail, and the file is read whole, once", () => {
    let size = 0;
    const seen = glanceOne("claude-code", (path, text) => {
      const titled = JSON.stringify({ type: "custom-title", customTitle: "The title, on the last line", sessionId: idIn(text) });
      const head = `${queued(text, 150 * KiB)}${text}`;
      const whole = `${head}${"\n".repeat(300 * KiB - head.length - titled.length - 1)}${titled}\n`;
      size = Buffer.byteLength(whole);
      writeFileSync(path, whole);
    });
    expect(seen.listed).toEqual([seen.id]);
    expect(seen.title).toBe("The title, on the last line");
    expect(seen.bytes).toBeGreaterThanOrEqual(size);
    expect(seen.bytes).toBeLessThanOrEqual(size + 1);
  });

  test.each([
    ["a 25 KB first line (a real session_meta's size)", 25_000, true],
    ["a first line of 64 KiB", 64 * KiB, true],
    ["a first line whose newline is its 256 KiB-th byte", MAX_FIRST_LINE_BYTES - 1, true],
    ["a first line one byte longer", MAX_FIRST_LINE_BYTES, false],
  ])("codex, %s: listed %p", (_, length, listed) => {
    const seen = glanceOne("codex", (path, text) => {
      const first = text.slice(0, text.indexOf("\n"));
      const padded = first.replace('"payload":{', `"payload":{"base_instructions":"${"i".repeat(length - first.length - 23)}",`);
      if (padded.length !== length) throw new Error(`a first line of ${padded.length}`);
      writeSparse(path, `${padded}${text.slice(text.indexOf("\n"))}`, 40 * MiB, lastLine(text));
    });
    expect(seen.listed.length).toBe(listed ? 1 : 0);
    expect(seen.bytes).toBeLessThanOrEqual(MAX_FIRST_LINE_BYTES + 64 * KiB + 1);
  });

  test("a file in the folder pi and omp share (PI_CODING_AGENT_DIR) is read once, for the agent its lines name", () => {
    const home = scratch();
    const app = join(home, "app");
    mkdirSync(app);
    const env = { PI_CODING_AGENT_DIR: join(home, "shared") };
    const id = "d2000000-0000-4000-8000-000000000002";
    const path = plantSession({ home, env, tmpdir: home, runFolder: home }, { agent: "omp", id, cwd: app, mtime: 1_789_900_000 });
    const text = transcriptAs("omp", id, app);
    writeSparse(path, text, 40 * MiB, lastLine(text));
    const before = glanceReads.bytes;
    const found = discoverSessions(
      { home, env, tmpdir: home, runFolder: home },
      { formats: [formatNamed("pi"), formatNamed("omp")], cwd: app },
      () => {},
    );
    expect(found.sessions.map((s) => [s.format.name, s.glance.id])).toEqual([["omp", id]]);
    expect(glanceReads.bytes - before).toBeLessThanOrEqual(ENDS);
  });
});

describe("agent ls beside files whose first line never ends", () => {
  test("lists every agent's ordinary session, passes over the broken ones, and names them at -v", async () => {
    const home = scratch();
    const app = join(home, "app");
    mkdirSync(app);
    const broken: string[] = [];
    AGENTS.forEach((agent, n) => {
      const ok = `e${n}000000-0000-4000-8000-000000000001`;
      plantSession({ home, env: {}, tmpdir: home, runFolder: home }, { agent, id: ok, cwd: app, mtime: 1_789_900_000 + n });
      const bad = `e${n}000000-0000-4000-8000-000000000002`;
      const path = plantSession({ home, env: {}, tmpdir: home, runFolder: home }, { agent, id: bad, cwd: app, mtime: 1_789_900_100 + n });
      const text = transcriptAs(agent, bad, app);
      writeSparse(path, openFirstLine(text), 40 * MiB);
      broken.push(path);
    });
    const run = await runAgent(["ls", "--json", "-v"], cleanEnv(home), app);
    expect(run.code).toBe(0);
    const listed: unknown = JSON.parse(run.stdout);
    expect(Array.isArray(listed) ? listed.map((s) => s.id).sort() : listed).toEqual(
      AGENTS.map((_, n) => `e${n}000000-0000-4000-8000-000000000001`),
    );
    for (const path of broken) expect(run.stderr).toContain(`${path}: its first line does not end within 256 KiB`);
  });
});
