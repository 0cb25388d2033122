import {
  ASSIGNMENT_HINT,
  ASSIGNMENT_PATTERN,
  assignmentKind,
  isPlaceholderValue,
  looksLikeCode,
  TOKEN_HINT,
  TOKEN_PATTERN,
  TOKEN_RULES,
} from "./redact-rules.ts";

/**
 * Replaces likely secrets with stable placeholders before text leaves the machine, and puts
 * them back in what comes home. One redactor per request: the same secret always gets the same
 * placeholder (`[REDACTED:github-token:1]`), so the model can still tell two keys apart.
 */
export interface Redactor {
  redact(text: string): string;
  /** Puts the originals back wherever the model repeated a placeholder (also `\[…\]`-escaped). */
  restore(text: string): string;
  /** Distinct secrets replaced so far. */
  readonly count: number;
  /** Distinct secrets replaced so far, by kind. */
  readonly kinds: Record<string, number>;
}

const PLACEHOLDER = /\\?\[REDACTED:([a-z0-9-]+):(\d+)\\?\]/g;

export function createRedactor(): Redactor {
  const placeholders = new Map<string, string>(); // secret → placeholder
  const originals = new Map<string, string>(); // placeholder → secret
  const kinds: Record<string, number> = {};

  function placeholderFor(secret: string, kind: string): string {
    const known = placeholders.get(secret);
    if (known !== undefined) return known;
    const n = (kinds[kind] ?? 0) + 1;
    kinds[kind] = n;
    const placeholder = `[REDACTED:${kind}:${n}]`;
    placeholders.set(secret, placeholder);
    originals.set(placeholder, secret);
    return placeholder;
  }

  function redactTokens(text: string): string {
    return replaceMatches(text, TOKEN_PATTERN, (match) => {
      const groups = match.groups ?? {};
      for (let i = 0; i < TOKEN_RULES.length; i++) {
        const secret = groups[`s${i}`];
        const rule = TOKEN_RULES[i];
        if (secret === undefined || rule === undefined) continue;
        const lead = groups[`l${i}`] ?? "";
        if (lead !== "") {
          if (isPlaceholderValue(secret)) return match[0];
          // A provider token after `Bearer` or in a URL keeps its own, more telling kind.
          const inner = redactTokens(secret);
          if (inner !== secret) return lead + inner;
        }
        return lead + placeholderFor(secret, rule.kind);
      }
      return match[0];
    });
  }

  function redactAssignments(text: string): string {
    return replaceMatches(text, ASSIGNMENT_PATTERN, (match) => {
      const { lead = "", word, word2, quote, quoted, bare, call = "" } = match.groups ?? {};
      const kind = assignmentKind(word ?? word2 ?? "");
      if (quoted !== undefined && quote !== undefined) {
        if (isPlaceholderValue(quoted)) return match[0];
        return `${lead}${quote}${placeholderFor(quoted, kind)}${quote}`;
      }
      if (bare === undefined || isPlaceholderValue(bare)) return match[0];
      const separator = lead.slice(lead.search(/[ \t:=]*$/));
      if (looksLikeCode(bare, separator, call !== "")) return match[0];
      return `${lead}${placeholderFor(bare, kind)}${call}`;
    });
  }

  return {
    redact(text) {
      // Tokens first: their kinds are more precise than "the value of a password key".
      const tokensDone = TOKEN_HINT.test(text) ? redactTokens(text) : text;
      return ASSIGNMENT_HINT.test(tokensDone) ? redactAssignments(tokensDone) : tokensDone;
    },
    restore(text) {
      return text.replace(PLACEHOLDER, (whole: string, kind: string, n: string) => originals.get(`[REDACTED:${kind}:${n}]`) ?? whole);
    },
    get count() {
      return placeholders.size;
    },
    get kinds() {
      return { ...kinds };
    },
  };
}

/** `text.replace(pattern, fn)` with a typed match; `pattern` must be global. Re-entrant. */
function replaceMatches(text: string, pattern: RegExp, replace: (match: RegExpMatchArray) => string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    const index = match.index ?? from;
    out += text.slice(from, index) + replace(match);
    from = index + match[0].length;
  }
  return from === 0 ? text : out + text.slice(from);
}
