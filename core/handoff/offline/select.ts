/** Caps for lists, so a long session still gives a document a person can read. */

/** Removes repeats (case and spacing ignored), keeping the first of each. */
export function dedupeBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const item of items) {
    const k = key(item).toLowerCase().replace(/\s+/g, " ").trim();
    if (seen.has(k)) continue;
    seen.add(k);
    kept.push(item);
  }
  return kept;
}

/**
 * At most `max` items: the first third from the start (how things began) and the rest from the
 * end (where they stand), in order. `omitted` counts what was left out.
 */
export function spread<T>(items: readonly T[], max: number): { kept: T[]; omitted: number } {
  if (items.length <= max) return { kept: [...items], omitted: 0 };
  const head = Math.ceil(max / 3);
  return { kept: [...items.slice(0, head), ...items.slice(items.length - (max - head))], omitted: items.length - max };
}

/** The newest `max` items, in order, with how many older ones were left out. */
export function newest<T>(items: readonly T[], max: number): { kept: T[]; omitted: number } {
  return items.length <= max ? { kept: [...items], omitted: 0 } : { kept: items.slice(items.length - max), omitted: items.length - max };
}

/**
 * The newest items that fit in `words` words (at least `min`, at most `max`), in order, with how
 * many older ones were left out: many short items are all shown, a few long ones are not cut.
 */
export function newestWithin<T>(
  items: readonly T[],
  size: (item: T) => number,
  limits: { min: number; max: number; words: number },
): { kept: T[]; omitted: number } {
  let count = 0;
  let used = 0;
  for (let i = items.length - 1; i >= 0 && count < limits.max; i--) {
    const item = items[i];
    if (item === undefined) break;
    used += size(item);
    if (count >= limits.min && used > limits.words) break;
    count++;
  }
  return newest(items, count);
}
