/**
 * `/handoff` inside pi and `/agent-handoff` inside omp, with the real agents: after `agent
 * integrate <agent>` in the sandbox's HOME, the command typed in the agent (pi: print mode,
 * `pi -p --session <src> "/handoff F" "<next prompt>"`; omp: over RPC, as a front end drives it)
 * hands off THE session the agent has open (in a fresh home, and in one where the agent's own
 * newer sessions sit in the same folder), asks the model nothing with the offline engine (only
 * the engine's own requests with the agent as the engine), leaves the source as it was but for
 * the lines the agent writes itself, and switches: the next prompt lands in the new session and
 * carries the document verbatim. omp shows the lines the extension notifies.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import type { FileAgentInstall } from "../agents.ts";
import { agentEnv } from "../agent-setup.ts";
import { startFakeModelServer, type FakeModelServer, type LoggedRequest } from "../fake/server.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox, describeRun, runAgent, type Sandbox } from "../sandbox.ts";
import { makeHistory } from "./history.ts";
import { agentFolder } from "./matrix-sources.ts";
import { REPO } from "./reading.ts";
import { allOf, must, type Checks } from "./report.ts";
import { WRITTEN_DOCUMENT } from "./resume.ts";
import { driveRpc } from "./rpc-drive.ts";
import { carriesVerbatim, checkSessionFile, contentText } from "./session-file.ts";
import { TARGETS, type TargetRun } from "./targets.ts";

export const FOCUS = "COMPAT-FOCUS: finish the parser, $(touch pwned) `x` 'q'";
export const NEXT = "COMPAT-NEXT: what is next?";
const REPLY = "COMPAT-REPLY: carrying on.";

/** The source each agent has open: a fixture of its own format, its cwd moved into the sandbox. */
const SOURCES = {
  pi: { file: "fixtures/handoff-markers.jsonl", cwd: "/home/me/parser" },
  omp: { file: "fixtures/sessions/omp.jsonl", cwd: "/home/dev/uploader" },
} as const;

/** Whether some message of a request mentions `marker` anywhere in its text. */
export function mentions(request: LoggedRequest, marker: string): boolean {
  const body = request.body;
  if (!isObject(body) || !Array.isArray(body.messages)) return false;
  return body.messages.some((message) => isObject(message) && contentText(message.content).includes(marker));
}

/** The agent's turns get the short reply; any other request (the agent as the engine) gets the document. */
export function startFake(): FakeModelServer {
  return startFakeModelServer(
    (request) => ({ text: mentions(request, "COMPAT-NEXT") || mentions(request, "COMPAT-HISTORY") ? REPLY : WRITTEN_DOCUMENT }),
    ["gpt-5", "gpt-5.1", "claude-sonnet-4-5", "claude-opus-4-5"],
  );
}

export function placeSource(agent: "pi" | "omp", sandbox: Sandbox): string {
  const { file, cwd } = SOURCES[agent];
  const folder = agentFolder(agent, sandbox, new Date());
  mkdirSync(folder, { recursive: true });
  // Older than anything the agent writes today: "the newest of the folder" would be another file.
  const path = join(folder, "2026-11-29T09-00-00-000Z_0199a000-0000-4000-8000-00000000c0de.jsonl");
  writeFileSync(path, readFileSync(join(REPO, file), "utf8").replaceAll(`"cwd":"${cwd}"`, `"cwd":${JSON.stringify(sandbox.project)}`));
  return path;
}

export const jsonlIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".jsonl")) : []);

/** The lines the agent appended to the source (it records a setting it opened with); none may be a message. */
function appendedBySelf(source: string, before: string): string {
  const after = readFileSync(source, "utf8");
  must(after.startsWith(before), "the source's lines changed (not only appended to)");
  const added = after.slice(before.length).split("\n").filter(Boolean);
  const types = added.map((line) => {
    const value: unknown = JSON.parse(line);
    return isObject(value) && typeof value.type === "string" ? value.type : "?";
  });
  must(
    !types.some((type) => type === "message" || type === "custom_message" || type === "compaction"),
    `the source got ${types.join(", ")}`,
  );
  return types.length === 0 ? "the source unchanged" : `the source unchanged but for the agent's own ${types.join(", ")}`;
}

type Engine = "offline" | "agent";

/** The user's shell: the agent on PATH under its command's name. */
function shellEnv(run: TargetRun): Record<string, string> {
  const env = run.sandbox.env();
  return { ...env, PATH: `${join(run.dir, "node_modules", ".bin")}:${env.PATH ?? ""}` };
}

/** Runs `agent integrate <agent>` in the sandbox, from the user's shell; the extension's path. */
export async function integrate(run: TargetRun): Promise<string> {
  const result = await runAgent(
    [process.execPath, join(REPO, "cli/index.ts"), "integrate", run.agent.name],
    { cwd: run.sandbox.project, env: shellEnv(run), timeoutMs: 60_000 },
    run.dns,
  );
  must(result.exitCode === 0, `agent integrate failed: ${describeRun(result)}`);
  const wrote = /wrote (\S+agent-handoff\.ts)$/m.exec(result.stdout)?.[1];
  must(wrote !== undefined && existsSync(wrote), `agent integrate wrote no extension: ${result.stdout}`);
  return wrote;
}

/**
 * The environment the agent runs in: started by its path, so its PATH lacks it, and the agent
 * engine runs the executable integrate found; or the offline engine as the hook's engine.
 */
function envFor(run: TargetRun, engine: Engine): Record<string, string> {
  const env = agentEnv(run.sandbox);
  return engine === "offline" ? { ...env, AGENT_HOOK_ENGINE: "offline" } : env;
}

interface Typed {
  /** The new session the agent switched to (omp: its state after the command). */
  switchedTo: string | undefined;
  /** What the extension showed (omp's notify requests), in order. */
  notices: string[];
  /** The slash commands the agent offered (omp's first list of them). */
  commands: string[];
  detail: string;
}

/** pi: print mode runs the command, then the next prompt in whatever session is open after it. */
async function typeInPi(run: TargetRun, source: string, engine: Engine): Promise<Typed> {
  const argv = [join(run.dir, run.agent.bin), "--print", "--offline", "--no-skills", "--no-context-files", "--session", source];
  const result = await runAgent(
    [...argv, `/handoff ${FOCUS}`, NEXT],
    { cwd: run.sandbox.project, env: envFor(run, engine), timeoutMs: 240_000 },
    run.dns,
  );
  must(result.outside.length === 0, `tried to reach ${result.outside.join(", ")}`);
  must(result.exitCode === 0, describeRun(result));
  must(result.stdout.trim() === REPLY, `printed ${JSON.stringify(result.stdout.slice(0, 200))}, not the reply to the next prompt`);
  return { switchedTo: undefined, notices: [], commands: [], detail: describeRun(result) };
}

/** omp: over RPC, the command as a prompt, its state after it, then the next prompt. */
async function typeInOmp(run: TargetRun, source: string, engine: Engine): Promise<Typed> {
  const argv = [join(run.dir, run.agent.bin), "--mode", "rpc", "--no-skills", "--no-rules", "--no-lsp", "--no-title", "--session", source];
  const rpc = await driveRpc(argv, { cwd: run.sandbox.project, env: envFor(run, engine) }, run.dns, async (session) => {
    await session.request({ type: "prompt", message: `/agent-handoff ${FOCUS}` });
    await session.waitFor((event) => event.type === "prompt_result", 240_000);
    const state = await session.request({ type: "get_state" });
    const data = isObject(state.data) ? state.data : {};
    await session.request({ type: "prompt", message: NEXT });
    await session.waitFor((event) => event.type === "agent_end", 120_000);
    return typeof data.sessionFile === "string" ? data.sessionFile : undefined;
  });
  must(rpc.outside.length === 0, `tried to reach ${rpc.outside.join(", ")}`);
  const notices = rpc.events.filter((e) => e.type === "extension_ui_request" && e.method === "notify").map((e) => String(e.message));
  const offered = rpc.events.find((e) => e.type === "available_commands_update");
  const commands = (isObject(offered) && Array.isArray(offered.commands) ? offered.commands : []).flatMap((c) =>
    isObject(c) && typeof c.name === "string" ? [c.name] : [],
  );
  return { switchedTo: rpc.result, notices, commands, detail: rpc.detail };
}

/** One home (fresh, or with the agent's own earlier sessions), one engine: integrate, type the command, check. */
async function checkOne(
  agent: FileAgentInstall,
  dir: string,
  checks: Checks,
  dns: DnsLog,
  engine: Engine,
  history: boolean,
): Promise<void> {
  const name = agent.name === "omp" ? "omp" : "pi";
  const label = `${engine} engine, ${history ? "a home with history" : "a fresh home"}`;
  const sandbox = createSandbox(`${agent.name}-in-agent`);
  const fake = startFake();
  const run: TargetRun = { agent, dir, sandbox, fake, dns };
  try {
    await TARGETS[agent.name].prepare(run);
    if (history && !(await checks.run(agent.name, `in-agent: earlier work in the project (${label})`, () => makeHistory(run)))) return;
    const folder = agentFolder(name, sandbox, new Date());
    const source = placeSource(name, sandbox);
    const sourceBytes = readFileSync(source, "utf8");
    const earlier = jsonlIn(folder);
    if (!(await checks.run(agent.name, `in-agent: agent integrate ${name} installs the extension (${label})`, () => integrate(run))))
      return;
    const requestsBefore = fake.requests.length;
    let typed: Typed | undefined;
    const command = name === "pi" ? "/handoff" : "/agent-handoff";
    const ok = await checks.run(agent.name, `in-agent: ${command} F hands off the open session and switches to it (${label})`, async () => {
      typed = name === "pi" ? await typeInPi(run, source, engine) : await typeInOmp(run, source, engine);
      const made = jsonlIn(folder).filter((file) => !earlier.includes(file));
      must(made.length === 1, `${made.length} new sessions in ${folder} (${made.join(", ")}); ${typed.detail}`);
      const fresh = join(folder, made[0] ?? "");
      const text = readFileSync(fresh, "utf8");
      const lines = text
        .split("\n")
        .filter(Boolean)
        .map((line): unknown => JSON.parse(line));
      const header = lines.find((line) => isObject(line) && line.type === "session");
      const handoff = lines.find((line) => isObject(line) && line.customType === "handoff");
      const document = isObject(handoff) ? contentText(handoff.content) : "";
      const sent = fake.requests.slice(requestsBefore).filter((request) => request.wire !== undefined);
      const turns = sent.filter((request) => mentions(request, "COMPAT-NEXT"));
      const engineRequests = sent.filter((request) => !mentions(request, "COMPAT-NEXT"));
      return allOf([
        () =>
          must(
            isObject(header) && header.parentSession === source,
            `the new session's parent is ${JSON.stringify(isObject(header) ? header.parentSession : undefined)}, not the open session`,
          ),
        () =>
          engine === "offline"
            ? must(document.includes(FOCUS), "the focus is not in the document as typed")
            : must(
                engineRequests.some((request) => mentions(request, FOCUS)),
                "the focus did not reach the engine as typed",
              ),
        () => must(!existsSync(join(sandbox.project, "pwned")), "the focus ran as shell"),
        () =>
          engine === "offline"
            ? must(engineRequests.length === 0, `${engineRequests.length} requests to the model besides the next prompt's`)
            : must(engineRequests.length >= 1, "the agent engine sent no request"),
        () => must(turns.length === 1, `${turns.length} requests carried the next prompt`),
        () => {
          const messages = isObject(turns[0]?.body) && Array.isArray(turns[0]?.body.messages) ? turns[0].body.messages : [];
          must(carriesVerbatim(messages, document), "the next prompt's request does not carry the document verbatim");
        },
        () => must(text.includes("COMPAT-NEXT"), "the next prompt did not land in the new session"),
        () => must(!readFileSync(source, "utf8").includes("COMPAT-NEXT"), "the next prompt landed in the source"),
        () =>
          typed?.switchedTo === undefined ? undefined : must(typed.switchedTo === fresh, `omp is on ${typed.switchedTo}, not ${fresh}`),
        () => appendedBySelf(source, sourceBytes),
        () => checkSessionFile(fresh),
        () =>
          name === "omp"
            ? must(
                JSON.stringify(typed?.notices) ===
                  JSON.stringify([
                    "Handing off: writing the handoff document…",
                    `Handed off: this is the new session, opened with the handoff document (${fresh})`,
                  ]),
                `omp showed ${JSON.stringify(typed?.notices)}`,
              )
            : undefined,
        () =>
          name === "omp"
            ? must(
                ["handoff", "agent-handoff"].every((command) => typed?.commands.includes(command)),
                `omp offered ${typed?.commands.filter((c) => c.includes("handoff")).join(", ") || "no handoff command"}, not its own /handoff and ours`,
              )
            : undefined,
        () =>
          `${engine === "offline" ? "no request for the handoff" : `${engineRequests.length} engine request(s)`}; new session ${made[0]}`,
      ]);
    });
    if (!ok || history || engine !== "offline") return;
    await checks.run(agent.name, `in-agent: integrate twice is once, --uninstall removes it (${label})`, async () => {
      const integrateAgain = async (...flags: string[]) =>
        runAgent(
          [process.execPath, join(REPO, "cli/index.ts"), "integrate", name, ...flags],
          { cwd: sandbox.project, env: shellEnv(run), timeoutMs: 60_000 },
          dns,
        );
      const again = await integrateAgain();
      must(again.exitCode === 0 && again.stdout.includes("nothing to change"), `a second integrate: ${describeRun(again)}`);
      const removed = await integrateAgain("--uninstall");
      must(removed.exitCode === 0 && /removed \S+agent-handoff\.ts/.test(removed.stdout), describeRun(removed));
      const folder = join(sandbox.home, name === "pi" ? ".pi" : ".omp", "agent", "extensions");
      must(!existsSync(folder), `${folder}, which integrate made, is still there`);
      return undefined;
    });
  } finally {
    await fake.stop();
  }
}

export async function checkInAgentExtension(agent: FileAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  if (agent.name !== "pi" && agent.name !== "omp") return;
  for (const [engine, history] of [
    ["offline", false],
    ["offline", true],
    ["agent", true],
  ] as const)
    await checkOne(agent, dir, checks, dns, engine, history);
}
