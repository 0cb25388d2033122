/**
 * Text an installed agent acts on when it finds it in a prompt, made inert. The agents run as
 * engines without tools, yet expand some text themselves before the model sees it (observed
 * with the real agents by `bun run compat`; see compat/engines-research.md):
 *
 * - `@path` (`@/abs`, `@~/x`, `@./rel`, `@"a b"`, `@file#L1-5`, a folder): Claude Code and omp
 *   read the file (or list the folder) and send its contents along. Both take an `@` only at a
 *   boundary: the start, after a space, an opening bracket or quote (omp), after `。、？！` (Claude
 *   Code); never after a letter or digit, so `a@b.c` and `pkg@1.2` are not mentions.
 * - `$name` and `[$name](path)`: Codex sends the SKILL.md of a skill by that name, wherever the
 *   `$` stands (`x$name` too).
 * - `^provider/model`: omp replaces it with a tag naming that model as a helper.
 * - `/name` at the very start: omp (and pi without `--no-prompt-templates`) runs a command or
 *   template of the user's by that name.
 *
 * Each gets a word joiner (U+2060, shown as nothing) where the agent would take it: before an
 * `@` or `^` at a boundary, after a `$` that starts a name, before a leading `/`. The text reads
 * the same to the model and to a person; no agent takes it any more. `fromInertText` takes
 * exactly those joiners out of what an agent wrote back (a joiner that was in the session before
 * stays: each rule also fires on a joiner it would meet, so the pair is lossless).
 */

const JOINER = "\u2060";

/** What Codex reads as part of a skill's name after `$`. */
const NAME_CHAR = String.raw`[A-Za-z0-9_:\-\u2060]`;

/** Where an `@` can open a mention for some agent: anywhere but right after a letter, digit or combining mark. */
const AT_BOUNDARY = String.raw`(?<![\p{L}\p{N}\p{M}])`;

const INERT = new RegExp(
  [
    `(?=@)${AT_BOUNDARY}`,
    String.raw`(?<=\$)(?=${NAME_CHAR})`,
    String.raw`(?=\^)(?<=^|[\s\u2060])`,
    String.raw`(?=\/)(?<=^[\s\u2060]*)`,
  ].join("|"),
  "gu",
);

const RESTORE = new RegExp(
  [
    String.raw`\u2060(?=@)(?<![\p{L}\p{N}\p{M}]\u2060)`,
    String.raw`(?<=\$)\u2060(?=${NAME_CHAR})`,
    String.raw`\u2060(?=\^)(?<=(?:^|[\s\u2060])\u2060)`,
    String.raw`\u2060(?=\/)(?<=^[\s\u2060]*)`,
  ].join("|"),
  "gu",
);

/** `text` with every mention, skill name, model tag and leading command an agent would act on made inert. */
export function toInertText(text: string): string {
  return text.replace(INERT, JOINER);
}

/** What `toInertText` added, taken out again (of an answer that quotes the prompt). */
export function fromInertText(text: string): string {
  return text.replace(RESTORE, "");
}
