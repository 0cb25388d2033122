/**
 * What the pi/omp extension and `agent hook pi|omp` say to each other. `pi.exec` takes argv and
 * no stdin, so the extension passes everything as argv items, never a shell line:
 *
 *     agent hook pi --session <the open session's file> --cwd <the agent's cwd> [--agent-bin <pi>] -- <the text after /handoff>
 *
 * and reads back one JSON line on stdout (`renderExtensionAnswer`). The text after the command
 * is one item whatever it holds (quotes, `$(…)`, newlines, a leading `--to`): the hook parses it
 * as data.
 */

/** The extension's side of a hook run. */
export interface ExtensionHookInput {
  /** The session file the agent has open (absolute). */
  sessionFile: string;
  /** The agent's working folder (absolute). */
  cwd: string;
  /** The command's arguments as the user typed them (`--to codex fix the tests`), possibly empty. */
  args: string;
  /** The agent's own executable as integrate recorded it (absolute), when it found one. */
  agentBin?: string | undefined;
}

/**
 * The answer the extension acts on: switch to `switchTo` and show `message`; or only show
 * `message` (another agent's session: its continue command); or show `error` (nothing was written).
 */
export type ExtensionAnswer = { switchTo?: string; message: string } | { error: string };

const USAGE = "expected --session <file> --cwd <folder> [--agent-bin <path>] -- <arguments>";
const FLAGS = ["--session", "--cwd", "--agent-bin"];

/** A path the extension passes is absolute (pi's session manager and cwd give whole paths). */
function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path);
}

/**
 * The argv after `hook <agent>`, read strictly: the two flags once each, `--`, then exactly one
 * item (the arguments, possibly empty). Anything else is a problem to report, not to guess at.
 */
export function parseExtensionHookArgv(argv: readonly string[]): ExtensionHookInput | { problem: string } {
  const end = argv.indexOf("--");
  if (end === -1) return { problem: `no -- before the command's arguments (${USAGE})` };
  const rest = argv.slice(end + 1);
  if (rest.length !== 1) return { problem: `${rest.length} items after --, not one (${USAGE})` };
  const flags = new Map<string, string>();
  const before = argv.slice(0, end);
  for (let i = 0; i < before.length; i += 2) {
    const [name = "", value] = [before[i], before[i + 1]];
    if (!FLAGS.includes(name)) return { problem: `unexpected ${JSON.stringify(name)} (${USAGE})` };
    if (value === undefined || value === "") return { problem: `${name} needs a value (${USAGE})` };
    if (flags.has(name)) return { problem: `${name} is given twice (${USAGE})` };
    flags.set(name, value);
  }
  const sessionFile = flags.get("--session");
  const cwd = flags.get("--cwd");
  if (sessionFile === undefined || cwd === undefined) return { problem: USAGE };
  if (!isAbsolutePath(sessionFile)) return { problem: `--session ${JSON.stringify(sessionFile)} is not an absolute path` };
  if (!isAbsolutePath(cwd)) return { problem: `--cwd ${JSON.stringify(cwd)} is not an absolute path` };
  const agentBin = flags.get("--agent-bin");
  if (agentBin !== undefined && !isAbsolutePath(agentBin))
    return { problem: `--agent-bin ${JSON.stringify(agentBin)} is not an absolute path` };
  return agentBin === undefined ? { sessionFile, cwd, args: rest[0] ?? "" } : { sessionFile, cwd, args: rest[0] ?? "", agentBin };
}

/** The argv the extension passes after its `run` prefix (the inverse of `parseExtensionHookArgv`). */
export function extensionHookArgv(agent: string, input: ExtensionHookInput): string[] {
  const bin = input.agentBin === undefined ? [] : ["--agent-bin", input.agentBin];
  return ["hook", agent, "--session", input.sessionFile, "--cwd", input.cwd, ...bin, "--", input.args];
}

/** The one line `agent hook pi|omp` prints on stdout. */
export function renderExtensionAnswer(answer: ExtensionAnswer): string {
  return `${JSON.stringify(answer)}\n`;
}
