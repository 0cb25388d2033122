import type { ArgDef, ArgsDef } from "citty";

/**
 * Our own help text. citty's usage pads every option line to the longest description (trailing
 * spaces, lines far wider than the terminal), prints `--record` and `--no-record` as two flags,
 * and has no place for environment, exit codes or examples; this renders the same definitions
 * wrapped to the terminal, words never split.
 */

/**
 * One section after the flags: rows of a term and its text; shell commands (examples); or text,
 * whose paragraphs are wrapped, except one that starts with spaces (a file's lines, shown as
 * they are), and where "" is a blank line.
 */
export type HelpSection =
  | { title: string; rows: readonly (readonly [string, string])[] }
  | { title: string; commands: readonly string[] }
  | { title: string; text: readonly string[] };

export interface CommandHelp {
  name: string;
  /** One line, for the list of commands. */
  summary: string;
  /** A paragraph above the usage; the summary when absent. */
  description?: string;
  args: ArgsDef;
  sections?: readonly HelpSection[];
}

/** Wider lines are hard to read, whatever the terminal; narrower ones cannot hold two columns. */
const MAX_WIDTH = 100;
const MIN_WIDTH = 40;
const DEFAULT_WIDTH = 80;
const INDENT = "  ";
const GAP = "  ";
/** A term longer than this gets its text on the next line rather than pushing every row right. */
const MAX_TERM = 32;

/**
 * The width to wrap help to: the terminal's when it is one, else `COLUMNS` (what a shell exports
 * and what a script can set), else 80; at most 100.
 */
export function helpWidth(columns: number | undefined, env: Record<string, string | undefined>): number {
  const fromEnv = Number(env.COLUMNS);
  const found = columns && columns > 0 ? columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH;
  return Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, found));
}

/** Greedy word wrap; a word longer than the width stays whole on its own line. */
export function wrapWords(text: string, width: number): string[] {
  return packWords(text.split(/\s+/).filter(Boolean), () => width);
}

/** Words joined by spaces into lines greedily, line `i` at most `widthOf(i)` wide unless one word is wider. */
function packWords(words: readonly string[], widthOf: (lineIndex: number) => number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= widthOf(lines.length)) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

function paragraph(text: string, width: number, indent = ""): string[] {
  return wrapWords(text, width - indent.length).map((line) => indent + line);
}

/** Two columns: the terms, then their texts wrapped beside them (or below a term too long to share its line). */
function renderRows(rows: readonly (readonly [string, string])[], width: number): string[] {
  const column = Math.max(0, ...rows.map(([term]) => term.length).filter((n) => n <= MAX_TERM));
  const textStart = INDENT.length + column + GAP.length;
  // Too narrow for a readable second column: every text goes below its term.
  const stacked = width - textStart < 24;
  const hanging = stacked ? `${INDENT}      ` : " ".repeat(textStart);
  const out: string[] = [];
  for (const [term, text] of rows) {
    const lines = wrapWords(text, width - hanging.length);
    if (stacked || term.length > column) {
      out.push(INDENT + term, ...lines.map((line) => hanging + line));
      continue;
    }
    const [first = "", ...rest] = lines;
    out.push(`${INDENT}${term.padEnd(column)}${GAP}${first}`.trimEnd(), ...rest.map((line) => hanging + line));
  }
  return out;
}

function aliasesOf(def: ArgDef): string[] {
  const alias = "alias" in def ? def.alias : undefined;
  return alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
}

/** A flag as help shows it; a switch that is on by default only as its `--no-` form, the one a user types. */
function optionRow(name: string, def: ArgDef): [string, string] {
  const negated = def.type === "boolean" && def.default === true;
  const short = aliasesOf(def).find((alias) => alias.length === 1);
  const long = `--${negated ? "no-" : ""}${name}`;
  const hint = (def.type === "string" || def.type === "enum") && def.valueHint ? ` <${def.valueHint}>` : "";
  const term = `${short && !negated ? `-${short}, ` : "    "}${long}${hint}`;
  const text = negated && "negativeDescription" in def ? (def.negativeDescription ?? "") : (def.description ?? "");
  return [term, text];
}

function positionals(args: ArgsDef): [string, ArgDef][] {
  return Object.entries(args).filter(([, def]) => def.type === "positional");
}

/**
 * A shell command too wide for the terminal, broken between words with ` \` so it still pastes as
 * one command; a quoted argument is one word, since a break inside it would change it.
 */
export function wrapCommand(command: string, width: number): string[] {
  const words = command.match(/(?:"[^"]*"|'[^']*'|\S)+/g) ?? [];
  // Each line keeps 2 columns for ` \`; every line after the first is indented by 2.
  const lines = packWords(words, (i) => width - (i === 0 ? 0 : 2) - 2);
  return lines.map((text, i) => `${i === 0 ? "" : "  "}${text}${i < lines.length - 1 ? " \\" : ""}`);
}

function renderText(paragraphs: readonly string[], width: number): string[] {
  return paragraphs.flatMap((text) => (text === "" ? [""] : text.startsWith(" ") ? [INDENT + text] : paragraph(text, width, INDENT)));
}

function renderSection(section: HelpSection, width: number): string[] {
  let body: string[];
  if ("rows" in section) body = renderRows(section.rows, width);
  else if ("text" in section) body = renderText(section.text, width);
  else
    body = section.commands.flatMap((line) =>
      (line.length + INDENT.length <= width ? [line] : wrapCommand(line, width - INDENT.length)).map((text) => INDENT + text),
    );
  return ["", section.title, ...body];
}

/** `agent <command> --help`: description, usage, arguments, options, then the command's own sections. */
export function renderCommandHelp(help: CommandHelp, width: number): string {
  const args = positionals(help.args);
  const usage = `agent ${help.name}${Object.keys(help.args).length > args.length ? " [options]" : ""}${args.map(([name, def]) => (def.required === false ? ` [${name}]` : ` <${name}>`)).join("")}`;
  const options = Object.entries(help.args).filter(([, def]) => def.type !== "positional");
  const lines = [
    ...paragraph(help.description ?? help.summary, width),
    "",
    "USAGE",
    ...paragraph(usage, width, INDENT),
    ...(args.length > 0
      ? [
          "",
          "ARGUMENTS",
          ...renderRows(
            args.map(([name, def]) => [`<${name}>`, def.description ?? ""]),
            width,
          ),
        ]
      : []),
    ...(options.length > 0
      ? ["", "OPTIONS", ...renderRows([...options.map(([name, def]) => optionRow(name, def)), ["-h, --help", "Show this help"]], width)]
      : []),
    ...(help.sections ?? []).flatMap((section) => renderSection(section, width)),
  ];
  return `${lines.join("\n")}\n`;
}

/** `agent --help`: what the tool is for and its commands. */
export function renderMainHelp(summary: string, commands: readonly CommandHelp[], width: number): string {
  const lines = [
    ...paragraph(summary, width),
    "",
    "USAGE",
    `${INDENT}agent <command> [options]`,
    "",
    "COMMANDS",
    ...renderRows(
      [
        ...commands.map((command): [string, string] => [command.name, command.summary]),
        ["help", "Show a command's flags (agent help <command>)"],
      ],
      width,
    ),
    "",
    "OPTIONS",
    ...renderRows(
      [
        ["-h, --help", "Show this help"],
        ["-V, --version", "Show the version"],
      ],
      width,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
