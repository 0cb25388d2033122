import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, REPO, runAgent } from "../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";

const sandbox = useHandoffSandbox();
const V1 = join(REPO, "fixtures", "sessions", "v1.jsonl");
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** Lines a JSON round trip would change: each must come back byte for byte, ids aside. */
const ODD_LINES = [
  '{"type":"custom","customType":"big","data":{"n":12345678901234567890,"m":-9007199254740993,"f":1.0,"e":1e5,"E":1E+5,"z":-0}}',
  '{"type":"custom","customType":"escapes","data":{"u":"caf\\u00e9 \\ud83d\\ude00","s":"\\/path","order":{"z":1,"a":2,"m":3}}}',
  '{"type": "custom" , "customType" : "spaced", "data" : [ 1 , 2.50 ]}',
];
/** A value no recursive serialiser survives (a RangeError, once). */
const DEEP_LINE = `{"type":"custom","customType":"deep","data":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;

/** fixtures/sessions/v1.jsonl with `extra` lines after its first message. */
function v1Source(extra: readonly string[] = []): { path: string; lines: string[] } {
  const lines = readFileSync(V1, "utf8").trimEnd().split("\n");
  lines.splice(2, 0, ...extra);
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return { path, lines };
}

const hex = (n: number) => n.toString(16).padStart(8, "0");

/** What version 3 adds to a v1 line, done by hand: ids after `type`, and the compaction's kept id. */
function expectedV3(lines: string[]): string[] {
  const [header = "", ...entries] = lines;
  const compactionIndex = (line: string) => /"firstKeptEntryIndex":(\d+)/.exec(line)?.[1];
  return [
    header.replace('{"type":"session"', '{"type":"session","version":3'),
    ...entries.map((line, i) => {
      const ids = `"id":"${hex(i + 1)}","parentId":${i === 0 ? "null" : `"${hex(i)}"`}`;
      let out = line.replace(/^\{"type": ?("[a-z_]+") ?/, (whole) => `${whole.trimEnd()},${ids}${whole.endsWith(" ") ? " " : ""}`);
      const index = compactionIndex(line);
      if (index)
        out = out.replace(`"firstKeptEntryIndex":${index}`, `"firstKeptEntryIndex":${index},"firstKeptEntryId":"${hex(Number(index))}"`);
      return out;
    }),
  ];
}

describe("a version 1 source upgraded to record the handoff", () => {
  test.each([
    ["big integers, 1.0, 1e5, escapes, key order, spacing", ODD_LINES],
    ["a value nested 100,000 deep", [DEEP_LINE]],
  ])("keeps every line byte for byte, adding only what version 3 needs: %s", async (_, extra) => {
    const { path, lines } = v1Source(extra);
    const run = await runAgent(["handoff", path, "--engine", "offline", "-o", join(sandbox.dir, "new.jsonl")], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("upgraded to session format version 3");
    expect(run.stderr).not.toContain("error");
    const after = readFileSync(path, "utf8").split("\n");
    expect(after.at(-1)).toBe("");
    const written = after.slice(0, -1);
    // The source's own lines, then ours: the instruction, the answer and the model entry.
    expect(written).toHaveLength(lines.length + 3);
    const expected = expectedV3(lines);
    // Line by line, so a failure names the line (the deep one is 200,000 characters).
    for (const [i, line] of written.slice(0, -3).entries()) expect([i, line === expected[i]]).toEqual([i, true]);
    const turn = written.slice(-3, -1).map((line) => JSON.parse(line));
    expect(turn.map((e) => e.message.role)).toEqual(["user", "assistant"]);
    expect(JSON.parse(written.at(-1) ?? "{}").type).toBe("model_change");
    expect(turn[0].parentId).toBe(hex(lines.length - 1));
  });

  /** [the file's shape, the file made from its lines]: every byte of it must stay but what version 3 adds. */
  const SHAPES: [name: string, shape: (lines: readonly string[]) => string][] = [
    ["CRLF line ends", (lines) => lines.map((l) => `${l}\r\n`).join("")],
    ["mixed line ends", (lines) => lines.map((l, i) => `${l}${i % 2 ? "\r\n" : "\n"}`).join("")],
    ["a byte-order mark", (lines) => `\ufeff${lines.map((l) => `${l}\n`).join("")}`],
    ["a byte-order mark and CRLF", (lines) => `\ufeff${lines.map((l) => `${l}\r\n`).join("")}`],
    ["blank lines before, between and after", (lines) => `\n${lines.map((l, i) => `${l}\n${i === 1 ? "\n\n" : ""}`).join("")}\n`],
    ["blank CRLF lines and lines of blanks", (lines) => lines.map((l, i) => `${l}\r\n${i === 2 ? "\r\n   \n\t\r\n" : ""}`).join("")],
    ["no final line break (one is added)", (lines) => lines.join("\n")],
  ];

  test.each(SHAPES)("keeps the file's own bytes: %s", async (name, shape) => {
    const { path, lines } = v1Source();
    writeFileSync(path, shape(lines));
    const run = await runAgent(["handoff", path, "--engine", "offline", "-o", join(sandbox.dir, "new.jsonl")], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("upgraded to session format version 3");
    const after = readFileSync(path, "utf8");
    const kept = shape(expectedV3(lines)) + (name.startsWith("no final") ? "\n" : "");
    expect(after.slice(0, kept.length)).toBe(kept);
    // Ours follow: the instruction, the answer and the model entry, each ended by "\n".
    const turn = after.slice(kept.length).split("\n");
    expect(turn).toHaveLength(4);
    expect(turn.slice(0, 2).map((line) => JSON.parse(line).message.role)).toEqual(["user", "assistant"]);
    expect(JSON.parse(turn[2] ?? "").type).toBe("model_change");
  });

  test("a source changed while the model wrote is not rewritten, and says so", async () => {
    const { path } = v1Source();
    const changed = `${readFileSync(path, "utf8")}{"type":"label","timestamp":"2026-11-29T10:00:00.000Z","label":"x"}\n`;
    const s = sandbox.serve(() => {
      writeFileSync(path, changed);
      return { text: "## Goal\nx" };
    });
    const run = await runAgent(["handoff", path, "--no-facts", "-o", join(sandbox.dir, "new.jsonl")], sandbox.env(s.url));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("changed while we worked");
    expect(readFileSync(path, "utf8")).toBe(changed);
  });

  const owners: [string, number, number, number][] = [
    ["nobody:nogroup 0640", NOBODY, NOBODY, 0o640],
    ["root:nogroup 0660", 0, NOBODY, 0o660],
    ["nobody:root 0604", NOBODY, 0, 0o604],
    ["nobody:nogroup 0600", NOBODY, NOBODY, 0o600],
    ["nobody:nogroup 0644 with setgid", NOBODY, NOBODY, 0o2644],
  ];
  test.skipIf(!isRoot).each(owners)("keeps its owner, group and mode: %s", async (_, uid, gid, mode) => {
    const { path } = v1Source();
    chownSync(path, uid, gid);
    chmodSync(path, mode);
    const run = await runAgent(["handoff", path, "--engine", "offline", "-o", join(sandbox.dir, "new.jsonl")], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("upgraded to session format version 3");
    const stats = statSync(path);
    expect([stats.uid, stats.gid, (stats.mode & 0o7777).toString(8)]).toEqual([uid, gid, mode.toString(8)]);
    expect(readdirSync(sandbox.dir).sort()).toEqual(["new.jsonl", "source.jsonl"]);
  });

  test.skipIf(!isRoot)("run as a user who cannot give the file its owner back: not recorded, one line, the source untouched", async () => {
    const { path } = v1Source();
    chownSync(path, 12345, 12345);
    chmodSync(path, 0o666);
    chmodSync(sandbox.dir, 0o777);
    chmodSync(sandbox.home, 0o777);
    const original = readFileSync(path);
    const out = join(sandbox.dir, "new.jsonl");
    const env = cleanEnv(sandbox.home, { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" });
    const proc = Bun.spawn(
      [
        "setpriv",
        `--reuid=${NOBODY}`,
        `--regid=${NOBODY}`,
        "--clear-groups",
        ...CLI_ARGV,
        "handoff",
        path,
        "--engine",
        "offline",
        "-o",
        out,
      ],
      { env, cwd: REPO, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
    );
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    const warnings = stderr.split("\n").filter((line) => line.startsWith("warning:"));
    expect(warnings).toEqual([
      `warning: ${path}: not recorded in the source: ${path}: the rewrite could not keep its owner (uid 12345, gid 12345): operation not permitted`,
    ]);
    expect(readFileSync(path).equals(original)).toBe(true);
    expect(statSync(path).uid).toBe(12345);
    expect(readdirSync(sandbox.dir).sort()).toEqual(["new.jsonl", "source.jsonl"]);
  });
});
