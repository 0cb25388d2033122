/**
 * Codex's interactive screens (its session picker, a resumed session) need a terminal: they
 * are run in one (terminal.ts), the screen read until it shows what is awaited or a time limit
 * passes.
 */
import type { Sandbox } from "../sandbox.ts";
import { codexEnv } from "./codex.ts";
import { compactScreen, openTerminal, waitFor } from "./terminal.ts";

/**
 * Runs `bin words…` in a 160×150 terminal in the sandbox's project and returns the screen once it
 * contains `awaited` (or after 20 s); `undefined` when tmux is not installed. The terminal is
 * tall enough for a whole handoff document: Codex keeps a resumed session's history on one
 * screen, and in 40 rows the document's first line was visible only for as long as Codex took to
 * draw the rest (on a busy machine, not at all).
 */
export async function readTuiScreen(
  bin: string,
  words: readonly string[],
  sandbox: Sandbox,
  codexHome: string,
  awaited: readonly string[],
): Promise<string | undefined> {
  const terminal = openTerminal({ argv: [bin, ...words], cwd: sandbox.project, env: codexEnv(sandbox, codexHome), sandbox, rows: 150 });
  if (terminal === undefined) return undefined;
  let screen = "";
  try {
    await Bun.sleep(500);
    await waitFor(() => {
      // The scrollback too: a long first message pushes its opening lines off the screen.
      screen = terminal.screen();
      return awaited.some((text) => screen.includes(text));
    }, 20_000);
  } finally {
    terminal.close();
  }
  return compactScreen(screen);
}
