/**
 * Session text can never make an engine read anything (issue 22 A6). Files are planted at
 * paths in the sandbox's HOME and TMPDIR (an image, a folder, skills of Codex's among them) and
 * a session names each in every form an agent acts on: `@/abs`, `@~/x`, a relative path,
 * `@"quoted"`, `@file#L1-5`, at a line's start, after a bracket, a quote, a tab, an ideographic
 * full stop, in a code fence, `$skill`, `[$skill](path)`, `^provider/model`, and the forms no
 * agent reads (`x@path`, a full-width `＠`). `agent handoff --engine <agent>` must send the
 * mentions (the paths are still there to read) and none of the planted contents, no image and
 * no model tag. A control run of the same agent, given the same mentions without what the
 * product does about them, must be seen reading them (for Claude Code, omp and Codex; pi reads
 * none in any case).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { agentEnvironment } from "../../core/agent-run/env.ts";
import { agentEngine } from "../../core/agent-run/table.ts";
import type { EngineAgentInstall } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent } from "../sandbox.ts";
import { allOf, must, type Checks } from "./report.ts";
import { WRITTEN_DOCUMENT } from "./resume.ts";
import { productHandoff, setUpEngine, type EngineSetup } from "./engine-drivers.ts";
import { sentText } from "./engine-evidence.ts";
import type { LoggedRequest } from "../fake/server.ts";
import { assistant, call, chain, text, toolResult, user } from "../../fixtures/sessions/builders.ts";
import { codexHomeOf } from "./codex.ts";
import { LAST_REQUEST } from "./engine-session.ts";
import { unprotected } from "./engine-protections.ts";

/** What every planted file holds: no prompt text contains it, so finding it in a request means the agent read a file. */
const PLANTED = "COMPAT-PLANTED";

/** A 1×1 PNG: an agent that attaches a mentioned image sends it as an image part. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

interface Planted {
  /** The lines of session text naming what was planted. */
  lines: string[];
  /** One line the model must receive (joiners aside): the mentions went out, as text. */
  sample: string;
}

function plant(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** Plants the files and returns the session text that names them. */
function plantMentioned(setup: EngineSetup): Planted {
  const { home, tmp } = setup.sandbox;
  const at = join(tmp, "planted");
  const lines: string[] = [];
  const file = (id: string, path: string, mention: (path: string) => string) => {
    plant(path, `${PLANTED}-${id}\n`);
    lines.push(mention(path));
  };
  file("abs", join(at, "notes.txt"), (p) => `notes are in @${p} please`);
  file("home", join(home, ".ssh", "id_test"), () => "and the key is @~/.ssh/id_test");
  // Relative to the folder the agent runs in (a new one in ~/.cache/agent/runs/<run>/work).
  file("relative", join(home, ".cache", "agent", "runs", "compat-relative.txt"), () => "see @../../compat-relative.txt");
  file("quoted", join(at, "my notes", "quoted.txt"), (p) => `see @"${p}" now`);
  file("single-quoted", join(at, "single.txt"), (p) => `see @'${p}' now`);
  file("lines", join(at, "lines.ts"), (p) => `see @${p}#L1-5`);
  file("line-start", join(at, "line-start.txt"), (p) => `\n@${p}\n`);
  file("bracket", join(at, "bracket.txt"), (p) => `(see @${p})`);
  file("quote", join(at, "quote.txt"), (p) => `"@${p}"`);
  file("brackets", join(at, "brackets.txt"), (p) => `[@${p}] {@${p}} <@${p}>`);
  file("backtick", join(at, "backtick.txt"), (p) => `\`@${p}\``);
  file("tab", join(at, "tab.txt"), (p) => `see\t@${p}`);
  file("cjk", join(at, "cjk.txt"), (p) => `见\u3002@${p}`);
  file("fence", join(at, "fence.txt"), (p) => `\`\`\`\n@${p}\n\`\`\``);
  file("email-like", join(at, "email.txt"), (p) => `mail x@${p}`);
  file("full-width", join(at, "full-width.txt"), (p) => `see \uff20${p}`);
  mkdirSync(join(at, "folder"), { recursive: true });
  writeFileSync(join(at, "folder", `${PLANTED}-folder-listing.txt`), "");
  lines.push(`the folder @${join(at, "folder")}/`);
  plant(join(at, "screen.png"), PNG);
  lines.push(`look at @${join(at, "screen.png")}`);
  const skill = (id: string, folder: string) =>
    plant(join(folder, id, "SKILL.md"), `---\nname: ${id}\ndescription: ${PLANTED}-${id}-description\n---\n${PLANTED}-${id}\n`);
  skill("compat-skill", join(codexHomeOf(setup.sandbox), "skills"));
  skill("compat-skill-agents", join(home, ".agents", "skills"));
  skill("compat-skill-linked", join(codexHomeOf(setup.sandbox), "skills"));
  lines.push(
    "use $compat-skill and x$compat-skill-agents",
    `use [$zz](${join(codexHomeOf(setup.sandbox), "skills", "compat-skill-linked", "SKILL.md")})`,
  );
  lines.push("ask ^openai/gpt-5.1 about it");
  return { lines, sample: `notes are in @${join(at, "notes.txt")} please` };
}

/** A session whose user text, assistant text, tool call and tool result all hold the mentions. */
function mentioningSession(lines: readonly string[]): string {
  const all = lines.join("\n");
  return chain([
    user(1, `COMPAT-FIRST-REQUEST: read these.\n${all}`),
    assistant(2, [text(`Reading:\n${all}`), call("call_1", "bash", { command: `cat ${lines[0] ?? ""}`, note: all })], "toolUse"),
    toolResult(3, "call_1", "bash", all),
    user(4, LAST_REQUEST),
    assistant(5, [text("Working on it.")]),
  ]);
}

/** What reached the model that a planted file holds, or that only reading one would send. */
function readEvidence(requests: readonly LoggedRequest[]): string[] {
  const sent = sentText(requests);
  const found = [...new Set(sent.match(new RegExp(`${PLANTED}-[\\w-]+`, "g")) ?? [])];
  const wire = JSON.stringify(requests.map((r) => r.body));
  if (/"type":"(image|input_image|image_url)"/.test(wire)) found.push("an image part");
  if (sent.includes("<model agent=")) found.push("a model tag");
  return found;
}

async function checkProduct(
  agent: EngineAgentInstall,
  setup: EngineSetup,
  planted: Planted,
  checks: Checks,
  dns: DnsLog,
): Promise<boolean> {
  return await checks.run(
    agent.name,
    "engine: files, skills and models the session names are never read: none of their contents reaches the model",
    async () => {
      await productHandoff(setup, "COMPAT-FOCUS: keep @./focus.txt in mind", dns);
      const requests = setup.fake.modelRequests(setup.engine.wire);
      const sent = sentText(requests).replaceAll("\u2060", "");
      const read = readEvidence(setup.fake.requests);
      return allOf([
        () => must(requests.length > 0, "the fake received no model request"),
        () => must(sent.includes(planted.sample), "the mentions did not reach the model as text"),
        () => must(read.length === 0, `read and sent: ${read.join(", ")}`),
        () => `${planted.lines.length} mentions in the user's and the assistant's text, a tool call and its result; nothing read`,
      ]);
    },
  );
}

/** The same mentions, given to the agent with the product's flags but none of its protections: the agent must be seen reading. */
async function checkControl(agent: EngineAgentInstall, setup: EngineSetup, planted: Planted, checks: Checks, dns: DnsLog): Promise<void> {
  await checks.run(
    agent.name,
    "engine (control): the same mentions, raw and without the agent's switches against them, are read (the check can fail)",
    async () => {
      const engine = agentEngine(agent.name);
      const scratch = join(setup.sandbox.home, ".cache", "agent", "runs", "control", "work");
      const plan = unprotected(engine.plan({ system: "Write it.", body: `${planted.lines.join("\n")}\n\nWrite it.` }, scratch));
      mkdirSync(scratch, { recursive: true });
      for (const [name, content] of Object.entries(plan.files ?? {})) writeFileSync(join(scratch, name), content);
      const from = setup.fake.requests.length;
      const run = await runAgent(
        [join(setup.dir, agent.bin), ...plan.args],
        { cwd: scratch, env: agentEnvironment(engine, setup.env, plan.env), stdin: plan.stdin, timeoutMs: 120_000 },
        dns,
      );
      must(run.exitCode === 0, describeRun(run));
      const read = readEvidence(setup.fake.requests.slice(from));
      if (agent.name === "pi") {
        must(read.length === 0, `pi read ${read.join(", ")}: it expands mentions now, and the product's check above must cover it`);
        return "pi reads none of them even raw";
      }
      must(read.length > 0, "nothing read even raw: the check above could not fail");
      return `read raw: ${read.join(", ")}`;
    },
  );
}

export async function checkEngineMentions(agent: EngineAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const setup = await setUpEngine(agent, dir, "mentions", () => ({ text: WRITTEN_DOCUMENT }));
  try {
    const planted = plantMentioned(setup);
    writeFileSync(setup.source, mentioningSession(planted.lines));
    if (await checkProduct(agent, setup, planted, checks, dns)) await checkControl(agent, setup, planted, checks, dns);
  } finally {
    await setup.fake.stop();
  }
}
