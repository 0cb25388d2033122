/**
 * An agent's interactive screen needs a terminal: a command runs, as a person would type it, in
 * a private tmux server (its socket in the sandbox), its screen is read (scrollback included),
 * keys are typed into it, and the server is killed at the end.
 */
import { readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Sandbox } from "../sandbox.ts";

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** The screen and its scrollback now. */
  screen(): string;
  /** Types `text` literally, then Enter. */
  typeLine(text: string): Promise<void>;
  pressEnter(): void;
  /** Kills the tmux server and everything in it. */
  close(): void;
}

/**
 * Runs `argv` in `cwd` with `env` (TERM set for a colour terminal) in a terminal 160 columns
 * wide and `rows` high; undefined when tmux is not installed.
 */
export function openTerminal(options: {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  sandbox: Sandbox;
  rows: number;
}): Terminal | undefined {
  if (Bun.which("tmux") === null) return undefined;
  const socket = join(options.sandbox.tmp, "tmux.sock");
  // A command that exits leaves its last screen (and tmux's "Pane is dead (status …)") to read.
  const config = join(options.sandbox.tmp, "tmux.conf");
  writeFileSync(config, "set -g remain-on-exit on\n");
  const env = { ...options.env, TERM: "xterm-256color" };
  const tmux = (args: string[]) => {
    const proc = Bun.spawnSync(["tmux", "-S", socket, "-f", config, ...args], { env, stdout: "pipe", stderr: "pipe" });
    return { ok: proc.exitCode === 0, out: proc.stdout.toString() };
  };
  const command = `cd ${quote(options.cwd)} && exec ${options.argv.map(quote).join(" ")}`;
  if (!tmux(["new-session", "-d", "-x", "160", "-y", String(options.rows), command]).ok) throw new Error("tmux could not start a session");
  return {
    screen: () => tmux(["capture-pane", "-p", "-S", "-"]).out,
    async typeLine(text) {
      tmux(["send-keys", "-t", "0", "-l", text]);
      // Some screens take a pasted line and Enter in one read as a newline in the text.
      await Bun.sleep(300);
      tmux(["send-keys", "-t", "0", "Enter"]);
    },
    pressEnter: () => void tmux(["send-keys", "-t", "0", "Enter"]),
    close: () => {
      tmux(["kill-server"]);
      // The socket outlives the server: the next terminal of the same sandbox, opened while the
      // old server is still exiting, found it and could not start ("tmux could not start a session").
      rmSync(socket, { force: true });
      endLeftovers(dirname(options.sandbox.home));
    },
  };
}

/**
 * Ends the processes still running a program that lies in the sandbox (`root`), by id. Codex's
 * screen starts a background server from a copy of itself in CODEX_HOME that outlives the
 * terminal; left running, it holds a lock named after that path, and the next Codex screen with
 * the same CODEX_HOME (every run's sandboxes have the same paths) fails to start; Gemini CLI's
 * screen (`node <sandbox>/…/gemini`, relaunched as a child) outlived its pane too. Only this
 * run's processes: another run's sandboxes have the same paths in their own mount namespace.
 */
function endLeftovers(root: string): void {
  const ours = readlinkSync("/proc/self/ns/mnt");
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [program = "", ...args] = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      // An interpreter's script counts as the program (Gemini CLI's screen is `node <sandbox>/…/gemini`, and relaunches itself so).
      const script = args.find((arg) => !arg.startsWith("-")) ?? "";
      const inSandbox = program.startsWith(`${root}/`) || (/(^|\/)node$/.test(program) && script.startsWith(`${root}/`));
      if (inSandbox && readlinkSync(`/proc/${entry}/ns/mnt`) === ours) pids.push(Number(entry));
    } catch {
      // Ended meanwhile.
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended meanwhile.
    }
  }
}

/** A screen for a failure message: blank lines dropped. */
export const compactScreen = (screen: string) => screen.replace(/\n\s*\n/g, "\n").trim();

/** Polls `until` every half second for up to `ms`; whether it came true. */
export async function waitFor(until: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (until()) return true;
    await Bun.sleep(500);
  }
  return until();
}
