/**
 * `/handoff` typed in pi's and omp's running screen (tmux), after `agent integrate`: the line the
 * extension shows once the agent has switched, and the next prompt typed there landing in the new
 * session with the document. What a person sees, which print mode (no UI) and RPC cannot show.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../../core/json.ts";
import type { FileAgentInstall } from "../agents.ts";
import { agentEnv } from "../agent-setup.ts";
import type { DnsLog } from "../isolate.ts";
import { createSandbox } from "../sandbox.ts";
import { FOCUS, integrate, jsonlIn, mentions, NEXT, placeSource, startFake } from "./in-agent-extension.ts";
import { settledScreen } from "./in-agent-runs.ts";
import { agentFolder } from "./matrix-sources.ts";
import { must, type Checks } from "./report.ts";
import { carriesVerbatim, contentText } from "./session-file.ts";
import { TARGETS, type TargetRun } from "./targets.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";

const SHOWN = "Handed off: this is the new session, opened with the handoff document";

export async function checkInAgentScreen(agent: FileAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  if (agent.name !== "pi" && agent.name !== "omp") return;
  const name = agent.name;
  const command = name === "pi" ? "/handoff" : "/agent-handoff";
  const sandbox = createSandbox(`${name}-in-agent-screen`);
  const fake = startFake();
  const run: TargetRun = { agent, dir, sandbox, fake, dns };
  try {
    await checks.run(
      agent.name,
      `in-agent: ${command} F in the running screen (tmux) shows our line, and the next prompt goes to the new session`,
      async () => {
        await TARGETS[name].prepare(run);
        const folder = agentFolder(name, sandbox, new Date());
        const source = placeSource(name, sandbox);
        await integrate(run);
        const terminal = openTerminal({
          argv: [join(dir, agent.bin), "--session", source],
          cwd: sandbox.project,
          env: { ...agentEnv(sandbox), AGENT_HOOK_ENGINE: "offline" },
          sandbox,
          rows: 60,
        });
        if (terminal === undefined) return "not checked: tmux is not installed";
        try {
          await settledScreen(terminal, 40_000);
          const before = fake.modelRequests().length;
          await terminal.typeLine(`${command} ${FOCUS}`);
          const flat = () => terminal.screen().replace(/\s+/g, " ");
          const shown = await waitFor(() => flat().includes(SHOWN), 60_000);
          must(shown, `the screen does not show our line:\n${compactScreen(terminal.screen()).slice(-1500)}`);
          must(fake.modelRequests().length === before, `a model request during ${command}`);
          const made = jsonlIn(folder).filter((file) => !source.endsWith(file));
          must(made.length === 1, `${made.length} new sessions in ${folder}`);
          const fresh = join(folder, made[0] ?? "");
          // A path longer than the line wraps: compared without any blank.
          const bare = (text: string) => text.replace(/\s+/g, "");
          must(bare(terminal.screen()).includes(bare(`${SHOWN} (${fresh})`)), `the line does not name ${fresh}`);
          const from = fake.requests.length;
          await terminal.typeLine(NEXT);
          const turn = () => fake.requests.slice(from).find((request) => mentions(request, "COMPAT-NEXT"));
          for (let tries = 0; tries < 6 && turn() === undefined; tries++)
            if (!(await waitFor(() => turn() !== undefined, 5_000))) terminal.pressEnter();
          const sent = turn();
          must(sent !== undefined, `the next prompt was not sent:\n${compactScreen(terminal.screen()).slice(-1500)}`);
          const text = readFileSync(fresh, "utf8");
          const handoff = text
            .split("\n")
            .filter(Boolean)
            .map((line): unknown => JSON.parse(line))
            .find((line) => isObject(line) && line.customType === "handoff");
          const document = isObject(handoff) ? contentText(handoff.content) : "";
          // The screen may send more than the turn for a prompt (omp names the session from it): the turn is the one with the conversation.
          await Bun.sleep(2_000);
          const asked = fake.requests.slice(from).filter((request) => mentions(request, "COMPAT-NEXT"));
          const messagesOf = (request: (typeof asked)[number]) =>
            isObject(request.body) && Array.isArray(request.body.messages) ? request.body.messages : [];
          must(
            document !== "" && asked.some((request) => carriesVerbatim(messagesOf(request), document)),
            `none of the ${asked.length} requests carrying the next prompt carries the document verbatim (${asked.map((r) => messagesOf(r).length).join(", ")} messages)`,
          );
          await waitFor(() => readFileSync(fresh, "utf8").includes("COMPAT-NEXT"), 10_000);
          must(readFileSync(fresh, "utf8").includes("COMPAT-NEXT"), "the next prompt did not land in the new session");
          must(!readFileSync(source, "utf8").includes("COMPAT-NEXT"), "the next prompt landed in the source");
          return `the screen said: ${SHOWN} (…/${made[0]})`;
        } finally {
          terminal.close();
        }
      },
    );
  } finally {
    await fake.stop();
  }
}
