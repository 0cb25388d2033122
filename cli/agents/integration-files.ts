import { closeSync, lstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import {
  AgentError,
  IntegrationProblem,
  type AgentIntegration,
  type HookCommand,
  type IntegrateOptions,
  type IntegrationState,
} from "../../core/index.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import type { FileSnapshot } from "../io/write.ts";
import { asField } from "../output/terminal.ts";
import { agentHome, joinSegments } from "../sessions/agent-home.ts";
import type { Run } from "../run.ts";
import { cannotRead, hashOf, isMadeFolder, missingFolders, readMemory } from "./integration-memory.ts";

/**
 * The files `agent integrate` writes into an agent's home, planned in full before anything is
 * written (a file that cannot be read, merged or written stops the run with nothing changed:
 * integration-apply.ts writes them), and what each is now, for `--status`.
 */

/** One file's change: from `before` to `after` (undefined: no file). */
export interface FileChange {
  path: string;
  before: string | undefined;
  after: string | undefined;
  snapshot: FileSnapshot | undefined;
  /** Folders this change makes first (install). */
  folders: string[];
  /** A settings file of the agent's (its hashes are remembered), not one of ours. */
  merged: boolean;
}

const BOM = "\uFEFF";

/**
 * The file's text, with the byte-order mark it starts with (`BOM` or ""): UTF-8 decoding drops
 * the mark, and a merge must write it back, or the bytes outside our entry change and
 * `--uninstall` cannot give back the file as it was.
 */
function readIfThere(path: string): { text: string | undefined; bom: string; snapshot: FileSnapshot | undefined } {
  const text = readTextFile(path, cannotRead(path), MAX_TEXT_FILE_BYTES, "undefined");
  if (text === undefined) return { text, bom: "", snapshot: undefined };
  const { dev, ino, size, mtimeMs } = statSync(path);
  return { text, bom: startsWithBom(path) ? BOM : "", snapshot: { dev, ino, size, mtimeMs } };
}

function startsWithBom(path: string): boolean {
  const head = Buffer.alloc(3);
  const fd = openSync(path, "r");
  try {
    return readSync(fd, head, 0, 3, 0) === 3 && head.equals(Buffer.from([0xef, 0xbb, 0xbf]));
  } finally {
    closeSync(fd);
  }
}

/**
 * The file a symbolic link at `path` leads to (a settings file kept in a dotfiles folder): it is
 * changed there, and the link stays a link. `path` itself when it is not a link, or leads nowhere yet.
 */
function throughLink(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  } catch {
    return path;
  }
}

function problemAt(path: string, error: unknown): never {
  if (error instanceof IntegrationProblem) {
    const line = error.line === undefined ? "" : `:${error.line}`;
    throw new AgentError("FILE", `${asField(path)}${line}: ${error.problem}; nothing was changed`, {
      file: path,
      ...(error.line === undefined ? {} : { line: error.line }),
    });
  }
  throw error;
}

/** What `integrate` (or `--uninstall`) would change for `integration`, read and merged, nothing written. */
export function planChanges(
  run: Run,
  integration: AgentIntegration,
  command: HookCommand,
  uninstall: boolean,
  options: IntegrateOptions = {},
): FileChange[] {
  const home = agentHome(run);
  const memory = readMemory(run.env);
  return integration.files(home, command, options).flatMap((file): FileChange[] => {
    const path = throughLink(joinSegments(file.path));
    const { text, bom, snapshot } = readIfThere(path);
    if (file.kind === "own") {
      const ours = text === undefined || text === file.text || text.includes(`agent integrate ${integration.name}\``);
      if (!ours)
        throw new AgentError(
          "FILE",
          `${asField(path)}: is not ours (not written by agent integrate); move it away first; nothing was changed`,
          {
            file: path,
          },
        );
      if (uninstall) return text === undefined ? [] : [{ path, before: text, after: undefined, snapshot, folders: [], merged: false }];
      return text === file.text ? [] : [{ path, before: text, after: file.text, snapshot, folders: missingFolders(path), merged: false }];
    }
    try {
      // The merge sees the text without its mark; the change (bytes written, hashes remembered) has it back.
      const withBom = (merged: string | undefined) => (merged === undefined ? undefined : bom + merged);
      if (uninstall) {
        if (text === undefined) return [];
        const remembered = memory[path];
        const known = isMadeFolder(remembered) ? undefined : remembered;
        const unchangedSince = known !== undefined && known.after === hashOf(withBom(text));
        const after = file.merge.remove(text, (candidate) => unchangedSince && hashOf(withBom(candidate)) === known.before);
        return after === text ? [] : [{ path, before: withBom(text), after: withBom(after), snapshot, folders: [], merged: true }];
      }
      const after = file.merge.add(text);
      return after === text
        ? []
        : [{ path, before: withBom(text), after: withBom(after), snapshot, folders: missingFolders(path), merged: true }];
    } catch (error) {
      return problemAt(path, error);
    }
  });
}

/** Each file's state, for `--status`: what is there now against what `integrate` would write. */
export function integrationState(
  run: Run,
  integration: AgentIntegration,
  command: HookCommand,
  options: IntegrateOptions = {},
): { path: string; state: IntegrationState }[] {
  const home = agentHome(run);
  return integration.files(home, command, options).map((file) => {
    const path = joinSegments(file.path);
    let text: string | undefined;
    try {
      text = readIfThere(path).text;
    } catch {
      return { path, state: "unreadable" } as const;
    }
    if (file.kind === "own") return { path, state: text === undefined ? "absent" : text === file.text ? "current" : "outdated" } as const;
    return { path, state: file.merge.state(text) };
  });
}

/** What an earlier `integrate` installed for `integration` besides `/handoff` (the offer, …), as its files say; a file that cannot be read says nothing. */
export function installedOptions(run: Run, integration: AgentIntegration): IntegrateOptions {
  return integration.installedOptions((segments) => {
    const path = joinSegments(segments);
    try {
      return readIfThere(path).text;
    } catch {
      return undefined;
    }
  }, agentHome(run));
}
