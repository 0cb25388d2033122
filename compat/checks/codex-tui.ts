/**
 * Codex's interactive screens (its session picker, a resumed session) need a terminal: they
 * are run inside a private tmux server (its socket in the sandbox), the screen read until it
 * shows what is awaited or a time limit passes, then the server is killed.
 */
import { join } from "node:path";
import type { Sandbox } from "../sandbox.ts";
import { FAKE_KEY } from "../agent-setup.ts";

function tmux(socket: string, args: string[], env: Record<string, string>): { ok: boolean; out: string } {
  const proc = Bun.spawnSync(["tmux", "-S", socket, "-f", "/dev/null", ...args], { env, stdout: "pipe", stderr: "pipe" });
  return { ok: proc.exitCode === 0, out: proc.stdout.toString() };
}

/**
 * Runs `bin words…` in a 160×150 terminal in the sandbox's project and returns the screen once it
 * contains `awaited` (or after 20 s); `undefined` when tmux is not installed. The terminal is
 * tall enough for a whole handoff document: Codex keeps a resumed session's history on one
 * screen, and in 40 rows the document's first line was visible only for as long as Codex took to
 * draw the rest (on a busy machine, not at all).
 */
export async function readTuiScreen(bin: string, words: readonly string[], sandbox: Sandbox, codexHome: string, awaited: readonly string[]): Promise<string | undefined> {
  if (Bun.which("tmux") === null) return undefined;
  const socket = join(sandbox.tmp, "tmux.sock");
  const env = sandbox.env({ CODEX_HOME: codexHome, COMPAT_FAKE_KEY: FAKE_KEY, TERM: "xterm-256color" });
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = `cd ${quote(sandbox.project)} && exec ${[bin, ...words].map(quote).join(" ")}`;
  const started = tmux(socket, ["new-session", "-d", "-x", "160", "-y", "150", command], env);
  if (!started.ok) throw new Error("tmux could not start a session");
  let screen = "";
  try {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      await Bun.sleep(500);
      // The scrollback too: a long first message pushes its opening lines off the 40-line screen.
      screen = tmux(socket, ["capture-pane", "-p", "-S", "-"], env).out;
      if (awaited.some((text) => screen.includes(text))) break;
    }
  } finally {
    tmux(socket, ["kill-server"], env);
  }
  return screen.replace(/\n\s*\n/g, "\n").trim();
}
