import type { ArgsDef } from "citty";

/** The flags for how much a command says on stderr, the same for every command but handoff (which adds that -v never shows the key). */
export const LOGGING_ARGS = {
  quiet: { type: "boolean", alias: "q", description: "Print warnings and errors only" },
  verbose: { type: "boolean", alias: "v", description: "Print debugging detail on stderr" },
} satisfies ArgsDef;
