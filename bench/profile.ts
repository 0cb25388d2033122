/**
 * Where the 1 MB handoff of bench/handoff.ts spends its CPU, function by function. Builds the
 * binary as `bun run build` does but without minifying (so the profile keeps the functions'
 * names), runs the handoff against the same fake endpoint with Bun's CPU profiler on
 * (`BUN_OPTIONS=--cpu-prof`, which a compiled binary honours), and prints, averaged over the
 * runs, the time spent in each function itself and the time spent under it.
 *
 *   bun bench/profile.ts [runs=6] [extra handoff flags…]     e.g. bun bench/profile.ts 6 --dry-run
 *
 * PROFILE_UNDER=<function name> adds a third table: the time under that function (wherever it is
 * called), by the functions it calls, itself and under each (e.g. PROFILE_UNDER=callModel).
 *
 * PROFILE_CALLERS=<function name> adds the time in that function itself by the function that called
 * it: where a built-in's time comes from (PROFILE_CALLERS=RegExp: the patterns built, and by whom).
 *
 * PROFILE_CHUNK=<chunk name start> adds the functions of one chunk of the binary (`main` is the
 * CLI's, `index` core's), each with the built-ins it calls, by time: what one layer spends.
 *
 * Not part of `bun run bench`: the profiler's own cost makes its totals larger than the bench's.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANNED_DOCUMENT, startFakeOpenAI } from "../fixtures/fake-openai.ts";

const REPO = join(import.meta.dir, "..");
const SESSION = join(REPO, "..", "shared", "sessions", "large-session.jsonl");
const runs = Number(process.argv[2] ?? 6);
const extra = process.argv.slice(3);
const TOP = 40;
const FOCUS = process.env.PROFILE_UNDER;
/** PROFILE_CALLERS=<function name>: the time in that function itself, by the function that called it (a built-in's callers: `RegExp`, `decode`). */
const CALLEES = process.env.PROFILE_CALLERS;
/** PROFILE_CHUNK=<chunk name start>: that chunk's functions, each with the built-ins it calls. */
const CHUNK = process.env.PROFILE_CHUNK;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const dir = mkdtempSync(join(tmpdir(), "agent-profile-"));
const binary = join(dir, "agent");
const profiles = join(dir, "profiles");
mkdirSync(profiles);
const build = Bun.spawnSync(
  [process.execPath, "build", join(REPO, "cli", "index.ts"), "--compile", "--splitting", "--bytecode", "--format=esm"].concat([
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--outfile",
    binary,
  ]),
  { stdout: "ignore", stderr: "inherit" },
);
if (build.exitCode !== 0) throw new Error("the build failed");

const server = startFakeOpenAI(() => ({ text: CANNED_DOCUMENT }));
try {
  for (let run = 0; run < runs; run++) {
    const home = join(dir, `home-${run}`);
    mkdirSync(home);
    const cmd = [binary, "handoff", SESSION, "--context-window", "400000", "--no-record", "-q", "-o", join(home, "out.jsonl"), ...extra];
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      NO_COLOR: "1",
      OPENAI_API_KEY: "sk-bench",
      OPENAI_BASE_URL: server.url,
      BUN_OPTIONS: `--cpu-prof --cpu-prof-dir=${profiles}`,
    };
    // stdout a pipe, as in bench/handoff.ts: /dev/null is a device, which loads the runtime's stream modules (cli/process/host.ts).
    const proc = Bun.spawn(cmd, { env, cwd: home, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited, new Response(proc.stdout).text()]);
    if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}:\n${stderr}`);
  }
} finally {
  await server.stop();
}

const self = new Map<string, number>();
const under = new Map<string, number>();
// Below FOCUS: the time under each function called from inside it (the focus itself included).
const focused = new Map<string, number>();
// The time in CALLEES itself, by its caller.
const callers = new Map<string, number>();
// Self time by the chunk of the binary it ran in: core's against the CLI's and the packages'.
const byFile = new Map<string, number>();
const inChunk = new Map<string, number>();
let total = 0;
const files = readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile"));
for (const file of files) {
  const profile = JSON.parse(readFileSync(join(profiles, file), "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const name = (node: ProfileNode) =>
    `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*\/root\//, "")}:${node.callFrame.lineNumber}`;
  profile.samples.forEach((id, i) => {
    const spent = (profile.timeDeltas[i] ?? 0) / 1000 / files.length;
    total += spent;
    const leaf = byId.get(id);
    if (leaf === undefined) return;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + spent);
    if (CALLEES !== undefined && leaf.callFrame.functionName === CALLEES) {
      const parent = byId.get(parentOf.get(leaf.id) ?? -1);
      const key = parent === undefined ? "(none)" : name(parent);
      callers.set(key, (callers.get(key) ?? 0) + spent);
    }
    // A built-in (JSON.stringify, a RegExp) counts for the chunk that called it.
    let caller: ProfileNode | undefined = leaf;
    while (caller !== undefined && caller.callFrame.url === "") caller = byId.get(parentOf.get(caller.id) ?? -1);
    const file = caller?.callFrame.url.replace(/^.*\//, "") || "(the runtime)";
    byFile.set(file, (byFile.get(file) ?? 0) + spent);
    if (CHUNK !== undefined && caller !== undefined && file.startsWith(CHUNK))
      inChunk.set(name(caller), (inChunk.get(name(caller)) ?? 0) + spent);
    // A function that recurses counts once per sample in the time under it.
    const counted = new Set<string>();
    const path: string[] = [];
    for (let node: ProfileNode | undefined = leaf; node !== undefined; node = byId.get(parentOf.get(node.id) ?? -1)) {
      const key = name(node);
      if (!counted.has(key)) under.set(key, (under.get(key) ?? 0) + spent);
      counted.add(key);
      path.push(key);
      if (FOCUS !== undefined && node.callFrame.functionName === FOCUS) {
        for (const key of new Set(path)) focused.set(key, (focused.get(key) ?? 0) + spent);
        break;
      }
    }
  });
}
rmSync(dir, { recursive: true, force: true });

const table = (map: Map<string, number>) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([key, spent]) => `${spent.toFixed(1).padStart(7)} ms  ${key}`)
    .join("\n");
console.log(
  `profile of the 1 MB handoff${extra.length > 0 ? ` ${extra.join(" ")}` : ""}, ${files.length} runs, ${total.toFixed(1)} ms a run with the profiler on`,
);
console.log(`-- in the function itself\n${table(self)}`);
console.log(`-- under the function (itself and what it calls)\n${table(under)}`);
console.log(`-- in each chunk of the binary (its functions themselves and the built-ins they call)\n${table(byFile)}`);
if (FOCUS !== undefined) console.log(`-- under ${FOCUS}, by what it calls (itself and under each)\n${table(focused)}`);
if (CHUNK !== undefined) console.log(`-- in chunk ${CHUNK}, by function (with the built-ins it calls)\n${table(inChunk)}`);
if (CALLEES !== undefined) console.log(`-- in ${CALLEES} itself, by its caller\n${table(callers)}`);
