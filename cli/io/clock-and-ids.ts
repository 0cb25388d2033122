import type { HandoffDeps } from "../../core/index.ts";

/** The clock and fresh ids. */
export function realEffects(): Omit<HandoffDeps, "complete"> {
  return {
    now: () => new Date(),
    newSessionId: () => crypto.randomUUID(),
    newEntryId: () => crypto.randomUUID().replace(/-/g, "").slice(0, 8),
    utcOffsetMinutes: (at) => -at.getTimezoneOffset(),
  };
}
