/**
 * Each real agent as the model of a handoff. `agent handoff <session> --engine <agent>` runs
 * the agent's own CLI headless against that agent's fake (Anthropic Messages for Claude Code,
 * Responses for Codex, Chat Completions as pi and omp are configured); checks: the fake's
 * document comes back; our instruction, the focus and the session's last request reach the
 * model; none of the secrets planted in the session does; no tool is offered; the agent's
 * history holds no new session (and the session already there is untouched); no file in its
 * HOME or TMPDIR keeps the prompt. A control run of the same agent with its tools and history
 * on must be caught by the same checks; `--dry-run` must print a run that can be repeated by hand;
 * no file the session names, nor any instruction file above the agent's folder, may reach the
 * model (engine-mentions.ts, engine-instructions.ts).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SYSTEM_PROMPT, renderInstruction } from "../../core/handoff/prompt.ts";
import { withEngines, type Agent, type EngineAgentInstall } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent } from "../sandbox.ts";
import { allOf, must, type Checks } from "./report.ts";
import { WRITTEN_DOCUMENT } from "./resume.ts";
import { filesHolding, historyChanges, offeredTools, secretFragments, sentText, snapshotHistory } from "./engine-evidence.ts";
import { engineSecrets, ENGINE_FOCUS, FOCUS_MARK, LAST_REQUEST, placeExistingSession } from "./engine-session.ts";
import { checkEngineDryRun } from "./engine-dry-run.ts";
import { checkEngineInstructions } from "./engine-instructions.ts";
import { checkEngineMentions } from "./engine-mentions.ts";
import { directHandoff, productHandoff, setUpEngine, type EngineRun, type EngineSetup } from "./engine-drivers.ts";

/** Token counts the fake reports, so the usage the product passes on is recognisable. */
const INPUT_TOKENS = 4321;
const OUTPUT_TOKENS = 87;

/** How the checks run the agent: through `agent handoff --engine` once the product has it, else directly with the research's argv. */
const VIA_PRODUCT = process.env.COMPAT_ENGINE_DIRECT !== "1";

/** The planted secrets found (whole, or a telling line of one) in `sent`, read without the joiners that make a prompt inert. */
function leaks(sent: string): { kind: string; value: string }[] {
  const read = sent.replaceAll("\u2060", "");
  return engineSecrets().filter((secret) => secretFragments(secret.value).some((fragment) => read.includes(fragment)));
}

/** The conversation requests the fake received on the agent's wire. */
function modelRequests(setup: EngineSetup) {
  return setup.fake.modelRequests(setup.engine.wire);
}

/** The checks on what reached the model and what stayed behind, for one run. */
async function checkEvidence(setup: EngineSetup, checks: Checks, before: Map<string, string>, existingId: string): Promise<void> {
  const name = setup.agent.name;
  const requests = modelRequests(setup);
  await checks.run(name, "engine: our instruction, the focus and the session's last request reach the model", () => {
    const sent = sentText(requests);
    must(requests.length > 0, "the fake received no model request");
    return allOf([
      () => must(sent.includes(DEFAULT_SYSTEM_PROMPT), "our system prompt is not in the request"),
      () => must(sent.includes(renderInstruction()), "our handoff instruction is not in the request"),
      () => must(sent.includes(FOCUS_MARK), "the focus is not in the request"),
      () => must(sent.includes(LAST_REQUEST), "the session's last user request is not in the request"),
    ]);
  });
  await checks.run(name, "engine: no secret planted in the session or the focus reaches the model", () => {
    const secrets = engineSecrets();
    const leaked = leaks(sentText(setup.fake.requests));
    must(leaked.length === 0, `${leaked.length} reached it: ${[...new Set(leaked.map((s) => s.kind))].join(", ")}`);
    return `${secrets.length} secrets of ${new Set(secrets.map((s) => s.kind)).size} kinds checked in ${setup.fake.requests.length} requests`;
  });
  await checks.run(name, "engine: no tool is offered to the model", () => {
    const offered = requests.flatMap(offeredTools);
    must(offered.length === 0, `offered ${offered.join(", ")}`);
    return `${requests.length} model request${requests.length === 1 ? "" : "s"}, no tools`;
  });
  await checks.run(name, "engine: no file in the agent's HOME or TMPDIR keeps the prompt", () => {
    const holding = filesHolding(setup.sandbox.home, [setup.sandbox.home, setup.sandbox.tmp], LAST_REQUEST);
    must(holding.length === 0, `kept in ${holding.join(", ")}`);
  });
  await checks.run(name, `engine: ${name}'s history holds no new session, the existing one untouched`, () => {
    const after = snapshotHistory(
      setup.sandbox.home,
      setup.engine.historyFolders(setup.sandbox),
      setup.engine.historyRecords(setup.sandbox),
    );
    // An agent may index the session that was already there: that is not a new one.
    const changes = historyChanges(before, after).filter(
      (change) => !(change.startsWith("new ") && change.includes(existingId) && !change.includes("/")),
    );
    must(changes.length === 0, changes.join("; "));
    return `${after.size} entr${after.size === 1 ? "y" : "ies"} before and after`;
  });
}

/** The handoff, then the evidence checks. */
async function checkAgent(agent: EngineAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const setup = await setUpEngine(agent, dir, "run", () => ({
    text: WRITTEN_DOCUMENT,
    inputTokens: INPUT_TOKENS,
    outputTokens: OUTPUT_TOKENS,
  }));
  try {
    const existingId = placeExistingSession(agent.name, setup.sandbox);
    const before = snapshotHistory(
      setup.sandbox.home,
      setup.engine.historyFolders(setup.sandbox),
      setup.engine.historyRecords(setup.sandbox),
    );
    let run: EngineRun | undefined;
    const how = VIA_PRODUCT ? `agent handoff --engine ${agent.name}` : `${setup.engine.command} run directly (COMPAT_ENGINE_DIRECT=1)`;
    const ok = await checks.run(agent.name, `engine: ${how} returns the fake's document`, async () => {
      run = VIA_PRODUCT ? await productHandoff(setup, ENGINE_FOCUS, dns) : await directHandoff(setup, ENGINE_FOCUS, dns);
      const result = run;
      return allOf([
        () =>
          must(
            result.document.includes(WRITTEN_DOCUMENT.split("\n")[1] ?? ""),
            `the document is not the fake's: ${result.document.slice(0, 120)}`,
          ),
        () => must(!VIA_PRODUCT || result.engine === agent.name, `--json says engine ${String(result.engine)}`),
        () =>
          must(
            !VIA_PRODUCT || (result.usage?.inputTokens === INPUT_TOKENS && result.usage.outputTokens === OUTPUT_TOKENS),
            `--json usage ${JSON.stringify(result.usage)}, not the agent's ${INPUT_TOKENS} in / ${OUTPUT_TOKENS} out`,
          ),
        () => result.note,
      ]);
    });
    if (ok) await checkEvidence(setup, checks, before, existingId);
  } finally {
    await setup.fake.stop();
  }
}

/** The control: the agent with its tools and history on. The checks above must see both. */
async function checkControl(agent: EngineAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const setup = await setUpEngine(agent, dir, "control", () => ({ text: WRITTEN_DOCUMENT }));
  try {
    await checks.run(
      agent.name,
      "engine (control): run with its tools and history on, the checks see tools offered, a secret sent and a new session",
      async () => {
        const before = snapshotHistory(
          setup.sandbox.home,
          setup.engine.historyFolders(setup.sandbox),
          setup.engine.historyRecords(setup.sandbox),
        );
        const scratch = join(setup.sandbox.tmp, "scratch");
        mkdirSync(scratch, { recursive: true });
        // One secret sent as it is, so the leak check is seen to catch it.
        const [secret] = engineSecrets();
        must(secret !== undefined, "no secret planted");
        const headless = setup.engine.control(
          { system: DEFAULT_SYSTEM_PROMPT, body: `${LAST_REQUEST}\n${secret.value}\n\n${renderInstruction()}` },
          scratch,
        );
        const run = await runAgent(
          [join(dir, agent.bin), ...headless.args],
          { cwd: scratch, env: setup.env, stdin: headless.stdin, timeoutMs: 120_000 },
          dns,
        );
        must(run.exitCode === 0, describeRun(run));
        const offered = modelRequests(setup).flatMap(offeredTools);
        const after = snapshotHistory(
          setup.sandbox.home,
          setup.engine.historyFolders(setup.sandbox),
          setup.engine.historyRecords(setup.sandbox),
        );
        const changes = historyChanges(before, after);
        must(offered.length > 0, "no tool seen offered: the tool check could not fail");
        must(changes.length > 0, "no new session seen: the history check could not fail");
        must(leaks(sentText(setup.fake.requests)).length > 0, "the secret sent was not seen: the leak check could not fail");
        return `seen: ${offered.length} tools offered; a secret sent; ${changes.join("; ")}`;
      },
    );
  } finally {
    await setup.fake.stop();
  }
}

/** Every installed agent as the engine, and its control run. */
export async function checkEngines(
  agents: readonly Agent[],
  dirs: ReadonlyMap<string, string>,
  checks: Checks,
  dns: DnsLog,
): Promise<void> {
  for (const agent of withEngines(agents)) {
    const dir = dirs.get(agent.name) ?? "";
    await checkAgent(agent, dir, checks, dns);
    await checkControl(agent, dir, checks, dns);
    await checkEngineDryRun(agent, dir, checks, dns);
    await checkEngineMentions(agent, dir, checks, dns);
    await checkEngineInstructions(agent, dir, checks, dns);
  }
}
