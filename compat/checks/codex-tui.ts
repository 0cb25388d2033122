/**
 * Codex's interactive screens (its session picker, a resumed session) need a terminal: they
 * are run in one (terminal.ts), the screen read until it shows what is awaited or a time limit
 * passes.
 */
import type { FakeModelServer } from "../fake/server.ts";
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

/**
 * Codex's interactive screen started with `prompt` as its first message (`codex "<prompt>"`),
 * closed once the fake has answered it: an interactive thread of Codex's own, the kind its picker
 * lists (it leaves `codex exec` threads out). False when it did not get that far, or tmux is not
 * installed.
 */
export async function startInScreen(
  bin: string,
  prompt: string,
  sandbox: Sandbox,
  codexHome: string,
  fake: FakeModelServer,
): Promise<boolean> {
  const from = fake.requests.length;
  const terminal = openTerminal({
    argv: [bin, "--no-daemon", prompt],
    cwd: sandbox.project,
    env: codexEnv(sandbox, codexHome),
    sandbox,
    rows: 50,
  });
  if (terminal === undefined) return false;
  try {
    const asked = () => fake.requests.slice(from).some((r) => r.wire === "responses" && JSON.stringify(r.body).includes(prompt));
    // Answered: the reply is on the screen, so the turn (and the thread's row) is written.
    return (await waitFor(asked, 30_000)) && (await waitFor(() => terminal.screen().includes("COMPAT-REPLY"), 15_000));
  } finally {
    terminal.close();
  }
}
