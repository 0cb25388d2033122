import { createRedactor, createWithholder, DEFAULT_PLACEHOLDER_WORD, type Withhold } from "../../core/index.ts";
import { cutLine, markCleared, type Cleared } from "./shorten.ts";
import { asField, NOT_AS_ITSELF, stripControls, visiblePart } from "./terminal.ts";

/**
 * The one boundary every character we print passes: stdout and stderr, every command, every
 * message. The rule, in order: escape sequences and controls are stripped from what a person
 * reads (all of stderr, and stdout on a terminal), then every configured secret is withheld from
 * the final text. What is withheld is registered once, as soon as it is known (the key at start,
 * a `--base-url` once the flags are read), so no printer has to remember it. Messages for people
 * also lose likely secrets, as a request does: they quote what others said (an agent's or an
 * endpoint's error, a config line), and stderr ends up in CI logs.
 */

/** The placeholders the messages' redactor issues (it uses the default word). */
const ISSUED = new RegExp(String.raw`\[${DEFAULT_PLACEHOLDER_WORD}:[a-z0-9-]+:\d+\]`, "g");

/**
 * What a name made from a secret keeps of it: its letters and digits, in order. Agents make
 * folder names by turning punctuation into `-` (`ghp_…` → `ghp-…`, a password's `_` and `.`, a
 * key's base64 `/` and `+`) and cut a long one short; a path's `//` is printed as `/`. So a
 * message is compared with a secret on letters and digits alone: any `SHARED` of the secret's
 * in a row (all of them, for a secret with fewer) mark a part of it. No ordinary text shares 12
 * with a secret by chance (from 12 characters on a found secret is known anywhere, see
 * redact-known.ts); a secret with fewer than `FEWEST` is matched only as written.
 */
const SHARED = 12;
const FEWEST = 8;

function lettersAndDigits(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, "");
}

/**
 * A command for a person to paste (`Continue with: …`), given to the logger as one part of a
 * message: printed exactly as `command`, the shell words quoted from `words`, or not at all.
 * Filtering a quoted command would change what it names (a U+0085 stripped from a folder's
 * name, a `[REDACTED:…]` that bash reads as a glob), so the boundary prints it unfiltered, once
 * it has checked, when printing, that no filter would change it: every character shows as
 * itself, and nothing in it or in any word it was made from is withheld, looks like a secret
 * or holds a part of one found in the session's cwd. Otherwise it prints `instead`, given why
 * (where the exact command is, and why it is not shown).
 */
export class PasteLine {
  constructor(
    readonly command: string,
    readonly words: readonly string[],
    readonly instead: (why: string) => string,
  ) {}
}

/** What a message for a person is made of: our text and the data it quotes (filtered), and commands to paste (see PasteLine). */
export type Said = string | PasteLine;

/**
 * One run's filter: what it withholds and the secrets it recognised, and the one redactor of its
 * messages (a secret quoted twice reads as the same placeholder both times).
 */
export class PrintedFilter {
  private readonly secrets = new Set<string>();
  private withhold: Withhold = (text) => text;
  private readonly redactor = createRedactor();
  /** Parts of the secrets found by `recogniseInOutput`, by their letters and digits, with each secret's placeholder. */
  private readonly secretParts = new Map<string, string>();
  /** The lengths of the keys of `secretParts`, longest first. */
  private readonly partLengths: number[] = [];

  /** Adds `values` to what is withheld from everything printed from now on. */
  withholdFromOutput(values: readonly string[]): void {
    const before = this.secrets.size;
    for (const value of values) this.secrets.add(value);
    if (this.secrets.size !== before) this.withhold = createWithholder([...this.secrets]);
  }

  /**
   * Lets messages recognise the secrets in `texts`, for what messages print derived from it, not
   * as it is: the session's cwd, which agents turn into a folder name (`-home-dev-…`,
   * `--home-dev-…--`) and which is printed normalised (`//` → `/`), where no secret keeps the
   * shape that gives it away (`postgres---app-<password>@db`, a token after a `-`). A secret is
   * then replaced wherever its exact text recurs, and wherever its letters and digits recur with
   * other punctuation between them (see `SHARED`).
   */
  recogniseInOutput(texts: readonly string[]): void {
    for (const text of texts) {
      for (const placeholder of this.redactor.redact(this.withhold(text)).match(ISSUED) ?? []) {
        const letters = lettersAndDigits(this.redactor.restore(placeholder));
        if (letters.length < FEWEST) continue;
        const length = Math.min(SHARED, letters.length);
        if (!this.partLengths.includes(length)) this.partLengths.push(length);
        for (let i = 0; i + length <= letters.length; i++) {
          const part = letters.slice(i, i + length);
          if (!this.secretParts.has(part)) this.secretParts.set(part, placeholder);
        }
      }
    }
    this.partLengths.sort((a, b) => b - a);
  }

  /** `text` with each stretch whose letters and digits hold a recognised secret's part replaced by that secret's placeholder. */
  private replaceSecretParts(text: string): string {
    if (this.secretParts.size === 0) return text;
    let out = "";
    let from = 0;
    // Placeholders already in the text are stepped over, so their letters never join a stretch.
    for (const match of text.matchAll(ISSUED)) {
      out += this.replaceInStretch(text.slice(from, match.index)) + match[0];
      from = match.index + match[0].length;
    }
    return out + this.replaceInStretch(text.slice(from));
  }

  private replaceInStretch(text: string): string {
    const at: number[] = []; // where each letter or digit is in `text`
    for (let i = 0; i < text.length; i++) if (/[A-Za-z0-9]/.test(text[i] ?? "")) at.push(i);
    const letters = at.map((i) => text[i]).join("");
    const covered: (string | undefined)[] = new Array(letters.length);
    for (let i = 0; i < letters.length; i++) {
      for (const length of this.partLengths) {
        const placeholder = this.secretParts.get(letters.slice(i, i + length));
        if (placeholder !== undefined) covered.fill(placeholder, i, i + length);
      }
    }
    let out = "";
    let from = 0;
    for (let i = 0; i < letters.length; ) {
      const placeholder = covered[i];
      if (placeholder === undefined) {
        i++;
        continue;
      }
      let end = i;
      while (covered[end + 1] === placeholder) end++;
      out += text.slice(from, at[i]) + placeholder;
      from = (at[end] ?? 0) + 1;
      i = end + 1;
    }
    return out + text.slice(from);
  }

  /**
   * A message for a person (stderr): no escapes or controls, nothing withheld left, likely secrets
   * replaced, and so is every secret found before (in an earlier message or by
   * `recogniseInOutput`) wherever its exact text recurs, as in a request.
   */
  forPeople(text: string): string {
    // Withheld first: the configured key reads `[withheld]` as everywhere, not as a placeholder.
    return this.replaceSecretParts(this.redactor.redactKnown(this.redactor.redact(this.withhold(stripControls(text)))));
  }

  /** Why `line` cannot be printed as it is; undefined when it can. */
  private whyNotPrinted({ command, words }: PasteLine): string | undefined {
    // No shell passes a NUL on: `$'\x00'` ends the word there, and names another path.
    if (words.some((word) => word.includes("\0"))) return "it names a path holding a NUL character, which no command can pass on";
    if (!command.isWellFormed() || NOT_AS_ITSELF.test(command) || stripControls(command) !== command) {
      return "it holds characters that cannot be shown as they are";
    }
    // Each word also as a person would see it: a secret with an invisible character in it is one still.
    const texts = [command, ...words.flatMap((word) => [word, stripControls(word), visiblePart(word)])];
    if (texts.some((text) => this.withhold(text) !== text)) return "it names a path holding a configured secret";
    // A redactor of its own: what it finds is not printed, so it must not number the placeholders printed.
    const rules = createRedactor();
    const changed = (text: string) =>
      rules.redact(text) !== text || this.redactor.redactKnown(text) !== text || this.replaceSecretParts(text) !== text;
    if (texts.some(changed)) return "it names a path that looks like a secret";
    return undefined;
  }

  private showPasteLine(line: PasteLine): string {
    const why = this.whyNotPrinted(line);
    return why === undefined ? line.command : this.forPeople(line.instead(why));
  }

  /** A message made of parts for a person: each text part as `forPeople` makes it, each command to paste as it is or not at all (see PasteLine). */
  forPeopleSaid(parts: readonly Said[]): string {
    return parts.map((part) => (typeof part === "string" ? this.forPeople(part) : this.showPasteLine(part))).join("");
  }

  /** Text for stdout: on a terminal as a person reads it; elsewhere the exact bytes, less what is withheld. */
  forStdout(text: string, terminal: boolean): string {
    return this.withhold(terminal ? stripControls(text) : text);
  }

  /**
   * A JSON value for stdout: every string value in it with nothing withheld left. Keys are our
   * schema's own (no output keys an object by data), and a short secret that is also a word
   * (a base URL's user name `model`) must not rename a field a script reads.
   */
  forJson(value: unknown): unknown {
    if (typeof value === "string") return this.withhold(value);
    if (Array.isArray(value)) return value.map((item) => this.forJson(item));
    if (typeof value !== "object" || value === null) return value;
    // fromEntries defines own properties: a `__proto__` key stays a key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.forJson(item)]));
  }

  /** `text` for stdout with nothing withheld left in the whole of it: the only text a display cut (shorten.ts) takes. */
  clearedForStdout(text: string): Cleared {
    return markCleared(this.withhold(text));
  }

  /** `text` as a message for a person (`forPeople`), ready to be cut. */
  clearedForPeople(text: string): Cleared {
    return markCleared(this.forPeople(text));
  }

  /** A quote in a message, on one line and at most `max` characters, cut only once nothing secret is left in it. */
  shortForPeople(text: string, max: number): string {
    return cutLine(this.clearedForPeople(text), max);
  }

  /**
   * A value from a session, an endpoint or a path as one field of a line-oriented summary on
   * stdout: nothing withheld left in the whole value, then cut to `max` characters when given,
   * then a line break shown as `\n` (so a session cannot print a line that looks like ours) and
   * controls stripped, piped or not.
   */
  fieldForStdout(text: string, max?: number): string {
    const whole = this.clearedForStdout(text);
    return asField(max === undefined ? whole : cutLine(whole, max));
  }
}

/** How a message quotes a value: on one line, at most `max` characters, cut only once nothing withheld is left in it. */
export type Quote = (text: string, max: number) => string;

/**
 * The quote of a message made before the run's filter is at hand (a setting's value, which
 * `looksSecret` already kept out when it looks like one): `withheld` is what the run withholds
 * by then (the key and OPENAI_BASE_URL's credentials). The whole message passes the run's filter
 * when it is printed.
 */
export function quoteWithholding(withheld: readonly string[]): Quote {
  const withhold = createWithholder(withheld);
  return (text, max) => cutLine(markCleared(withhold(stripControls(text))), max);
}
