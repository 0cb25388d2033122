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

/**
 * The closest known word, when it is close enough to be what the user meant: a few edits away,
 * and sharing something with it (`-x` is two edits from `to`, but nothing of it).
 */
export function suggest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  if (best === undefined || bestDistance >= Math.max(word.length, best.length)) return undefined;
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** How a flag is read: whether it takes a value, and whether an empty one would point elsewhere. */
interface FlagRule {
  takesValue: boolean;
  /** Its value names a file, an entry or an endpoint (`valueHint` path, id or url). */
  namesSomething: boolean;
  valueHint?: string;
  /** The long name, for messages about an alias. */
  name: string;
}

/** Hints whose flags name something to act on (an empty value for them is never "the default"), in words. */
/**
 * Value flags whose empty value is refused, by their value hint: one naming a file, an entry or an
 * endpoint, and every number (`--max-input-tokens "$LIMIT"` with it unset must not mean "no limit").
 */
const NAMING_HINTS: Record<string, string> = {
  path: "a path",
  id: "an id",
  url: "a URL",
  n: "a number",
  seconds: "a number of seconds",
  tokens: "a number of tokens",
};

function flagTable(argsDef: ArgsDef): { long: Map<string, FlagRule>; short: Map<string, FlagRule> } {
  const long = new Map<string, FlagRule>();
  const short = new Map<string, FlagRule>();
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === "positional") continue;
    const valueHint = "valueHint" in def && typeof def.valueHint === "string" ? def.valueHint : undefined;
    const rule: FlagRule = {
      takesValue: def.type === "string" || def.type === "enum",
      namesSomething: valueHint !== undefined && valueHint in NAMING_HINTS,
      valueHint,
      name: kebab(name),
    };
    long.set(kebab(name), rule);
    if (def.type === "boolean") long.set(`no-${kebab(name)}`, rule);
    const alias = "alias" in def ? def.alias : undefined;
    const aliases = alias === undefined ? [] : Array.isArray(alias) ? alias : [alias];
    for (const alias of aliases) (alias.length === 1 ? short : long).set(alias, rule);
  }
  const help: FlagRule = { takesValue: false, namesSomething: false, name: "help" };
  long.set("help", help);
  short.set("h", help);
  return { long, short };
}

function emptyValueMessage(shown: string, flag: FlagRule): string {
  return `option ${shown} needs ${NAMING_HINTS[flag.valueHint ?? ""] ?? "a value"}, not an empty string`;
}

/**
 * What citty would misread without a word, checked on the raw arguments before it parses them:
 * citty accepts unknown flags silently (a typo like `--foucs` would hand off without the focus),
 * takes `--no-record=true` as no negation at all, and takes `-o ""` as no `--out`. Returns a
 * message for the first such problem, or `undefined`. The rules, each for every flag:
 * - a flag must be known (with a suggestion when one is close);
 * - a flag that takes a value must get one (`--out` at the end, or before another flag, has none);
 * - a flag whose value names something to act on (its `valueHint` is a path, an id or a URL) must
 *   not get an empty one: falling back to the default would write, read or send elsewhere;
 * - a switch (`--json`, `--no-record`) takes no value: citty reads `--no-record=true` as
 *   recording and `--json=no` as JSON;
 * - a short flag's value does not start with "=": citty reads `-o=x` as the value "=x";
 * - no more words than the command has positionals (after `--` too): citty ignores the rest;
 * - no positional is an empty string (`agent handoff "$SESSION"` with it unset): citty takes it
 *   as not given, and `agent handoff` would hand off the newest session instead;
 * - every positional citty requires is there (its own message would be another style).
 */
export function findFlagProblem(rawArgs: readonly string[], argsDef: ArgsDef): string | undefined {
  const { long, short } = flagTable(argsDef);
  const words: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] ?? "";
    if (arg === "--") {
      words.push(...rawArgs.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      words.push(arg);
      continue;
    }
    if (!arg.startsWith("--")) {
      // Short flags group as citty reads them: `-qv` is -q -v; `-fText` is -f with the value "Text".
      const letters = [...arg.slice(1)];
      for (const [j, letter] of letters.entries()) {
        const flag = short.get(letter);
        if (flag === undefined) return unknownFlagMessage(letters.length === 1 ? `-${letter}` : `-${letter} (in ${arg})`, letter, long);
        if (!flag.takesValue) continue;
        const attached = letters.slice(j + 1).join("");
        // citty keeps the "=": `-o=x.jsonl` would write a file named "=x.jsonl".
        if (attached.startsWith("="))
          return `option -${letter} takes its value after a space (-${letter} ${attached.slice(1) || "VALUE"}) or as --${flag.name}=${attached.slice(1) || "VALUE"}, not ${arg}`;
        if (attached !== "") break;
        const next = rawArgs[i + 1];
        if (!isValue(next)) return `option -${letter} needs a value`;
        if (next === "" && flag.namesSomething) return emptyValueMessage(`-${letter}`, flag);
        i++;
        break;
      }
      continue;
    }
    const [written = "", inlineValue] = arg.slice(2).split(/=(.*)/s, 2);
    const name = kebab(written);
    const flag = long.get(name);
    if (flag === undefined) return unknownFlagMessage(`--${written}`, name, long);
    if (!flag.takesValue) {
      if (inlineValue !== undefined) return `option --${name} takes no value (found --${name}=${inlineValue})`;
      continue;
    }
    let value = inlineValue;
    if (value === undefined) {
      // citty would quietly take the flag as empty: `--out` with nothing after it must not
      // fall back to writing beside the source.
      value = rawArgs[i + 1];
      if (!isValue(value)) return `option --${name} needs a value`;
      i++;
    }
    if (value === "" && flag.namesSomething) return emptyValueMessage(`--${name}`, flag);
  }
  return emptyWordMessage(words, argsDef) ?? missingWordMessage(words, argsDef) ?? extraWordMessage(words, argsDef);
}

/** A positional citty requires (no `required: false`, no default) that was not given: said here, in our words, not in citty's. */
function missingWordMessage(words: readonly string[], argsDef: ArgsDef): string | undefined {
  const positionals = Object.entries(argsDef).filter(([, def]) => def.type === "positional");
  const missing = positionals.find(
    ([, def], i) => i >= words.length && def.required !== false && !("default" in def && def.default !== undefined),
  );
  return missing === undefined ? undefined : `argument <${missing[0]}> is missing`;
}

function emptyWordMessage(words: readonly string[], argsDef: ArgsDef): string | undefined {
  const names = Object.entries(argsDef)
    .filter(([, def]) => def.type === "positional")
    .map(([name]) => name);
  const at = words.indexOf("");
  if (at === -1 || at >= names.length) return undefined;
  return `argument <${names[at]}> needs a value, not an empty string (an unset variable?)`;
}

/** citty drops words beyond the positionals it knows: `agent handoff a.jsonl b.jsonl` would hand off a.jsonl alone. */
function extraWordMessage(words: readonly string[], argsDef: ArgsDef): string | undefined {
  const names = Object.entries(argsDef)
    .filter(([, def]) => def.type === "positional")
    .map(([name]) => `<${name}>`);
  const extra = words[names.length];
  if (extra === undefined) return undefined;
  const takes = names.length === 0 ? "takes no arguments" : `takes ${names.join(" ")} only`;
  return `unexpected argument "${extra}": this command ${takes}`;
}

/** What can follow a flag as its value: anything but nothing, `--`, or another flag. */
function isValue(next: string | undefined): boolean {
  return next !== undefined && (next === "-" || !next.startsWith("-") || /^-\d/.test(next));
}

function unknownFlagMessage(shown: string, name: string, long: Map<string, FlagRule>): string {
  // `--no-x` forms are only offered for a word that starts like one (`--no-recrod` → `--no-record`).
  const negated = name.startsWith("no");
  const hint = suggest(
    name,
    [...long.keys()].filter((k) => negated || !k.startsWith("no-")),
  );
  return `unknown option ${shown}${hint ? `; did you mean --${hint}?` : ""}`;
}
