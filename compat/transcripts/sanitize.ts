/**
 * The agents' own prose (system prompts, base instructions, rendered reminders, prompt
 * snapshots, tool descriptions) is not ours to copy into the repository: every string longer
 * than a short label in a transcript is replaced by a placeholder of the same shape — the
 * same wrapping tag, if any, and a note of how long the original was. Our own texts (the
 * prompts, the scripted answers, the tool output of the little project) are kept, also where
 * an agent wrapped them in prose of its own (a compaction summary, a tool result): the prose
 * around them becomes placeholders.
 */
import { isObject, type JsonObject } from "../../core/json.ts";
import { SUMMARY_TRAILER_OPENINGS } from "../../core/session/formats/claude-code/compaction.ts";
import { SUMMARY_PREAMBLE_START } from "../../core/session/formats/codex/harness.ts";
import { SESSION_CONTEXT_OPEN } from "../../core/session/formats/gemini/messages.ts";

/** Strings up to this length are kept in conversation lines: labels, paths, tool outputs, the agents' short wrappers. */
const KEEP = 300;
/** In lines that only carry the agent's own material (prompts, reminders, settings), only labels are kept. */
const KEEP_IN_PROSE = 60;

/**
 * Lines that hold the agent's own material rather than the conversation: Claude Code's
 * attachments (prompt snapshots, reminders, listings), its meta lines and request records;
 * Codex's session meta (base instructions), turn context, world state and developer messages.
 */
function isProseLine(line: JsonObject): boolean {
  const type = typeof line.type === "string" ? line.type : "";
  if (type === "attachment" || type.startsWith("api-request") || line.isMeta === true) return true;
  if (type === "session_meta" || type === "turn_context" || type === "world_state") return true;
  const payload = line.payload;
  return type === "response_item" && isObject(payload) && payload.role === "developer";
}

/**
 * The opening words the readers recognise an agent's own wrapper by (Codex's preamble before a
 * compaction summary, Claude Code's paragraphs after one, the tag that opens Gemini CLI's own
 * context): kept like our texts, so a recorded
 * transcript's wrapper still reads as the agent's, not as part of the summary. Facts our readers
 * hold anyway; the rest of each wrapper is still a placeholder.
 */
const WRAPPER_MARKERS: readonly string[] = [SUMMARY_PREAMBLE_START, ...SUMMARY_TRAILER_OPENINGS, SESSION_CONTEXT_OPEN];

const note = (agent: string, length: number) => `(${agent}'s own text, ${length} characters, replaced by bun run compat)`;

function placeholder(text: string, agent: string): string {
  const open = /^<([a-z_][a-z0-9_-]*)(\s[^>]*)?>/i.exec(text);
  const tag = open?.[1];
  if (tag && text.trimEnd().endsWith(`</${tag}>`)) return `${open[0]}\n${note(agent, text.length)}\n</${tag}>`;
  return note(agent, text.length);
}

/**
 * `text` with every stretch that is not one of `ours` replaced by a placeholder (a short one is
 * kept, but never the agent's words after one of its wrapper markers: only the marker stays).
 */
function keepOurs(text: string, agent: string, ours: readonly string[], keep: number): string {
  const found: { at: number; text: string }[] = [];
  for (const mine of ours) {
    for (let at = text.indexOf(mine); at >= 0; at = text.indexOf(mine, at + mine.length)) found.push({ at, text: mine });
  }
  if (found.length === 0) return placeholder(text, agent);
  found.sort((a, b) => a.at - b.at || b.text.length - a.text.length);
  let out = "";
  let cursor = 0;
  let afterMarker = false;
  const kept = (gap: string) => gap.length <= keep && !afterMarker;
  for (const { at, text: mine } of found) {
    if (at < cursor) continue;
    const gap = text.slice(cursor, at);
    out += gap.trim() === "" ? gap : kept(gap) ? gap : `${note(agent, gap.length)}\n`;
    out += mine;
    cursor = at + mine.length;
    afterMarker = WRAPPER_MARKERS.includes(mine);
  }
  const rest = text.slice(cursor);
  return out + (rest.trim() === "" || kept(rest) ? rest : `${afterMarker ? "" : "\n"}${note(agent, rest.length)}`);
}

function sanitizeValue(value: unknown, agent: string, ours: readonly string[], keep: number): unknown {
  if (typeof value === "string") return value.length > keep ? keepOurs(value, agent, ours, keep) : value;
  if (Array.isArray(value)) return value.map((v) => sanitizeValue(v, agent, ours, keep));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = sanitizeValue(v, agent, ours, keep);
    return out;
  }
  return value;
}

/** One JSON Lines file with the agent's prose replaced; `ours` are the texts to keep. A line that is not JSON is kept as it is. */
export function sanitizeTranscript(text: string, agent: string, ours: readonly string[]): string {
  const lines = text.split("\n");
  return lines
    .map((line, i) => {
      if (line === "" && i === lines.length - 1) return line;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return line;
      }
      const keep = isObject(value) && isProseLine(value) ? KEEP_IN_PROSE : KEEP;
      const clean = JSON.stringify(sanitizeValue(value, agent, [...ours, ...WRAPPER_MARKERS], keep));
      return clean === JSON.stringify(value) ? line : clean;
    })
    .join("\n");
}
