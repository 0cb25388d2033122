/**
 * What Codex 0.169.0 trusts a hook of ours by, found with its app server (docs/in-agent.md, "What
 * Codex trusts", has the evidence):
 * - the key is `<hooks.json, its folder's real path>:<event in snake case>:<entry>:<handler>`: a
 *   hook that moves gets another key;
 * - the hash is `sha256:` and the hex SHA-256 of `{"event_name":…,"hooks":[handler]}` as JSON with
 *   sorted keys and no blanks, the handler's defaults filled in (`async: false`, `timeout: 600`);
 * - trusted when `config.toml` holds `[hooks.state."<key>"] trusted_hash` equal to it; with none it
 *   is new, with another it is changed, and the TUI asks for both at its next start.
 * Hashing itself is not for core (no crypto here): `identity` is the text Codex hashes.
 */

/** Whether Codex runs a hook of ours at its next start without asking: `unknown` when we cannot tell. */
export type HookTrust = "new" | "changed" | "trusted" | "unknown";

/** A hook of ours in Codex's hooks file: its event, its key after the file's path, and the text Codex hashes (none: a handler we cannot hash). */
export interface OurHook {
  event: string;
  keySuffix: string;
  identity: string | undefined;
}

/** The handler fields Codex 0.169.0 hashes, as it names and defaults them; any other field: we cannot say what it hashes. */
const KNOWN_FIELDS = new Set(["type", "command", "timeout", "async"]);
const DEFAULT_TIMEOUT_SECONDS = 600;

/** `UserPromptSubmit` → `user_prompt_submit`, as Codex names an event in its keys and hashes. */
function snakeCase(event: string): string {
  return event.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

/** The text Codex hashes for one handler, or `undefined` when it has a field whose hashing we have not seen. */
function identityOf(event: string, handler: Record<string, unknown>): string | undefined {
  if (Object.keys(handler).some((key) => !KNOWN_FIELDS.has(key))) return undefined;
  const { command, type, timeout = DEFAULT_TIMEOUT_SECONDS, async = false } = handler;
  if (type !== "command" || typeof command !== "string" || typeof timeout !== "number" || typeof async !== "boolean") return undefined;
  // Keys in sorted order, as Codex writes them: async, command, timeout, type.
  return JSON.stringify({ event_name: snakeCase(event), hooks: [{ async, command, timeout, type }] });
}

/** The hooks of ours (commands ending `# agent integrate`) in a hooks file of Claude Code's shape, in file order. */
export function ourHooks(text: string | undefined): OurHook[] {
  const found: OurHook[] = [];
  if (text === undefined) return found;
  let settings: unknown;
  try {
    settings = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return found;
  }
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== "object" || hooks === null) return found;
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    for (const [at, entry] of entries.entries()) {
      const list = (entry as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(list)) continue;
      for (const [index, hook] of list.entries()) {
        if (typeof hook !== "object" || hook === null) continue;
        const command = (hook as { command?: unknown }).command;
        if (typeof command === "string" && command.endsWith("# agent integrate"))
          found.push({
            event,
            keySuffix: `:${snakeCase(event)}:${at}:${index}`,
            identity: identityOf(event, hook as Record<string, unknown>),
          });
      }
    }
  }
  return found;
}

/** How Codex stands to one hook: `trusted` is the `trusted_hash` config.toml holds for its key (none: none there), `hash` ours (none: cannot be made). */
export function trustOf(trusted: string | undefined, hash: string | undefined): HookTrust {
  if (trusted === undefined) return "new";
  if (hash === undefined) return "unknown";
  return trusted === hash ? "trusted" : "changed";
}
