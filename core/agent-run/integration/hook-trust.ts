/**
 * Which of our hooks an agent that trusts hooks one by one (Codex: "Hooks need review", a hash of
 * each hook's command) will ask about after `integrate` changed its hooks file: a hook of ours that
 * is new for its event, or whose command text changed (another percent, another path to `agent`).
 */

/** The commands of our hooks (those ending `# agent integrate`) in a hooks file of Claude Code's shape, by event. */
function ourCommands(text: string | undefined): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
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
    for (const entry of entries) {
      const list = (entry as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(list)) continue;
      for (const hook of list) {
        const command = (hook as { command?: unknown } | null)?.command;
        if (typeof command === "string" && command.endsWith("# agent integrate"))
          found.set(event, (found.get(event) ?? new Set()).add(command));
      }
    }
  }
  return found;
}

/** The events whose hook of ours is new (`added`) or runs another command than before (`changed`). */
export function hooksToTrust(before: string | undefined, after: string | undefined): { added: string[]; changed: string[] } {
  const was = ourCommands(before);
  const added: string[] = [];
  const changed: string[] = [];
  for (const [event, commands] of ourCommands(after)) {
    const old = was.get(event);
    if (old === undefined) added.push(event);
    else if ([...commands].some((command) => !old.has(command))) changed.push(event);
  }
  return { added, changed };
}
