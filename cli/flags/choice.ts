/**
 * One rule for every setting that takes a word from a list (`--engine`, `--to`, `--agent`,
 * `--provider`, `completion <shell>`; from a flag, the environment or the config file): any
 * case, blanks around it ignored, and the word as the list spells it.
 */
export function matchChoice<T extends string>(value: unknown, choices: readonly T[]): T | undefined {
  if (typeof value !== "string") return undefined;
  const wanted = value.trim().toLowerCase();
  return choices.find((choice) => choice.toLowerCase() === wanted);
}
