import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAgentError } from "../errors.ts";
import { createRedactor, redactValue } from "../handoff/redact.ts";
import { buildRequest } from "../llm/request.ts";
import { analyzeBranch, describeSessionProblems } from "./analyze.ts";
import { parseSession } from "./parse.ts";
import { buildInspectReport, renderInspectReport } from "./report.ts";

/**
 * Mutation fuzzing of the session reader: thousands of broken variants of the fixture sessions
 * go through everything `agent inspect` and `agent handoff --dry-run` do in-process. Each must
 * either load or be refused with an AgentError; nothing else (TypeError, RangeError, a hang)
 * may come out. Deterministic: a failure names its case, and `FUZZ_SEED=<n>` replays a run.
 * `FUZZ_SCALE=10` runs ten times as many cases.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20261129);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);

/** sfc32: a small, fast, seedable PRNG (the test must not depend on Math.random). */
function createRng(seed: number) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  };
  return { next, int, pick };
}
type Rng = ReturnType<typeof createRng>;

// ---------------------------------------------------------------------------------------------
// Seeds: every session-like fixture in fixtures/ (the hand-made ones and fixtures/sessions/**).

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures");
const SEEDS = [...new Glob("**/*.jsonl").scanSync({ cwd: FIXTURES, onlyFiles: true })]
  .sort()
  .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(FIXTURES, name))) }))
  .filter((seed) => seed.bytes.length < 1_000_000);

const encoder = new TextEncoder();
/** Decoded exactly as the CLI decodes a file (invalid UTF-8 becomes U+FFFD). */
const decode = (bytes: Uint8Array): string => Buffer.from(bytes).toString("utf8");
const linesOf = (bytes: Uint8Array): string[] => decode(bytes).split("\n");
const join_ = (lines: string[]): string => lines.join("\n");

/** Every path to a value inside a JSON value (objects and arrays), root excluded. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i]);
      paths(item, [...prefix, i], out);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push([...prefix, key]);
      paths(item, [...prefix, key], out);
    }
  }
  return out;
}

/** Sets `path` inside a parsed JSON value (a fresh parse, so mutation is fine). */
function setAt(root: unknown, path: readonly (string | number)[], replacement: unknown): void {
  let node: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (typeof node !== "object" || node === null) return;
    node = Reflect.get(node, path[i] ?? "");
  }
  const last = path.at(-1);
  if (typeof node === "object" && node !== null && last !== undefined) Reflect.set(node, last, replacement);
}

function tryParse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

// Raw JSON that JSON.stringify cannot write: placed as a marker string, then swapped in.
const RAW = "\u0000RAW\u0000";
const deepArrays = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const deepObjects = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const RAW_VALUES = [
  "1e308",
  "-1e308",
  "1e400",
  "-1e400",
  "123456789012345678901234567890123456789",
  "-0",
  "9007199254740993",
  "4.9e-324",
  deepArrays(10_000),
  deepObjects(10_000),
  '"\\ud800\\udfff\\udc00"',
  '"\\u0000\\u0001\\u001f"',
];

/** One replacement of each JSON type, for "every field becomes every other type". */
const TYPE_SWAPS: unknown[] = [
  "x",
  "",
  5,
  -1,
  0,
  null,
  true,
  [],
  {},
  [{}],
  { type: "text" },
  "</summary>",
  "blob:sha256:zz",
];

/** One value of each JSON type. */
const CORE_TYPES: unknown[] = ["x", 5, null, true, [], {}];

function rawReplace(line: unknown, path: readonly (string | number)[], raw: string): string {
  setAt(line, path, RAW);
  return JSON.stringify(line).replace(JSON.stringify(RAW), raw);
}

// ---------------------------------------------------------------------------------------------
// Mutators: each turns one seed into one broken variant.

interface Seed {
  name: string;
  bytes: Uint8Array;
}
type Mutator = (rng: Rng, seed: Seed) => Uint8Array | string;

/** Line-level edit on a random line that parses as JSON; the seed unchanged when there is none. */
function onJsonLine(rng: Rng, seed: Seed, edit: (value: unknown, lines: string[], index: number) => string): string {
  const lines = linesOf(seed.bytes);
  const candidates = lines.map((line, i) => [i, tryParse(line)] as const).filter(([, v]) => typeof v === "object" && v !== null);
  if (candidates.length === 0) return join_(lines);
  const [index, value] = rng.pick(candidates);
  lines[index] = edit(value, lines, index);
  return join_(lines);
}

const INVALID_UTF8 = [[0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0x80], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80], [0x00], [0x00, 0x00, 0x0a]];

const MUTATORS: Record<string, Mutator> = {
  "bit flips": (rng, seed) => {
    const bytes = seed.bytes.slice();
    for (let i = 1 + rng.int(8); i > 0 && bytes.length > 0; i--) {
      const at = rng.int(bytes.length);
      bytes[at] = (bytes[at] ?? 0) ^ (1 << rng.int(8));
    }
    return bytes;
  },
  "truncation at a random byte": (rng, seed) => seed.bytes.slice(0, rng.int(seed.bytes.length + 1)),
  "invalid UTF-8 and NUL bytes": (rng, seed) => {
    let bytes = seed.bytes;
    for (let i = 1 + rng.int(4); i > 0; i--) {
      const at = rng.int(bytes.length + 1);
      const insert = rng.pick(INVALID_UTF8);
      const next = new Uint8Array(bytes.length + insert.length);
      next.set(bytes.subarray(0, at));
      next.set(insert, at);
      next.set(bytes.subarray(at), at + insert.length);
      bytes = next;
    }
    return bytes;
  },
  "random byte runs": (rng, seed) => {
    const bytes = seed.bytes.slice();
    const at = rng.int(bytes.length + 1);
    for (let i = at; i < Math.min(bytes.length, at + 1 + rng.int(64)); i++) bytes[i] = rng.int(256);
    return bytes;
  },
  "line duplicated": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const at = rng.int(lines.length);
    lines.splice(rng.int(lines.length + 1), 0, ...Array<string>(1 + rng.int(3)).fill(lines[at] ?? ""));
    return join_(lines);
  },
  "line deleted": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    lines.splice(rng.int(lines.length), 1 + rng.int(2));
    return join_(lines);
  },
  "lines swapped": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const i = rng.int(lines.length);
    const j = rng.int(lines.length);
    [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
    return join_(lines);
  },
  "lines shuffled": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
    }
    return join_(lines);
  },
  "line spliced from another fixture": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const donor = linesOf(rng.pick(SEEDS).bytes);
    lines.splice(rng.int(lines.length + 1), 0, rng.pick(donor));
    return join_(lines);
  },
  "two lines cut and joined": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const i = rng.int(lines.length);
    const a = lines[i] ?? "";
    const b = rng.pick(linesOf(rng.pick(SEEDS).bytes));
    lines[i] = a.slice(0, rng.int(a.length + 1)) + b.slice(rng.int(b.length + 1));
    return join_(lines);
  },
  "header repeated mid-file": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const header = lines.find((l) => l.includes('"type":"session"')) ?? lines[0] ?? "";
    lines.splice(1 + rng.int(lines.length), 0, header);
    return join_(lines);
  },
  "header replaced by a line from any fixture": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const at = Math.max(0, lines.findIndex((l) => l.includes('"type":"session"')));
    lines[at] = rng.pick(linesOf(rng.pick(SEEDS).bytes));
    return join_(lines);
  },
  "line endings changed": (rng, seed) => {
    const text = decode(seed.bytes);
    return rng.pick([text.replaceAll("\n", "\r\n"), text.replaceAll("\n", "\r"), text.replaceAll("\n", "\n\n \t\n"), text.replaceAll("\n", "")]);
  },
  "a field's type swapped": (rng, seed) =>
    onJsonLine(rng, seed, (value) => {
      const all = paths(value);
      if (all.length > 0) setAt(value, rng.pick(all), rng.pick(TYPE_SWAPS));
      return JSON.stringify(value);
    }),
  "a whole line's type swapped": (rng, seed) => onJsonLine(rng, seed, () => JSON.stringify(rng.pick(TYPE_SWAPS))),
  "huge numbers, deep nesting, odd escapes": (rng, seed) =>
    onJsonLine(rng, seed, (value) => {
      const all = paths(value);
      return all.length === 0 ? JSON.stringify(value) : rawReplace(value, rng.pick(all), rng.pick(RAW_VALUES));
    }),
  "duplicate ids": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const ids = lines.map(tryParse).flatMap((v) => (typeof v === "object" && v !== null && "id" in v ? [v.id] : []));
    return onJsonLine(rng, { name: seed.name, bytes: encoder.encode(join_(lines)) }, (value) => {
      if (typeof value === "object" && value !== null) {
        Reflect.set(value, rng.pick(["id", "parentId"]), ids.length > 0 ? rng.pick(ids) : "x");
      }
      return JSON.stringify(value);
    });
  },
  "entries reordered into cycles": (rng, seed) => {
    const lines = linesOf(seed.bytes);
    const values = lines.map(tryParse);
    const ids = values.flatMap((v) => (typeof v === "object" && v !== null && "id" in v ? [v.id] : []));
    return values
      .map((v, i) => {
        if (typeof v !== "object" || v === null || !("parentId" in v) || rng.next() < 0.5) return lines[i] ?? "";
        Reflect.set(v, "parentId", rng.pick(ids));
        return JSON.stringify(v);
      })
      .join("\n");
  },
};

// ---------------------------------------------------------------------------------------------
// The property: load or refuse, never crash, and a loaded session goes all the way to a request.

interface Outcome {
  loaded: number;
  refused: number;
  failures: string[];
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const where = error.stack?.split("\n").find((l) => l.includes("/core/")) ?? "";
  return `${error.name}: ${error.message.slice(0, 200)} ${where.trim()}`;
}

function exercise(input: Uint8Array | string, label: string, outcome: Outcome, rng: Rng, redact = true): void {
  const text = typeof input === "string" ? input : decode(input);
  let session: ReturnType<typeof parseSession>;
  try {
    session = parseSession(text, "fuzz.jsonl");
  } catch (error) {
    if (isAgentError(error)) outcome.refused++;
    else outcome.failures.push(`${label}: parseSession threw ${describeError(error)}`);
    return;
  }
  outcome.loaded++;
  try {
    const analysis = analyzeBranch(session);
    const report = buildInspectReport("fuzz.jsonl", session, analysis, describeSessionProblems(session, analysis));
    renderInspectReport(report);
    JSON.stringify(report);
    const request = buildRequest({ model: "m", systemPrompt: "s", context: analysis.context, instruction: "hand off" });
    JSON.stringify(redact ? redactValue(request, createRedactor()) : request);
    // Another branch: any entry of the file can be a leaf.
    const leaf = session.entries.length > 0 ? rng.pick(session.entries) : undefined;
    if (leaf) analyzeBranch(session, { leafId: leaf.id });
  } catch (error) {
    outcome.failures.push(`${label}: after loading, ${describeError(error)}`);
  }
}

const CASES_PER_MUTATOR = Math.ceil((10_000 * SCALE) / Object.keys(MUTATORS).length);

describe("fuzzing the session reader", () => {
  test("has seeds to mutate", () => {
    expect(SEEDS.length).toBeGreaterThanOrEqual(3);
    expect(SEEDS.map((s) => s.name)).toContain("example.jsonl");
  });

  let total = 0;
  test.each(Object.keys(MUTATORS))(
    `%s: ${CASES_PER_MUTATOR} cases load or are refused with an AgentError`,
    (name) => {
      const mutate = MUTATORS[name];
      if (!mutate) throw new Error(`no mutator ${name}`);
      const rng = createRng(SEED ^ hash(name));
      const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
      for (let i = 0; i < CASES_PER_MUTATOR; i++) {
        const seed = SEEDS[i % SEEDS.length];
        if (!seed) continue;
        exercise(mutate(rng, seed), `${name} #${i} of ${seed.name} (FUZZ_SEED=${SEED})`, outcome, rng);
      }
      total += outcome.loaded + outcome.refused + outcome.failures.length;
      expect(outcome.failures.slice(0, 10)).toEqual([]);
      // Both ways out were taken, or the mutator tests less than it claims.
      expect(outcome.loaded).toBeGreaterThan(0);
    },
    60_000,
  );

  test("every field of every fixture line, swapped to every other JSON type", () => {
    const rng = createRng(SEED);
    const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
    for (const seed of SEEDS.filter((s) => ["example.jsonl", "sessions/v3-branches.jsonl", "sessions/omp.jsonl", "sessions/v1.jsonl"].includes(s.name))) {
      const lines = linesOf(seed.bytes);
      lines.forEach((line, index) => {
        const parsed = tryParse(line);
        for (const path of paths(parsed)) {
          for (const replacement of CORE_TYPES) {
            const copy = tryParse(line);
            setAt(copy, path, replacement);
            const mutated = lines.slice();
            mutated[index] = JSON.stringify(copy);
            // Without redaction, which the random cases cover: it is most of the time per case.
            exercise(join_(mutated), `${seed.name}:${index + 1} ${path.join(".")} = ${JSON.stringify(replacement)}`, outcome, rng, false);
          }
        }
      });
    }
    total += outcome.loaded + outcome.refused + outcome.failures.length;
    expect(outcome.failures.slice(0, 10)).toEqual([]);
    expect(outcome.loaded).toBeGreaterThan(1000);
    expect(outcome.refused).toBeGreaterThan(10);
  }, 60_000);

  test("ran at least 10,000 cases in all", () => {
    expect(total).toBeGreaterThanOrEqual(10_000);
  });
});

describe("hostile shapes the mutators do not reach", () => {
  const header = '{"type":"session","version":3,"id":"h","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/x"}';
  const entry = (id: string, parentId: string | null, body: string) =>
    `{"type":"message","id":"${id}","parentId":${JSON.stringify(parentId)},"timestamp":"t","message":${body}}`;
  const toolCall = (args: string) =>
    `{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"bash","arguments":${args}}],"stopReason":"toolUse"}`;
  const result = '{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[{"type":"text","text":"ok"}]}';

  const cases: [name: string, text: () => string][] = [
    ["a 10,000-deep array as a whole line", () => `${header}\n${deepArrays(10_000)}\n`],
    ["a 1,000,000-deep array as a whole line", () => `${header}\n${deepArrays(1_000_000)}\n`],
    ["an unclosed 100,000-deep array", () => `${header}\n${"[".repeat(100_000)}\n`],
    ["a 10,000-deep header", () => `${deepObjects(10_000)}\n`],
    [
      "tool-call arguments nested 100,000 deep",
      () => `${header}\n${entry("a", null, toolCall(deepArrays(100_000)))}\n${entry("b", "a", result)}\n`,
    ],
    [
      "user content nested 100,000 deep",
      () => `${header}\n${entry("a", null, `{"role":"user","content":${deepArrays(100_000)}}`)}\n`,
    ],
    ["a header repeated on every line", () => `${header}\n`.repeat(5_000)],
    ["50,000 entries with one id", () => header + "\n" + Array.from({ length: 50_000 }, () => entry("same", "same", '{"role":"user","content":"hi"}')).join("\n")],
    [
      "a 100,000-entry parent chain",
      () => header + "\n" + Array.from({ length: 100_000 }, (_, i) => entry(`e${i}`, i === 0 ? null : `e${i - 1}`, '{"role":"user","content":"hi"}')).join("\n"),
    ],
    ["1,100,000 lines that are not entries", () => `${header}\n${'{"type":"message"}\n'.repeat(1_100_000)}`],
    ["200,000 broken lines", () => `${header}\n${"{\n".repeat(200_000)}`],
    ["a 5 MB string of backticks in a user command", () => `${header}\n${entry("a", null, `{"role":"bashExecution","command":"${"`".repeat(5_000_000)}","output":"","exitCode":0}`)}\n`],
  ];

  test.each(cases)("%s", (name, build) => {
    const outcome: Outcome = { loaded: 0, refused: 0, failures: [] };
    exercise(build(), name, outcome, createRng(SEED));
    expect(outcome.failures).toEqual([]);
  }, 60_000);
});

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
