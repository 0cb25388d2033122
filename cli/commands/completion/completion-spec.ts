/**
 * What shell completion offers, read off the commands' own flag definitions (pure): each
 * command's flags, what each flag's value can be (a fixed list, a file, a session id), and
 * whether the command takes a file argument. The scripts (cli/commands/completion/completion-scripts.ts) only
 * render it, so a new flag completes without touching them.
 */
import type { ArgDef } from "citty";
import { FORMATS, isEngineName, PROVIDER_IDS } from "../../../core/index.ts";
import type { CommandHelp } from "../help.ts";

/** What a flag's value completes to. */
export type ValueKind = { words: readonly string[] } | "files" | "sessions" | "anything";

export interface FlagSpec {
  /** `--focus`, or `--no-record` for a switch that is on by default (as help shows it). */
  long: string;
  short: string | undefined;
  description: string;
  /** Undefined for a switch. */
  value: ValueKind | undefined;
}

export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  /** What a word that is not a flag completes to. */
  argument: ValueKind | undefined;
}

/** Every agent's name and alias, as `--agent` and `--to` take them. */
export const AGENT_WORDS: readonly string[] = FORMATS.flatMap((f) => [f.name, ...f.aliases]);

/** Flags whose values come from a list, a file, or this machine's sessions, by name. */
const VALUES_BY_FLAG: Record<string, ValueKind> = {
  agent: { words: AGENT_WORDS },
  to: { words: AGENT_WORDS },
  // The agents that are engines (`--engine claude`), under the names `--agent` takes.
  engine: { words: ["auto", "llm", "offline", ...FORMATS.filter((f) => isEngineName(f.name)).flatMap((f) => [f.name, ...f.aliases])] },
  provider: { words: ["auto", ...PROVIDER_IDS] },
  session: "sessions",
};

/** What a value hint says: `path` is a file; `auto|llm|offline` lists the words. */
function byHint(def: ArgDef): ValueKind | undefined {
  const hint = "valueHint" in def ? def.valueHint : undefined;
  if (hint === "path") return "files";
  return hint?.includes("|") ? { words: hint.split("|") } : undefined;
}

function valueKindOf(name: string, def: ArgDef): ValueKind {
  return VALUES_BY_FLAG[name] ?? byHint(def) ?? "anything";
}

function aliasesOf(def: ArgDef): string[] {
  const alias = "alias" in def ? def.alias : undefined;
  return alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
}

function flagSpec(name: string, def: ArgDef): FlagSpec {
  const negated = def.type === "boolean" && def.default === true;
  const description = (negated && "negativeDescription" in def ? def.negativeDescription : def.description) ?? "";
  return {
    long: `--${negated ? "no-" : ""}${name}`,
    short: negated ? undefined : aliasesOf(def).find((a) => a.length === 1),
    description,
    value: def.type === "string" || def.type === "enum" ? valueKindOf(name, def) : undefined,
  };
}

/** The completion of each command (`help` and `completion` included), from what help shows. */
export function completionSpec(commands: readonly CommandHelp[]): CommandSpec[] {
  const specs = commands.map((help): CommandSpec => {
    const entries = Object.entries(help.args);
    const positional = entries.find(([, def]) => def.type === "positional");
    return {
      name: help.name,
      description: help.summary,
      flags: [
        ...entries.filter(([, def]) => def.type !== "positional").map(([name, def]) => flagSpec(name, def)),
        { long: "--help", short: "h", description: "Show this help", value: undefined },
      ],
      // A positional that names its words in its hint (`bash|zsh|fish`) takes those; any other, a file.
      argument: positional && (byHint(positional[1]) ?? "files"),
    };
  });
  return [...specs, { name: "help", description: "Show a command's flags", flags: [], argument: { words: commands.map((c) => c.name) } }];
}
