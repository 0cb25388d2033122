/**
 * `bun run compat`: the real agents are the judge. Installs pinned pi, omp, Claude Code and
 * Codex from committed lockfiles (outside the repository, cached), then re-executes itself in
 * a network namespace that has only loopback and checks, against fake model servers:
 * that pi, omp and Claude Code read every session fixture of theirs as we do, that the sessions
 * we write resume in them, and (with --regenerate) records real transcripts into
 * fixtures/real/<agent>/.
 *
 *   bun run compat [--regenerate] [--only pi,omp,engine]
 *
 * `--only` names agents, families of checks (reading, resume, matrix, discovery, transcripts, engine,
 * engine-failures, in-agent), or both: `--only engine,codex` runs the engine checks for Codex alone. The
 * version checks, and the statement tables against the binaries (checks/statements.ts), always run.
 *
 * Needs root (for `unshare`). Exit 0 when every check passed, 1 otherwise, 2 on bad usage.
 */
import { checkInAgent } from "./checks/in-agent.ts";
import { AGENTS, agentByName, installDir, withFiles, type Agent } from "./agents.ts";
import { checkReading } from "./checks/reading.ts";
import { createChecks, summarize, type Checks } from "./checks/report.ts";
import { checkCodexHandoff } from "./checks/codex-handoff.ts";
import { checkCodexIndex } from "./checks/codex-index.ts";
import { checkClaudeCodeReading } from "./checks/claude-code-reading.ts";
import { checkClaudeCodeResume } from "./checks/claude-code-resume.ts";
import { checkMatrix } from "./checks/matrix.ts";
import { checkDiscovery } from "./checks/discovery.ts";
import { checkEngines } from "./checks/engine.ts";
import { checkEngineFailures } from "./checks/engine-failures.ts";
import { checkInAgentExtension } from "./checks/in-agent-extension.ts";
import { checkInAgentOffer } from "./checks/in-agent-offer.ts";
import { checkInAgentScreen } from "./checks/in-agent-screen.ts";
import { checkResume } from "./checks/resume.ts";
import { checkStatements } from "./checks/statements.ts";
import { checkVersion } from "./checks/version.ts";
import { recordTranscripts } from "./transcripts/record.ts";
import { checkOpencodeRows } from "./checks/opencode-rows.ts";
import { installAgent } from "./install.ts";
import { INSIDE_FLAG, keepScratch, prepareIsolation, privateScratch, reexecIsolated, type DnsLog } from "./isolate.ts";
import { SCRATCH_ROOT } from "./sandbox.ts";
import { errorMessage } from "../core/errors.ts";

/** The families of checks `--only` can name. */
const FAMILIES = ["reading", "resume", "matrix", "discovery", "transcripts", "engine", "engine-failures", "in-agent"] as const;
type Family = (typeof FAMILIES)[number];
const isFamily = (name: string): name is Family => FAMILIES.some((family) => family === name);

interface Options {
  regenerate: boolean;
  agents: Agent[];
  families: ReadonlySet<Family>;
}

function parseOptions(argv: string[]): Options | string {
  let regenerate = false;
  let agents = [...AGENTS];
  let families = new Set<Family>(FAMILIES);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--regenerate") regenerate = true;
    else if (arg === "--only") {
      const names = (argv[++i] ?? "").split(",").filter(Boolean);
      const unknown = names.filter((name) => !agentByName(name) && !isFamily(name));
      if (names.length === 0 || unknown.length > 0)
        return `--only takes a comma-separated list of ${[...AGENTS.map((a) => a.name), ...FAMILIES].join(", ")}`;
      if (names.some((name) => agentByName(name))) agents = AGENTS.filter((agent) => names.includes(agent.name));
      if (names.some(isFamily)) families = new Set(names.filter(isFamily));
    } else return `unknown argument ${arg}; usage: bun run compat [--regenerate] [--only pi,omp,claude-code,codex,${FAMILIES.join(",")}]`;
  }
  if (regenerate && !families.has("transcripts"))
    return "--regenerate rewrites the transcripts: --only must include transcripts (or name no family)";
  return { regenerate, agents, families };
}

const say = (line: string) => process.stdout.write(`${line}\n`);

async function outside(argv: string[], options: Options): Promise<number> {
  if (process.getuid?.() !== 0) {
    console.error("bun run compat needs root: the agents run in a network namespace of their own (unshare --net)");
    return 2;
  }
  const missing = ["unshare", "ip", "mount", "npm", "node"].filter((tool) => Bun.which(tool) === null);
  if (missing.length > 0) {
    console.error(`bun run compat needs ${missing.join(", ")} on PATH`);
    return 2;
  }
  const started = performance.now();
  for (const agent of options.agents) {
    try {
      const result = await installAgent(agent, process.env, say);
      say(`${agent.name}: ${result.reused ? "cached" : "installed"} in ${result.seconds.toFixed(1)}s at ${result.dir}`);
    } catch (error) {
      console.error(errorMessage(error));
      return 1;
    }
  }
  say(`install: ${((performance.now() - started) / 1000).toFixed(1)}s`);
  return await reexecIsolated(import.meta.path, argv);
}

async function inside(options: Options): Promise<number> {
  const started = performance.now();
  let dns: DnsLog;
  try {
    dns = await prepareIsolation();
    privateScratch(SCRATCH_ROOT);
  } catch (error) {
    console.error(`bun run compat: ${errorMessage(error)}; no agent was started`);
    return 1;
  }
  say("isolated: network namespace with loopback only; DNS answered by a logging stub");
  const checks: Checks = createChecks(say);
  const dirs = new Map(options.agents.map((agent) => [agent.name, installDir(agent, process.env)]));
  try {
    for (const agent of options.agents) await checkVersion(agent, dirs.get(agent.name) ?? "", checks, dns);
    // Reading files only: cheap enough to run with the version checks, always.
    for (const agent of options.agents) await checkStatements(agent, dirs.get(agent.name) ?? "", checks);
    // The families that place and compare session files run these: an agent whose sessions are rows has its own check.
    const fileAgents = withFiles(options.agents);
    const pi = fileAgents.find((a) => a.name === "pi");
    const omp = fileAgents.find((a) => a.name === "omp");
    const claude = options.agents.find((a) => a.name === "claude-code");
    const codexAgent = options.agents.find((a) => a.name === "codex");
    const family = (name: Family) => options.families.has(name);
    if (family("reading")) {
      for (const agent of [pi, omp]) if (agent) await checkReading(agent, dirs.get(agent.name) ?? "", checks, dns);
      if (claude) await checkClaudeCodeReading(claude, dirs.get(claude.name) ?? "", checks, dns);
    }
    if (family("resume")) {
      for (const agent of [pi, omp]) if (agent) await checkResume(agent, dirs.get(agent.name) ?? "", checks, dns);
      if (claude) await checkClaudeCodeResume(claude, dirs.get(claude.name) ?? "", checks, dns);
      if (codexAgent) await checkCodexIndex(codexAgent, dirs.get(codexAgent.name) ?? "", checks, dns);
      if (codexAgent) await checkCodexHandoff(codexAgent, dirs.get(codexAgent.name) ?? "", checks, dns);
    }
    const opencodeAgent = options.agents.find((a) => a.name === "opencode");
    if (family("resume") && opencodeAgent) await checkOpencodeRows(opencodeAgent, dirs.get(opencodeAgent.name) ?? "", checks, dns);
    if (family("matrix")) await checkMatrix(options.agents, dirs, checks, dns, say);
    if (family("engine")) await checkEngines(options.agents, dirs, checks, dns);
    if (family("engine-failures")) await checkEngineFailures(options.agents, dirs, checks, dns);
    if (family("in-agent")) {
      await checkInAgent(options.agents, dirs, checks, dns);
      for (const agent of [pi, omp]) if (agent) await checkInAgentExtension(agent, dirs.get(agent.name) ?? "", checks, dns);
      for (const agent of [pi, omp]) if (agent) await checkInAgentScreen(agent, dirs.get(agent.name) ?? "", checks, dns);
      await checkInAgentOffer(options.agents, dirs, checks, dns);
    }
    if (family("discovery")) for (const agent of fileAgents) await checkDiscovery(agent, dirs.get(agent.name) ?? "", checks, dns);
    if (family("transcripts"))
      for (const agent of fileAgents)
        await recordTranscripts(agent, dirs.get(agent.name) ?? "", checks, dns, { regenerate: options.regenerate });
  } finally {
    dns.stop();
  }
  say(`run: ${((performance.now() - started) / 1000).toFixed(1)}s`);
  say(summarize(checks.results));
  const ok = checks.results.every((r) => r.ok) && checks.results.length > 0;
  if (!ok) say(`the sandboxes of this run (${SCRATCH_ROOT} as the agents saw it) are kept in ${keepScratch(SCRATCH_ROOT)}`);
  return ok ? 0 : 1;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const isInside = argv[0] === INSIDE_FLAG;
  const rest = isInside ? argv.slice(1) : argv;
  const options = parseOptions(rest);
  if (typeof options === "string") {
    console.error(options);
    return 2;
  }
  return isInside ? await inside(options) : await outside(rest, options);
}

// Exit once the report is out: a handle a check left open (a timer, a socket, a child's pipe in
// the namespace) must not keep CI waiting after the summary, as it once did for good.
process.exit(await main());
