/**
 * Usage errors: problems with the words typed, all printed in one style. What the words point at
 * (a file, a session, an endpoint, a line of the config file) is not a problem of this kind: its
 * message names that thing instead.
 */
import { existsSync } from "node:fs";
import type { ArgsDef } from "citty";
import { AgentError, isAgentError } from "../../core/index.ts";
import { FailureWithCommand, shellQuote } from "../output/paste-line.ts";
import { PasteLine, type Said } from "../output/printed.ts";

/**
 * A problem with the words typed: an unknown command or flag, a missing, empty or extra
 * argument, a value given by a flag or a variable, two flags that do not go together. Printed
 * by reportError as one line, `error: <what is wrong>[; <what to do>] (see agent <command> --help)`,
 * the help of the command the words were for (`agent --help` before one is known).
 */
export class CommandLineError extends AgentError {
  constructor(
    readonly problem: string,
    readonly command?: string,
    /** Words to type instead, ending the problem (`--focus 'finish the parser'`): a command to paste (see PasteLine). */
    readonly example?: PasteLine,
  ) {
    super("USAGE", example === undefined ? problem : `${problem} ${example.command}`);
  }

  /** What reportError prints after the problem, as the logger's parts: the example, then the help to read. */
  get after(): Said[] {
    const pointer = `(see agent ${this.command === undefined ? "" : `${this.command} `}--help)`;
    return this.example === undefined ? [pointer] : [this.example, pointer];
  }
}

/**
 * A setting's value refused: a problem with the words typed when a flag (`--to`) or a variable
 * (`AGENT_TO`) gave it; a line of the config file (`<file>:<line>: to`) names the file instead.
 */
export function valueError(label: string, message: string): AgentError {
  return /^-|^[A-Z][A-Z0-9_]*$/.test(label) ? new CommandLineError(message) : new AgentError("USAGE", message);
}

/** A value that reads as free text (`--focus`): a word typed after it, unquoted, was likely meant as part of it. */
const TEXT_HINT = "text";

/**
 * Bare words typed right after a free-text flag's value (`--focus finish the parser`): the shell
 * split the text, and each word after the first became an argument of its own. Undefined when
 * there are none.
 */
export function splitText(rawArgs: readonly string[], argsDef: ArgsDef): { flag: string; words: string[] } | undefined {
  const textFlags = new Map<string, string>();
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type !== "string" || !("valueHint" in def) || def.valueHint !== TEXT_HINT) continue;
    textFlags.set(`--${name}`, `--${name}`);
    const aliases = "alias" in def && def.alias !== undefined ? [def.alias].flat() : [];
    for (const alias of aliases) textFlags.set(alias.length === 1 ? `-${alias}` : `--${alias}`, `--${name}`);
  }
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] ?? "";
    if (arg === "--") return undefined;
    const [written = "", inline] = arg.split(/=(.*)/s, 2);
    const flag = textFlags.get(written);
    if (flag === undefined) continue;
    const value = inline ?? rawArgs[i + 1];
    const from = inline === undefined ? i + 2 : i + 1;
    let end = from;
    while (end < rawArgs.length && !(rawArgs[end] ?? "-").startsWith("-")) end++;
    if (end > from && value !== undefined) return { flag, words: [value, ...rawArgs.slice(from, end)] };
  }
  return undefined;
}

/** Whether a word typed on the command line reads as the session it names, not as prose. */
function namesSession(word: string): boolean {
  return /[/\\]|\.jsonl(?:\.zst)?$/i.test(word) || existsSync(word);
}

/** Whether `message` holds `word` whole (not `a` inside `a session`'s `as`): nothing but a space, a quote or punctuation around it. */
function mentions(message: string, word: string): boolean {
  for (let at = message.indexOf(word); at !== -1; at = message.indexOf(word, at + 1)) {
    const before = message[at - 1] ?? " ";
    const after = message[at + word.length] ?? " ";
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return true;
  }
  return false;
}

/**
 * `error` with a hint to quote a free-text flag's words when it is a problem of the command line
 * (exit 2) that names one of the words the shell split off (`parser: no such file or folder`);
 * `error` itself otherwise.
 */
export function withQuoteHint(error: unknown, rawArgs: readonly string[], argsDef: ArgsDef): unknown {
  const split = splitText(rawArgs, argsDef);
  if (split === undefined || !isAgentError(error) || !["USAGE", "FILE", "NOT_A_SESSION"].includes(error.code)) return error;
  // A word that names a session (a file or folder there, a `.jsonl` name, a path) is the
  // argument it was typed as, not part of the text: the hint leaves it where it was.
  const [first = "", ...strays] = split.words.filter((word, i) => i === 0 || !namesSession(word));
  if (!strays.some((word) => mentions(error.message, word))) return error;
  const text = [first, ...strays].join(" ");
  // What the user typed, quoted: printed as it is, or (a word that looks like a secret) described.
  const example = new PasteLine(`${split.flag} ${shellQuote(text)}`, [text], () => `${split.flag} and the whole text in quotes`);
  const hint = `if "${strays.join(" ")}" is part of ${split.flag}, quote it all:`;
  if (error instanceof CommandLineError) return new CommandLineError(`${error.problem}; ${hint}`, error.command, example);
  return new FailureWithCommand(error.code, `${error.message}; ${hint}`, example, error.location);
}
