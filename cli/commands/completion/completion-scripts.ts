/**
 * The completion scripts for bash, zsh and fish, rendered from the commands' completion spec.
 * Session ids come from `agent ls --all --ids` when asked for (it reads only the first and last
 * lines of each session file). Every word we put in a script is our own (command, flag and
 * agent names); descriptions are quoted for the shell that shows them.
 */
import type { CommandSpec, FlagSpec, ValueKind } from "./completion-spec.ts";

/** The command that lists session ids for completion. */
const SESSION_IDS = "agent ls --all --ids 2>/dev/null";

function flagWords(flag: FlagSpec): string[] {
  return [flag.long, ...(flag.short ? [`-${flag.short}`] : [])];
}

/** The flags of a command that take a value, as `case` branches: the flags whose values complete alike share one. */
function valueCases(spec: CommandSpec, render: (value: ValueKind) => string): { flags: string[]; action: string }[] {
  const byAction = new Map<string, string[]>();
  for (const flag of spec.flags) {
    if (flag.value === undefined) continue;
    const action = render(flag.value);
    byAction.set(action, [...(byAction.get(action) ?? []), ...flagWords(flag)]);
  }
  return [...byAction].map(([action, flags]) => ({ flags, action }));
}

function topWords(specs: readonly CommandSpec[]): string {
  return [...specs.map((s) => s.name), "--help", "--version"].join(" ");
}

// bash ----------------------------------------------------------------------

function bashValue(value: ValueKind): string {
  if (value === "files") return '_agent_add "$(compgen -f -- "$cur")"; compopt -o filenames 2>/dev/null';
  if (value === "sessions") return `_agent_add "$(compgen -W "$(${SESSION_IDS})" -- "$cur")"`;
  if (value === "anything") return ":";
  return `_agent_add "$(compgen -W "${value.words.join(" ")}" -- "$cur")"`;
}

function bashCommand(spec: CommandSpec): string {
  const cases = valueCases(spec, bashValue).map(({ flags, action }) => `        ${flags.join("|")}) ${action}; return ;;`);
  const flags = spec.flags.flatMap(flagWords).join(" ");
  const argument = spec.argument ? bashValue(spec.argument) : ":";
  return [
    `    ${spec.name})`,
    ...(cases.length > 0 ? ['      case "$prev" in', ...cases, "      esac"] : []),
    `      if [[ "$cur" == -* ]]; then _agent_add "$(compgen -W "${flags}" -- "$cur")"; else ${argument}; fi ;;`,
  ].join("\n");
}

export function bashScript(specs: readonly CommandSpec[]): string {
  return `# agent completion for bash. Load it with: eval "$(agent completion bash)"
# (in ~/.bashrc), or save it: agent completion bash > ~/.local/share/bash-completion/completions/agent
_agent_add() {
  local line
  while IFS= read -r line; do [ -n "$line" ] && COMPREPLY+=("$line"); done <<< "$1"
}
_agent() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then _agent_add "$(compgen -W "${topWords(specs)}" -- "$cur")"; return; fi
  case "\${COMP_WORDS[1]}" in
${specs.map(bashCommand).join("\n")}
  esac
}
complete -F _agent agent
`;
}

// zsh -----------------------------------------------------------------------

/** `'it'\''s'`: a single-quoted zsh word. */
function zshQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function zshValue(value: ValueKind): string {
  if (value === "files") return "_files";
  if (value === "sessions") return `compadd -- \${(f)"$(${SESSION_IDS})"}`;
  if (value === "anything") return "_message value";
  return `compadd -- ${value.words.join(" ")}`;
}

function zshCommand(spec: CommandSpec): string {
  const cases = valueCases(spec, zshValue).map(({ flags, action }) => `        ${flags.join("|")}) ${action}; return ;;`);
  // _describe reads `word:description`; a colon in a description is escaped.
  const described = spec.flags.flatMap((flag) =>
    flagWords(flag).map((word) => zshQuote(`${word}:${flag.description.replaceAll(":", "\\:")}`)),
  );
  const argument = spec.argument ? zshValue(spec.argument) : ":";
  return [
    `    ${spec.name})`,
    ...(cases.length > 0 ? ["      case $prev in", ...cases, "      esac"] : []),
    `      if [[ $cur == -* ]]; then local -a flags=(${described.join(" ")}); _describe -t options option flags; else ${argument}; fi ;;`,
  ].join("\n");
}

export function zshScript(specs: readonly CommandSpec[]): string {
  const commands = specs.map((s) => zshQuote(`${s.name}:${s.description.replaceAll(":", "\\:")}`)).join(" ");
  return `#compdef agent
# agent completion for zsh. Load it with: eval "$(agent completion zsh)" (in ~/.zshrc, after
# compinit), or save it as _agent in a folder of your $fpath.
_agent() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  if (( CURRENT == 2 )); then
    local -a commands=(${commands})
    _describe -t commands command commands
    return
  fi
  case \${words[2]} in
${specs.map(zshCommand).join("\n")}
  esac
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then _agent "$@"; else compdef _agent agent; fi
`;
}

// fish ----------------------------------------------------------------------

/** A single-quoted fish word: only `\\` and `'` are escaped there. */
function fishQuote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

function fishValue(value: ValueKind): string {
  if (value === "files") return "-r -F";
  if (value === "sessions") return `-x -a ${fishQuote(`(${SESSION_IDS})`)}`;
  if (value === "anything") return "-x";
  return `-x -a ${fishQuote(value.words.join(" "))}`;
}

function fishCommand(spec: CommandSpec): string[] {
  const when = `-n ${fishQuote(`__fish_seen_subcommand_from ${spec.name}`)}`;
  const flags = spec.flags.map((flag) => {
    const names = [`-l ${flag.long.slice(2)}`, ...(flag.short ? [`-s ${flag.short}`] : [])].join(" ");
    const value = flag.value === undefined ? "" : ` ${fishValue(flag.value)}`;
    return `complete -c agent ${when} ${names}${value} -d ${fishQuote(flag.description)}`;
  });
  const argument =
    spec.argument === undefined ? [] : [`complete -c agent ${when} ${spec.argument === "files" ? "-F" : fishValue(spec.argument)}`];
  return [...flags, ...argument];
}

export function fishScript(specs: readonly CommandSpec[]): string {
  const commands = specs.map((s) => `complete -c agent -n __fish_use_subcommand -a ${s.name} -d ${fishQuote(s.description)}`);
  return `# agent completion for fish. Load it with: agent completion fish | source
# (in ~/.config/fish/config.fish), or save it: agent completion fish > ~/.config/fish/completions/agent.fish
complete -c agent -f
complete -c agent -n __fish_use_subcommand -l help -s h -d 'Show the help'
complete -c agent -n __fish_use_subcommand -l version -s V -d 'Show the version'
${commands.join("\n")}
${specs.flatMap(fishCommand).join("\n")}
`;
}
