import type { ChatRequest, Complete } from "../llm/types.ts";
import type { SessionFacts } from "../session/facts.ts";
import type { ContextMessage } from "../session/messages.ts";
import { choosePlaceholderWord, createRedactor, type Redactor } from "./redact.ts";
import { mapContextText, mapRequestText, type TextMap } from "./outgoing-strings.ts";
import { createWithholding, type Withhold } from "./withhold.ts";

/** What a handoff may send, before the guard. */
export interface GuardInput {
  context: readonly ContextMessage[];
  focus?: string;
  systemPrompt?: string;
  /** Replace likely secrets by placeholders (default true). */
  redact?: boolean;
  /** Strings never sent, written or restored (the API key). */
  withheld?: readonly string[];
}

/** The part of the input that reaches requests, as it may leave the machine. */
export interface OutgoingInput {
  context: ContextMessage[];
  focus: string | undefined;
  systemPrompt: string | undefined;
}

declare const guarded: unique symbol;

/**
 * What a document is written from (the offline engine's sections, Session Facts), as the guard
 * passed it: redacted like a request (the key withheld), so every cut a document makes (a quote
 * cut to its length, a command to one line, a sentence to a bullet) cuts placeholders, never a
 * secret; `restore` then puts back each placeholder left whole, and a secret a cut went through
 * stays out. Only `SecretsGuard.forDocument` makes one.
 */
export type DocumentSources = {
  context: ContextMessage[];
  facts: SessionFacts;
  focus: string | undefined;
  cwd: string | undefined;
} & { readonly [guarded]: true };

/**
 * The secrets rules of one handoff, each at one boundary:
 * - input: the context, focus and system prompt are redacted (and the key withheld) before
 *   anything is planned or cut, so condensing never splits a secret and every text built from
 *   them (requests, notes transcripts) holds placeholders only; in two passes (find, then
 *   replace every occurrence of each secret found), so a secret is one placeholder everywhere;
 * - the model port: answers come back redacted too (a model may write a secret-looking string,
 *   an endpoint may echo the key), so every text the engine can put in a later request, notes
 *   and first answers included, holds placeholders only, and nothing restored can go back out;
 *   every request loses the key on its way out, whatever the flags;
 * - the document: built only from `forDocument`'s sources (redacted as the input is), so a cut
 *   of text is always made after redaction, never through a secret;
 * - the end: `restore` runs once, on the final document, after the last request; `withhold`
 *   runs on everything written or printed. The key is never restored.
 */
export interface SecretsGuard {
  /** The input as it may be sent. Computed on first use (the offline engine never needs it). */
  outgoing(): OutgoingInput;
  /** A request as it may leave the machine: the key withheld from every string in it. */
  request(request: ChatRequest): ChatRequest;
  /** The model port: every request passed through `request`; answers redacted, never restored. */
  port(complete: Complete): Complete;
  /** What a document is written from: the input as it may be sent, and `facts` and `cwd` redacted the same way. */
  forDocument(facts: SessionFacts, cwd: string | undefined): DocumentSources;
  /** The originals back in place of the placeholders this run issued. */
  restore(text: string): string;
  withhold: Withhold;
  /** Distinct secrets replaced by placeholders. */
  readonly redacted: number;
}

/** Every text of the input that requests are built from. */
function inputTexts(context: readonly ContextMessage[], extra: readonly (string | undefined)[]): string[] {
  const texts = extra.filter((t): t is string => t !== undefined);
  const collect = (text: string) => {
    texts.push(text);
    return text;
  };
  mapContextText(context, { text: collect, assigned: (_key, value) => collect(value), opaque: (text) => text });
  return texts;
}

/**
 * Plain data (facts: strings, numbers, lists, records) with every string passed through `map`,
 * whatever fields it grows. A list or a record whose strings all stay is itself (nothing reads
 * the facts to change them), so a run that redacts nothing copies nothing.
 */
function mapStrings<T>(value: T, map: (text: string) => string): T {
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return map(item);
    if (typeof item !== "object" || item === null) return item;
    if (Array.isArray(item)) {
      let items: unknown[] | undefined;
      for (let i = 0; i < item.length; i++) {
        const inner = walk(item[i]);
        if (items === undefined && inner !== item[i]) items = item.slice(0, i);
        items?.push(inner);
      }
      return items ?? item;
    }
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record);
    let entries: [string, unknown][] | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const inner = walk(record[key]);
      if (entries === undefined && inner !== record[key]) entries = keys.slice(0, i).map((kept) => [kept, record[kept]]);
      entries?.push([key, inner]);
    }
    // fromEntries defines own properties: a `__proto__` key stays a key.
    return entries === undefined ? item : Object.fromEntries(entries);
  };
  return walk(value) as T;
}

/** Texts up to this long are mapped once a pass: the keys of tool arguments and the tool names recur hundreds of times. */
const SHORT_TEXT = 64;

/**
 * `map` with a memo of the short texts it was given: their second look is a lookup. Only for a
 * map that gives one text the same answer each time and changes nothing the second time (the
 * redactor does: a secret keeps its placeholder).
 */
function rememberingShort(map: (text: string) => string): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    if (text.length > SHORT_TEXT) return map(text);
    let mapped = known.get(text);
    if (mapped === undefined) {
      mapped = map(text);
      known.set(text, mapped);
    }
    return mapped;
  };
}

/** `rememberingShort` for values under a key (tool arguments: the same `path` read again, the same `timeout`). */
function rememberingShortAssigned(map: TextMap["assigned"]): TextMap["assigned"] {
  const known = new Map<string | undefined, Map<string, string>>();
  return (key, value) => {
    if (value.length > SHORT_TEXT) return map(key, value);
    let underKey = known.get(key);
    if (underKey === undefined) {
      underKey = new Map();
      known.set(key, underKey);
    }
    let mapped = underKey.get(value);
    if (mapped === undefined) {
      mapped = map(key, value);
      underKey.set(value, mapped);
    }
    return mapped;
  };
}

/** Withheld first: the key must not become a redactor's original, which would be restored. */
function textMap(redactor: Redactor | undefined, withhold: Withhold): TextMap {
  if (!redactor) return { text: withhold, assigned: (_key, value) => withhold(value), opaque: withhold };
  return {
    text: rememberingShort((text) => redactor.redact(withhold(text))),
    assigned: rememberingShortAssigned((key, value) =>
      key === undefined ? redactor.redact(withhold(value)) : redactor.redactAssigned(key, withhold(value)),
    ),
    opaque: withhold,
  };
}

/** Every occurrence of a secret found in the first pass, replaced by its placeholder. Ids stay. */
function knownMap(redactor: Redactor): TextMap {
  return { text: redactor.redactKnown, assigned: (_key, value) => redactor.redactKnown(value), opaque: (text) => text };
}

export function createSecretsGuard(input: GuardInput): SecretsGuard {
  // A lone UTF-16 surrogate (a `\ud800` escape in a session line or in an answer) is not text any
  // reader accepts: Anthropic's API refuses a request holding one, and Codex's JSON reader drops
  // the line. Whatever leaves (requests, the document, the files built from it) carries U+FFFD
  // instead, as invalid UTF-8 read from a file does.
  const { withholdWellFormed: withhold, keepsJson } = createWithholding(input.withheld ?? []);
  // Every value of the input that withholding gave back as it was. Withholding is a function of
  // the text alone, so it gives any string equal to one of these back as it is: a request made of
  // them (the context, as sent) is not scanned a second time. Values, not places.
  const kept = new Set<string>();
  const withholdNoting: Withhold = (text) => {
    const withheld = withhold(text);
    if (withheld === text) kept.add(text);
    return withheld;
  };
  const withholdOnce: Withhold = (text) => (kept.has(text) ? text : withhold(text));
  // Printable ASCII is well-formed: what the withholder keeps, the surrogate repair keeps too.
  const withholding: TextMap = { text: withholdOnce, assigned: (_key, value) => withholdOnce(value), opaque: withholdOnce, keepsJson };
  let redactor: Redactor | undefined;
  let outgoing: OutgoingInput | undefined;

  function mapInput(map: TextMap, from: GuardInput | OutgoingInput = input): OutgoingInput {
    return {
      context: mapContextText(from.context, map),
      focus: from.focus === undefined ? undefined : map.text(from.focus),
      systemPrompt: from.systemPrompt === undefined ? undefined : map.text(from.systemPrompt),
    };
  }

  function prepare(): OutgoingInput {
    if (outgoing) return outgoing;
    // The word is looked for in the input only once a placeholder is issued (most runs issue none).
    if (input.redact !== false)
      redactor = createRedactor({ word: () => choosePlaceholderWord(inputTexts(input.context, [input.focus, input.systemPrompt])) });
    const found = mapInput(textMap(redactor, withholdNoting));
    // Second pass: a secret found anywhere is replaced everywhere, also where it recurs without
    // what made it one (a later message, the focus quoting a password found in a URL).
    // Nothing found, nothing recurs: the texts are not walked again.
    outgoing = redactor && redactor.count > 0 ? mapInput(knownMap(redactor), found) : found;
    return outgoing;
  }

  const request = (r: ChatRequest): ChatRequest => mapRequestText(r, withholding);

  function forDocument(facts: SessionFacts, cwd: string | undefined): DocumentSources {
    const { context, focus } = prepare();
    // Each text passes both passes at once: a secret the context held has its placeholder already.
    const pass = (text: string) => (redactor ? redactor.redactKnown(redactor.redact(withhold(text))) : withhold(text));
    // Facts repeat their strings (a path read and written, a command run again): each is mapped once,
    // while no secret is found in between (one found would make `redactKnown` replace more).
    const known = new Map<string, string>();
    let found = redactor?.count ?? 0;
    const map = (text: string) => {
      if ((redactor?.count ?? 0) !== found) {
        known.clear();
        found = redactor?.count ?? 0;
      }
      let mapped = known.get(text);
      if (mapped === undefined) {
        mapped = pass(text);
        known.set(text, mapped);
      }
      return mapped;
    };
    return { context, focus, cwd: cwd === undefined ? undefined : map(cwd), facts: mapStrings(facts, map) } as DocumentSources;
  }

  return {
    outgoing: prepare,
    request,
    port: (complete) => async (r, options) => {
      const completion = await complete(request(r), options);
      prepare();
      const text = redactor ? redactor.redactKnown(redactor.redact(withhold(completion.text))) : withhold(completion.text);
      return { ...completion, text };
    },
    forDocument,
    restore: (text) => redactor?.restore(text) ?? text,
    withhold,
    get redacted() {
      return redactor?.count ?? 0;
    },
  };
}
