import { runOf } from "../../run.ts";
import { defineCommand, type ArgsDef } from "citty";
import { bashScript, fishScript, zshScript } from "./completion-scripts.ts";
import { completionSpec } from "./completion-spec.ts";
import type { CommandHelp } from "../help.ts";
import { EXIT } from "../../output/stderr.ts";
import { matchChoice } from "../../flags/choice.ts";
import { CommandLineError } from "../../flags/usage.ts";

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

const COMPLETION_ARGS = {
  shell: { type: "positional", description: "bash, zsh or fish", valueHint: "bash|zsh|fish", required: true },
} satisfies ArgsDef;

export const COMPLETION_HELP: CommandHelp = {
  name: "completion",
  summary: "Print a shell completion script (bash, zsh or fish)",
  description:
    "Print a script that completes agent's commands, flags, agent names (--agent, --to) and session ids (--session) in your shell.",
  args: COMPLETION_ARGS,
  sections: [
    {
      title: "INSTALL",
      rows: [
        ["bash", 'eval "$(agent completion bash)" in ~/.bashrc'],
        ["zsh", 'eval "$(agent completion zsh)" in ~/.zshrc, after compinit'],
        ["fish", "agent completion fish | source in ~/.config/fish/config.fish"],
      ],
    },
  ],
};

const SHELLS = ["bash", "zsh", "fish"] as const satisfies readonly (keyof typeof SCRIPTS)[];

/** `agent completion <shell>`, for the commands `listCommands` gives (this one among them). */
export function completionCommand(listCommands: () => readonly CommandHelp[]) {
  return defineCommand({
    meta: { name: COMPLETION_HELP.name, description: COMPLETION_HELP.summary },
    args: COMPLETION_ARGS,
    async run({ args, data }) {
      // Own words only: `in` would take `constructor` for a shell.
      const shell = matchChoice(args.shell, SHELLS);
      if (shell === undefined) throw new CommandLineError(`argument <shell> takes bash, zsh or fish, not "${args.shell}"`);
      await runOf(data).stdout.printOwnText(SCRIPTS[shell](completionSpec(listCommands())));
      return EXIT.ok;
    },
  });
}
