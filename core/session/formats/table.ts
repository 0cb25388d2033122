import { claudeCode } from "./claude-code/index.ts";
import { codex } from "./codex/index.ts";
import { gemini } from "./gemini/index.ts";
import { omp } from "./omp/index.ts";
import { opencode } from "./opencode/index.ts";
import { pi } from "./pi/index.ts";
import type { FileAgentName } from "../types.ts";
import type { AgentName, SessionFormat } from "./types.ts";

/**
 * Every agent whose sessions we read and write, in the order detection asks them. A new agent is
 * its folder and one line here; nothing outside `formats/` names an agent.
 */
export const FORMATS: readonly SessionFormat[] = [pi, omp, claudeCode, codex, gemini, opencode];

/**
 * The formats whose sessions are files (every one but those kept as rows in a database): what
 * discovery walks folders for. The cast holds because `rows` is set exactly for `RowAgentName`
 * (table.test.ts).
 */
export const FILE_FORMATS = FORMATS.filter((format) => format.rows === undefined) as readonly (SessionFormat & { name: FileAgentName })[];

/** The format a person named, by its name or an alias, in any case (`claude`, `Claude-Code`); undefined when none is. */
export function findFormat(nameOrAlias: string): SessionFormat | undefined {
  const wanted = nameOrAlias.trim().toLowerCase();
  return FORMATS.find((format) => format.name === wanted || format.aliases.includes(wanted));
}

/** The format of an agent name we wrote ourselves (a session's `format`); a name not in the table is a bug. */
export function formatNamed(name: AgentName): SessionFormat {
  const format = FORMATS.find((f) => f.name === name);
  if (!format) throw new Error(`no session format "${name}" in the table`);
  return format;
}

/** The first format that takes a file's first lines (raw text, blank lines left out) for its own. */
export function detectFormat(head: readonly string[]): SessionFormat | undefined {
  return FORMATS.find((format) => format.detect(head));
}

/** `a`, `a or b`, `a, b or c`. */
function either(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** The formats we read, as people call them: `pi, omp, Claude Code or Codex`. */
export function describeFormats(): string {
  return either(FORMATS.map((f) => f.label));
}

/** The formats `keep` takes, as people call them: `pi or omp`. For help text that says which agents a rule applies to. */
export function describeFormatsWhere(keep: (format: SessionFormat) => boolean): string {
  return either(FORMATS.filter(keep).map((f) => f.label));
}

/** What a flag naming an agent takes, in words: `pi, omp, claude-code (or claude) or codex`. */
export function describeFormatNames(): string {
  return describeFormatNamesWhere(() => true);
}

/** The same, for the formats `keep` takes (the agents that are engines too). */
export function describeFormatNamesWhere(keep: (format: SessionFormat) => boolean): string {
  return either(FORMATS.filter(keep).map((f) => (f.aliases.length > 0 ? `${f.name} (or ${f.aliases.join(", ")})` : f.name)));
}

/** The same as code, for help details and docs: `` `pi`, `omp`, `claude-code` (or `claude`), `codex` ``, the formats `keep` takes. */
export function describeFormatNamesInCode(keep: (format: SessionFormat) => boolean = () => true): string {
  return FORMATS.filter(keep)
    .map((f) => (f.aliases.length > 0 ? `\`${f.name}\` (or ${f.aliases.map((a) => `\`${a}\``).join(", ")})` : `\`${f.name}\``))
    .join(", ");
}
