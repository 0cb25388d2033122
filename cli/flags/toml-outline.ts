/**
 * One pass over a TOML text for what must be known around parsing it: where each top-level key
 * is first written (Bun's parser says what a file holds, not where), and how many keys it defines
 * and how deep it nests, so that a hostile file is refused before the parser sees it (Bun's TOML
 * parser takes time growing with the square of the keys in one table: 60,000 keys took 6 s, and
 * a million-deep array overflows its stack). Strings and comments are skipped as TOML reads them;
 * a text that is not valid TOML is scanned to its end all the same (the parser says what is wrong).
 */

export interface OutlineBounds {
  maxKeys: number;
  maxDepth: number;
}

export interface TomlOutline {
  /** The 1-based line each top-level key is first written on: `key =`, `"key" =`, `key.sub =`, `[key]`, `[[key]]`. */
  keyLines: Map<string, number>;
  /** The line where the text defined its `maxKeys + 1`th key (each `=` and each table header counts), if it did. */
  tooManyKeysAt?: number;
  /** The line where arrays, tables and dotted keys first nested deeper than `maxDepth`, if they did. */
  tooDeepAt?: number;
}

/** Index just past the string that opens at `at` (basic or literal, one line or several), and the line breaks in it. */
function skipString(text: string, at: number): { end: number; newlines: number } {
  const quote = text[at] ?? '"';
  const triple = quote.repeat(3);
  const multi = text.startsWith(triple, at);
  let newlines = 0;
  for (let i = at + (multi ? 3 : 1); i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && quote === '"') {
      if (text[i + 1] === "\n") newlines++;
      i++;
    } else if (c === "\n") {
      // A one-line string cut by the end of its line: the line ends it.
      if (!multi) return { end: i, newlines };
      newlines++;
    } else if (c === quote && !multi) return { end: i + 1, newlines };
    else if (c === quote && text.startsWith(triple, i)) {
      // Up to two more quotes right before the closing three belong to the string.
      let end = i + 3;
      while (end < i + 5 && text[end] === quote) end++;
      return { end, newlines };
    }
  }
  return { end: text.length, newlines };
}

/** The first part of a key as written (`"a.b".c` → `a.b`, `'x'` → `x`, `model.sub` → `model`). */
function firstSegment(key: string): string {
  const trimmed = key.trim();
  const quote = trimmed[0];
  if (quote === "'") return trimmed.slice(1, Math.max(1, trimmed.indexOf("'", 1)));
  if (quote === '"') {
    const raw = trimmed.slice(0, skipString(trimmed, 0).end);
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === "string") return value;
    } catch {
      // An escape JSON does not share with TOML (`\e`, `\x41`): the key as written.
    }
    return raw.slice(1, -1);
  }
  return /^[^\s.=\]]*/.exec(trimmed)?.[0] ?? "";
}

export function outlineToml(text: string, bounds: OutlineBounds): TomlOutline {
  const outline: TomlOutline = { keyLines: new Map() };
  let line = 1;
  let keys = 0;
  /** The arrays (`[`) and inline tables (`{`) open where we are. */
  const open: string[] = [];
  /** Where the key being read began (-1: no key is being read), and the dots in it so far. */
  let keyStart = -1;
  let dots = 0;
  /** Nothing but blanks since the last statement ended. */
  let atStatement = true;
  /** A table header came: a `key =` after it is not a top-level key. */
  let inTable = false;
  const defined = (depth: number) => {
    keys++;
    if (keys > bounds.maxKeys) outline.tooManyKeysAt ??= line;
    if (depth > bounds.maxDepth) outline.tooDeepAt ??= line;
  };
  const seen = (key: string) => {
    if (!outline.keyLines.has(key)) outline.keyLines.set(key, line);
  };
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; ) {
    const c = text[i];
    if (c === "\n") {
      line++;
      i++;
      if (open.length === 0) {
        atStatement = true;
        keyStart = -1;
      }
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "#") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
      continue;
    }
    if (atStatement && c === "[") {
      // A table header: `[a.b]` or `[[a.b]]`, on one line.
      const start = text[i + 1] === "[" ? i + 2 : i + 1;
      let end = start;
      let headerDots = 0;
      while (end < text.length && text[end] !== "]" && text[end] !== "\n") {
        if (text[end] === '"' || text[end] === "'") {
          const skipped = skipString(text, end);
          line += skipped.newlines;
          end = skipped.end;
        } else if (text[end++] === ".") headerDots++;
      }
      seen(firstSegment(text.slice(start, end)));
      defined(headerDots + 1);
      inTable = true;
      atStatement = false;
      i = end;
      while (text[i] === "]") i++;
      continue;
    }
    const inInlineTable = open.at(-1) === "{";
    if (atStatement) {
      atStatement = false;
      keyStart = i;
      dots = 0;
    }
    if (c === '"' || c === "'") {
      const { end, newlines } = skipString(text, i);
      line += newlines;
      i = end;
      continue;
    }
    if (c === "." && keyStart !== -1) dots++;
    else if (c === "=") {
      defined(open.length + dots + 1);
      if (open.length === 0 && keyStart !== -1 && !inTable) seen(firstSegment(text.slice(keyStart, i)));
      keyStart = -1;
    } else if (c === "[" || c === "{") {
      open.push(c);
      if (open.length > bounds.maxDepth) outline.tooDeepAt ??= line;
      // An inline table's keys start right after its brace.
      if (c === "{") {
        keyStart = i + 1;
        dots = 0;
      }
    } else if (c === "]" || c === "}") open.pop();
    else if (c === "," && inInlineTable) {
      keyStart = i + 1;
      dots = 0;
    }
    i++;
  }
  return outline;
}
