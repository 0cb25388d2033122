import { defineCommand, type ArgsDef } from "citty";
import { errorMessage, findFormat, findIntegration, integrations, type HookAnswer } from "../../core/index.ts";
import { readConfigFile } from "../flags/config-file.ts";
import { resolveSettings } from "../flags/settings.ts";
import { answerHook } from "../agents/hook-run.ts";
import type { RunHandoff } from "../agents/hook-handoff.ts";
import { answerBeforeCompact, answerStop } from "../agents/hook-stop.ts";
import { CommandLineError } from "../flags/usage.ts";
import { EXIT } from "../output/stderr.ts";
import { runOf } from "../run.ts";
import type { CommandHelp } from "./help.ts";

const HOOK_ARGS = {
  agent: { type: "positional", required: true, description: "The agent calling: claude-code, codex, pi, omp" },
} satisfies ArgsDef;

export const HOOK_HELP: CommandHelp = {
  name: "hook",
  summary: "The entry point an agent's /handoff calls (installed by agent integrate); not for a shell",
  description:
    "The entry point an agent's /handoff calls, installed by agent integrate: it reads the agent's hook input (JSON on stdin, or arguments from an extension), hands off that very session and prints the agent's answer: where the new session is and what to type. " +
    "Every other prompt is answered at once with nothing; every failure is one line of the agent's answer.",
  args: HOOK_ARGS,
};

/** `agent hook <agent> [item …]`; `handoff` runs `agent handoff` in this process (cli/main.ts). */
export function hookCommand(handoff: RunHandoff) {
  return defineCommand({
    meta: { name: HOOK_HELP.name, description: HOOK_HELP.summary },
    args: HOOK_ARGS,
    async run({ args, data, rawArgs }) {
      const run = runOf(data);
      const integration = findIntegration(findFormat(args.agent)?.name ?? args.agent);
      if (integration === undefined)
        throw new CommandLineError(
          `${JSON.stringify(args.agent)} has no hook; agents: ${integrations()
            .map((i) => i.name)
            .join(", ")}`,
        );
      const argv = rawArgs.slice(1);
      // The end of a turn (the offer) and before a compaction have entries of their own; neither may
      // ever answer as /handoff does (a block there would keep the agent going, or stop the compaction).
      const event = argv[0] === "--stop" ? "stop" : argv[0] === "--before-compact" && argv.length === 1 ? "before-compact" : "handoff";
      let answer: HookAnswer | undefined;
      try {
        // The config file is read here, not by the handoff alone: a mistake in it is the agent's one line too.
        const settings = resolveSettings({}, run.env, await readConfigFile(run.env, run.cancel.signal));
        const engine = settings.hookEngine.value ?? integration.name;
        if (event === "stop") answer = await answerStop(run, { integration, argv, windowSetting: settings.offerWindow.value });
        else if (event === "before-compact")
          answer = await answerBeforeCompact(run, { integration, engine, handoff, windowSetting: settings.offerWindow.value });
        else answer = await answerHook(run, { integration, argv, engine, handoff });
      } catch (error) {
        // Never a stack trace or a silent failure in the user's agent: one line, as the agent shows it
        // (before a compaction, nothing: its output would reach the compaction prompt).
        const text = `agent handoff: ${errorMessage(error)}`;
        answer =
          event === "handoff"
            ? integration.answer({ kind: "failed", text })
            : event === "stop"
              ? integration.stop?.notice([text])
              : undefined;
      }
      if (answer === undefined) return EXIT.ok;
      await run.stdout.printOwnText(answer.stdout);
      return answer.exitCode;
    },
  });
}
