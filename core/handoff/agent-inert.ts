/**
 * Text an installed agent would act on in a prompt (`@path`, `$skill`, `^model`, a leading `/`)
 * gets a word joiner so no agent expands it; `fromInertText` undoes exactly that. Why and how: docs/design/agent-inert-text.md.
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
