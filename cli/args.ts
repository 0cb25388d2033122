import type { ArgsDef } from "citty";

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The closest known word, when it is close enough to be what the user meant. */
export function suggest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/**
 * citty accepts flags it does not know without a word, so a typo like `--foucs` would silently
 * hand off without the focus. Returns a message for the first unknown flag, or `undefined`.
 */
export function findUnknownFlag(rawArgs: readonly string[], argsDef: ArgsDef): string | undefined {
  const long = new Map<string, boolean>(); // flag name → takes a value
  const short = new Map<string, boolean>();
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === "positional") continue;
    const takesValue = def.type === "string" || def.type === "enum";
    long.set(kebab(name), takesValue);
    if (def.type === "boolean") long.set(`no-${kebab(name)}`, false);
    const alias = "alias" in def ? def.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const alias of aliases) (alias.length === 1 ? short : long).set(alias, takesValue);
  }
  long.set("help", false);
  short.set("h", false);

  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] ?? "";
    if (arg === "--") break;
    if (!arg.startsWith("-") || arg === "-") continue;
    const [flag = "", inlineValue] = arg.replace(/^-+/, "").split(/=(.*)/s, 2);
    if (!arg.startsWith("--")) {
      // Short flags group as citty reads them: `-qv` is -q -v; `-fText` is -f with the value "Text".
      const letters = [...flag];
      for (const [j, letter] of letters.entries()) {
        const takesValue = short.get(letter);
        if (takesValue === undefined) return unknownFlagMessage(letters.length === 1 ? `-${letter}` : `-${letter} (in ${arg})`, letter, long);
        if (!takesValue) continue;
        if (j === letters.length - 1 && inlineValue === undefined) {
          if (!isValue(rawArgs[i + 1])) return `option -${letter} needs a value`;
          i++;
        }
        break;
      }
      continue;
    }
    const name = kebab(flag);
    const takesValue = long.get(name);
    if (takesValue === undefined) return unknownFlagMessage(arg.split("=")[0] ?? arg, name, long);
    if (takesValue && inlineValue === undefined) {
      // citty would quietly take the flag as empty: `--out` with nothing after it must not
      // fall back to writing beside the source.
      if (!isValue(rawArgs[i + 1])) return `option --${name} needs a value`;
      i++;
    }
  }
  return undefined;
}

/** What can follow a flag as its value: anything but nothing, `--`, or another flag. */
function isValue(next: string | undefined): boolean {
  return next !== undefined && (next === "-" || !next.startsWith("-") || /^-\d/.test(next));
}

function unknownFlagMessage(shown: string, name: string, long: Map<string, boolean>): string {
  // `--no-x` forms are only offered for a word that starts like one (`--no-recrod` → `--no-record`).
  const negated = name.startsWith("no");
  const hint = suggest(name, [...long.keys()].filter((k) => negated || !k.startsWith("no-")));
  return `unknown option ${shown}${hint ? `; did you mean --${hint}?` : ""}`;
}
