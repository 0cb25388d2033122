import type { ArgDef } from "citty";

/**
 * Flag definitions as citty takes them, each with an optional `details`: what it does in full, for
 * docs/flags.md (`bun run docs`); `--help` shows the one-line `description`.
 */
export type FlagsDef = Record<string, ArgDef & { details?: string }>;
