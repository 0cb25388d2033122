/**
 * How a setting's value is checked, wherever it came from (a flag, the environment, the config
 * file): text, an http(s) URL, a count of tokens, an engine, an agent, a switch. Each parser
 * names the place in its message (`label`) and never echoes what looks like a secret.
 */
import {
  createRedactor,
  DEFAULT_CONTEXT_WINDOW,
  describeEngineNames,
  describeFormatNames,
  findFormat,
  isEngineName,
  type AgentName,
  type EngineName,
} from "../../core/index.ts";
import { quoteWithholding, type Quote } from "../output/printed.ts";
import { matchChoice } from "./choice.ts";
import { valueError } from "./usage.ts";

/** Who writes the document: a model endpoint, code, an installed agent's own CLI, or `auto` (see cli/flags/engine.ts). */
export type EngineChoice = "auto" | "llm" | "offline" | EngineName;

/** The engines `/handoff` inside an agent may use: no `auto`, which never starts an agent (the default is the agent itself). */
export type HookEngineChoice = Exclude<EngineChoice, "auto">;

/** How a value is checked: `label` names where it came from (`--context-window`, `AGENT_CONTEXT_WINDOW`, `config.toml:3: context-window`). */
export type Parse<T> = (value: unknown, label: string, quote: Quote) => T;

/** Text that holds what the redaction rules take for a secret: never echoed in a message. */
export function looksSecret(text: string): boolean {
  return createRedactor().redact(text) !== text;
}

/** A value a person can recognise in a message; never more than the start of a long one, never a likely secret. */
function shown(value: unknown, quote: Quote): string {
  if (typeof value === "string" && looksSecret(value)) return "a value that looks like a secret (not shown)";
  if (typeof value === "string") return JSON.stringify(quote(value, 61));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return "a table";
  return "a date";
}

/** How a value is quoted where nothing is withheld yet (a flag's value, before the environment is read). */
const PLAIN_QUOTE: Quote = quoteWithholding([]);

/**
 * A number as people write one: plain decimal digits (`500000`), with a fraction only where
 * `fraction` allows (`1.5`). `0x10`, `0b11`, `1e3`, ` 5`, `+5` and `` are not: `Number()` would
 * take them all (the empty text as 0). A TOML number comes as a number, and is taken as it is.
 */
export function parseDecimal(value: unknown, fraction = false): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !(fraction ? /^[0-9]+(?:\.[0-9]+)?$/ : /^[0-9]+$/).test(value)) return Number.NaN;
  return Number(value);
}

/** A count of tokens: a whole number of at least 1. (An empty flag never gets here: cli/flags/args.ts refuses it.) */
export function tokenCount(label: string, value: unknown, quote: Quote = PLAIN_QUOTE): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseDecimal(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw valueError(label, `${label} takes a whole number of tokens, not ${shown(value, quote)}`);
  return parsed;
}

/** `localhost:11434/v1` parses as a URL with the scheme `localhost:`; only http(s) can reach a model. */
function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

export function parseText(value: unknown, label: string, quote: Quote): string {
  if (typeof value !== "string") throw valueError(label, `${label} takes text, not ${shown(value, quote)}`);
  return value;
}

/** A URL as typed, less its user name and password and with its query values masked (as describeUrl prints one): what a message may quote of it. */
function maskedUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/*)[^/?#]*@/, "$1").replace(/([?&][^=&#]*=)[^&#]*/g, "$1***");
}

/** What is wrong with a value that is not an http(s) URL we can use, as a person would put it. */
function urlProblem(url: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1];
  if (scheme === undefined || !["http", "https"].includes(scheme.toLowerCase())) {
    // `localhost:11434/v1`: a host and port, the scheme left out.
    if (/^[^:/]+:\d+(?:[/?#]|$)/.test(url))
      return `is not an http:// or https:// URL (did you mean ${JSON.stringify(`http://${maskedUrl(url)}`)}?)`;
    return `is not an http:// or https:// URL${scheme === undefined ? "" : ` (it starts with ${JSON.stringify(`${scheme}:`)})`}`;
  }
  const authority = /^[^:]+:\/\/([^/?#]*)/.exec(url)?.[1];
  if (authority === undefined) return "has no // and host after the scheme (as in http://localhost:11434/v1)";
  const hostPort = authority.replace(/^.*@/, "");
  if (hostPort === "" || hostPort.startsWith(":")) return "has no host";
  if (hostPort.startsWith("[") && !hostPort.includes("]")) return "has an IPv6 address with no closing ]";
  const port = /^(?:\[[^\]]*\]|[^:]*):(.*)$/.exec(hostPort)?.[1];
  if (port !== undefined && port !== "" && !/^\d+$/.test(port)) return `has a port that is not a number: ${JSON.stringify(port)}`;
  if (port !== undefined && /^\d+$/.test(port) && Number(port) > 65535) return `has port ${port}, out of range (0 to 65535)`;
  return "has a host that does not parse";
}

export function parseUrl(value: unknown, label: string, quote: Quote): string {
  const url = parseText(value, label, quote);
  // Quoted as typed, less its credentials; a value that looks like a secret (a pasted key?) is not echoed.
  if (!isHttpUrl(url)) {
    // Echoed only when it is meant as a URL (`scheme:` first); anything else may be a pasted key.
    const quoted = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) && !looksSecret(maskedUrl(url)) ? ` ${JSON.stringify(maskedUrl(url))}` : "";
    throw valueError(label, `${label}${quoted} ${urlProblem(url)}`);
  }
  return url;
}

/** The engines that are no agent. */
const ENGINE_WORDS = ["auto", "llm", "offline"] as const;

/** The engines `--engine` names, in the order help lists them. */
export const ENGINE_CHOICES = `auto, llm, offline, ${describeEngineNames()}`;

/**
 * The agent engine a word names, in any spelling `--to` takes (`claude`, `Codex`), as the format
 * table spells it; undefined for a word naming no agent. An agent that has a format and no engine
 * is refused with the reason, since `--to` takes it.
 */
export function engineNamed(word: string, label: string): EngineName | undefined {
  const agent = findFormat(word);
  if (agent === undefined) return undefined;
  if (isEngineName(agent.name)) return agent.name;
  throw valueError(
    label,
    `${label} takes ${ENGINE_CHOICES}, not ${JSON.stringify(word)}: ${agent.label} reads and writes sessions (--to ${agent.name}) but cannot write the document`,
  );
}

/** An engine's name; an agent engine in any spelling `--to` takes (`claude`, `Codex`). */
export function parseEngine(value: unknown, label: string, quote: Quote = PLAIN_QUOTE): EngineChoice {
  const word = matchChoice(value, ENGINE_WORDS);
  if (word !== undefined) return word;
  const agent = typeof value === "string" ? engineNamed(value, label) : undefined;
  if (agent) return agent;
  throw valueError(label, `${label} takes ${ENGINE_CHOICES}, not ${shown(value, quote)}`);
}

/** The `hook-engine` choices, in the order messages list them. */
export const HOOK_ENGINE_CHOICES = `llm, offline, ${describeEngineNames()}`;

/** A `hook-engine`: an engine but `auto` (the default, the agent the hook runs in, has no word). */
export function parseHookEngine(value: unknown, label: string, quote: Quote = PLAIN_QUOTE): HookEngineChoice {
  const choice = matchChoice(value, ENGINE_WORDS);
  if (choice !== "auto") {
    if (choice !== undefined) return choice;
    const agent = typeof value === "string" ? engineNamed(value, label) : undefined;
    if (agent) return agent;
  }
  throw valueError(label, `${label} takes ${HOOK_ENGINE_CHOICES} (unset: the agent /handoff runs in), not ${shown(value, quote)}`);
}

/** An agent's name or alias (`claude`), as the format table spells it. */
export function parseAgent(value: unknown, label: string, quote: Quote = PLAIN_QUOTE): AgentName {
  const format = typeof value === "string" ? findFormat(value) : undefined;
  if (format) return format.name;
  throw valueError(label, `${label} takes ${describeFormatNames()}, not ${shown(value, quote)}`);
}

/** Words a person or a file uses for on and off: a TOML boolean, a switch flag, or `true`/`false`/`1`/`0`/`yes`/`no`/`on`/`off` in any case. */
export function parseSwitch(value: unknown, label: string, quote: Quote = PLAIN_QUOTE): boolean {
  if (typeof value === "boolean") return value;
  const word = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  if (word !== undefined && ["true", "1", "yes", "on"].includes(word)) return true;
  if (word !== undefined && ["false", "0", "no", "off"].includes(word)) return false;
  throw valueError(label, `${label} takes true or false, not ${shown(value, quote)}`);
}

export function parseWindow(value: unknown, label: string, quote: Quote): number {
  return tokenCount(label, value, quote) ?? DEFAULT_CONTEXT_WINDOW;
}

export function parseLimit(value: unknown, label: string, quote: Quote): number | undefined {
  return tokenCount(label, value, quote);
}
