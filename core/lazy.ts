/**
 * A value built on first use, then kept: word lists and tables that only some runs need are not
 * built at import time (a handoff with a model never reads the offline engine's words).
 */
export function lazily<T>(build: () => T): () => T {
  let value: { readonly built: T } | undefined;
  return () => {
    if (value === undefined) value = { built: build() };
    return value.built;
  };
}

/** A set of the words in `list`, separated by single spaces, built on first use. */
export function lazyWordSet(...lists: string[]): () => ReadonlySet<string> {
  return lazily(() => new Set(lists.join(" ").split(" ")));
}
