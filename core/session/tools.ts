/**
 * What a tool call did, in the common model's terms: ran a shell command, read files, or
 * changed files. One table answers it for inspect, Session Facts and the offline document, so
 * the three never count differently. A new agent's tools are a new line in `TOOLS`.
 */
import { isObject, stringField, type JsonObject } from "../json.ts";
import { geminiShellBody } from "./formats/gemini/shell-result.ts";
import { CLAUDE_CODE_FRAMING, CODEX_FRAMING, type ResultFraming } from "./tool-statements.ts";

export type ToolKind = "shell" | "read" | "write" | "patch" | "poll";

/**
 * One table line: the tool names (any case) an agent uses for one kind of action. `framing`: how
 * the agent whose names these alone are frames their results (tool-statements.ts); other tools'
 * results are read as Claude Code frames its own.
 */
interface ToolRule {
  kind: ToolKind;
  names: readonly string[];
  framing?: ResultFraming;
}

/** Gemini CLI's shell tool: Claude Code's statements (it writes none of them), and the output inside its own `Output: …` framing. */
const GEMINI_FRAMING: ResultFraming = { ...CLAUDE_CODE_FRAMING, shellBody: geminiShellBody };

/**
 * The tested versions' tool lists: Claude Code 2.1.328 (its binary declares the shell tools
 * `Bash`, `Monitor`, `PowerShell`), Codex 0.169.0, pi 0.73.1, omp 18.2.3, Gemini CLI 0.61.0.
 */
const TOOLS: readonly ToolRule[] = [
  // pi/omp `bash`; Claude Code `Bash`.
  { kind: "shell", names: ["bash", "exec"] },
  // Claude Code `PowerShell` (on Windows, the only shell tool with some sandboxes): its results are framed like Bash's ("Exit code N").
  { kind: "shell", names: ["powershell"] },
  // Gemini CLI `run_shell_command` (`command`); its reader states the result's exit code (gemini/shell-result.ts).
  { kind: "shell", names: ["run_shell_command"], framing: GEMINI_FRAMING },
  // Codex `exec_command` (`cmd`), `shell` and `local_shell_call` (`command` as argv), `shell_command`
  // (`command` as one string) and the older `container.exec` (argv).
  { kind: "shell", names: ["shell", "exec_command", "local_shell_call", "shell_command", "container.exec"], framing: CODEX_FRAMING },
  // pi/omp `read`; Claude Code `Read`.
  { kind: "read", names: ["read", "read_file", "view"] },
  // Codex `view_image` (`path`): it reads the image into the conversation.
  { kind: "read", names: ["view_image"], framing: CODEX_FRAMING },
  // pi/omp `write`/`edit`; Claude Code `Write`/`Edit`/`MultiEdit`/`NotebookEdit`.
  { kind: "write", names: ["write", "edit", "multi_edit", "multiedit", "write_file", "edit_file", "notebookedit", "notebook_edit"] },
  // Gemini CLI `replace` (`file_path`, `old_string`, `new_string`; `write_file` and `read_file` are above).
  { kind: "write", names: ["replace"] },
  // Codex `apply_patch`: the files are named inside the patch text.
  { kind: "patch", names: ["apply_patch"], framing: CODEX_FRAMING },
  // Codex `write_stdin` (`session_id`): polls a command still running; its output states the command's exit code once it ends.
  { kind: "poll", names: ["write_stdin"], framing: CODEX_FRAMING },
];

const KIND_BY_NAME = new Map(TOOLS.flatMap((rule) => rule.names.map((name) => [name, rule.kind] as const)));
const FRAMING_BY_NAME = new Map(TOOLS.flatMap((rule) => rule.names.map((name) => [name, rule.framing] as const)));

/** How this tool's results are framed: its agent's words when the tool is that agent's alone, else Claude Code's. */
export function toolFraming(name: string): ResultFraming {
  return FRAMING_BY_NAME.get(name.toLowerCase()) ?? CLAUDE_CODE_FRAMING;
}

/** What one tool call did, as far as the facts care. */
export type ToolAction =
  /** `workdir`: where the command ran, when the call names a folder (Codex), relative to the session's cwd or absolute. */
  | { kind: "shell"; command: string; workdir?: string }
  | { kind: "read"; paths: string[] }
  /** `deleted`: files an `apply_patch` patch deletes (also one Codex applies from a shell call). */
  | { kind: "write"; paths: string[]; deleted: string[] }
  /** A poll of the command still running in this Codex unified exec session; `interrupts`: it sent Ctrl-C. */
  | { kind: "poll"; session: string; interrupts: boolean }
  | { kind: "other" };

/** Arguments as an object: Codex records them as a JSON string. */
function argumentObject(args: unknown): JsonObject | undefined {
  if (isObject(args)) return args;
  if (typeof args !== "string" || !args.trimStart().startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The file a tool call names, under any of the argument names the agents use. */
export function pathArgument(args: unknown): string | undefined {
  const object = argumentObject(args);
  if (!object) return undefined;
  return (
    stringField(object, "path") ??
    stringField(object, "file_path") ??
    stringField(object, "filePath") ??
    stringField(object, "notebook_path")
  );
}

/** Text that may hold a credential: such an edit is not repeated as "the fix", whatever it is. */
const CREDENTIAL_LIKE = /secret|token|passw|pwd|api[_-]?key|auth|bearer|credential|private[_-]?key|-----BEGIN|[A-Za-z0-9+/_-]{32,}/i;

/**
 * What a small edit replaced, when each side is one short line (`config.srv.port` →
 * `config.server.port`): such an edit is often the fix itself, worth naming. pi's
 * `oldText`/`newText`, Claude Code's `old_string`/`new_string`.
 */
export function replacementArgument(args: unknown, max = 80): { from: string; to: string } | undefined {
  const object = argumentObject(args);
  if (!object) return undefined;
  const from = stringField(object, "oldText") ?? stringField(object, "old_string");
  const to = stringField(object, "newText") ?? stringField(object, "new_string");
  if (from === undefined || to === undefined) return undefined;
  const short = (text: string) => text.trim() !== "" && !text.includes("\n") && text.length <= max && !CREDENTIAL_LIKE.test(text);
  return short(from) && short(to) ? { from: from.trim(), to: to.trim() } : undefined;
}

/** An argv array as one command line; `bash -lc "<script>"` is the script itself. */
function argvCommand(argv: readonly unknown[]): string | undefined {
  const words = argv.filter((w): w is string => typeof w === "string");
  if (words.length !== argv.length || words.length === 0) return undefined;
  const [shell, flag, script] = words;
  if (words.length === 3 && shell !== undefined && /(^|\/)(ba|z|da)?sh$/.test(shell) && /^-\w*c$/.test(flag ?? "") && script !== undefined)
    return script;
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}

const COMMAND_KEYS = ["command", "cmd"] as const;

/** The command line of a shell tool call: `command` or `cmd`, a string or an argv array. */
export function commandArgument(args: unknown): string | undefined {
  const object = argumentObject(args);
  if (!object) return undefined;
  for (const key of COMMAND_KEYS) {
    const value = object[key];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (Array.isArray(value)) return argvCommand(value);
  }
  const action = object.action;
  return isObject(action) ? commandArgument(action) : undefined;
}

/** A path named in a patch, in the folder the patch was applied from. */
function inFolder(path: string, folder: string | undefined): string {
  return folder === undefined || folder === "" || path.startsWith("/") || path.startsWith("~")
    ? path
    : `${folder.replace(/\/+$/, "")}/${path}`;
}

/** The files a patch adds, updates or moves to, and those it deletes or moves away from. */
function patchPaths(text: string, folder: string | undefined): { written: string[]; deleted: string[] } {
  const written: string[] = [];
  const deleted: string[] = [];
  let updating: string | undefined;
  for (const match of text.matchAll(/^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const path = match[2]?.trim();
    if (!path) continue;
    const where = inFolder(path, folder);
    if (match[1] === "Delete File") deleted.push(where);
    else if (match[1] === "Move to") {
      // The file under its old name is gone: only the new one is modified.
      const from = updating === undefined ? -1 : written.lastIndexOf(updating);
      if (from !== -1 && updating !== undefined) {
        written.splice(from, 1);
        deleted.push(updating);
      }
      written.push(where);
    } else written.push(where);
    updating = match[1] === "Update File" ? where : undefined;
  }
  return { written, deleted };
}

/** The patch text of a freeform `apply_patch` call (`input`) or a function call (`input`, `patch`). */
function patchArgument(args: unknown): string {
  if (typeof args === "string") return args;
  const object = argumentObject(args);
  return object ? (stringField(object, "input") ?? stringField(object, "patch") ?? "") : "";
}

/**
 * A patch Codex applies itself from a shell call instead of running it: argv
 * `["apply_patch", "<patch>"]` (or `applypatch`), or a script `apply_patch <<'EOF' … EOF`,
 * optionally after `cd <folder> &&` (codex-rs apply-patch, 0.169). The folder is where its paths lie.
 */
function patchInShellCall(args: unknown): { patch: string; folder: string | undefined } | undefined {
  const object = argumentObject(args);
  if (!object) return undefined;
  const value = object.command ?? object.cmd;
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    (value[0] === "apply_patch" || value[0] === "applypatch") &&
    typeof value[1] === "string"
  ) {
    return { patch: value[1], folder: undefined };
  }
  const script = Array.isArray(value) ? argvCommand(value) : typeof value === "string" ? value : undefined;
  // The heredoc pattern below needs all three: most scripts hold no heredoc, and a heredoc rarely a patch.
  if (script === undefined || !script.includes("<<") || !(script.includes("apply_patch") || script.includes("applypatch")))
    return undefined;
  const heredoc =
    /^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s;&|]+)\s*&&\s*)?(?:apply_patch|applypatch)\s+<<-?\s*(['"]?)(\w+)\2[ \t]*\n([\s\S]*?)\n\3\s*$/.exec(
      script,
    );
  if (!heredoc) return undefined;
  const cd = heredoc[1]?.replace(/^(['"])(.*)\1$/, "$2");
  return { patch: heredoc[4] ?? "", folder: cd };
}

/** Where a Codex shell call ran (`workdir`; a local shell call's `working_directory`), when it names one. */
function workdirArgument(args: unknown): string | undefined {
  const object = argumentObject(args);
  const workdir = object ? (stringField(object, "workdir") ?? stringField(object, "working_directory")) : undefined;
  return workdir === undefined || workdir.trim() === "" ? undefined : workdir;
}

/** Reads one tool call through the table. Unknown tools are `other`, never guessed at. */
export function classifyToolCall(name: string, args: unknown): ToolAction {
  switch (KIND_BY_NAME.get(name.toLowerCase())) {
    case "shell": {
      const workdir = workdirArgument(args);
      const patch = patchInShellCall(args);
      if (patch !== undefined) {
        const folder = patch.folder === undefined ? workdir : inFolder(patch.folder, workdir);
        const { written, deleted } = patchPaths(patch.patch, folder);
        if (written.length > 0 || deleted.length > 0) return { kind: "write", paths: written, deleted };
      }
      const command = commandArgument(args);
      if (command === undefined) return { kind: "other" };
      return workdir === undefined ? { kind: "shell", command } : { kind: "shell", command, workdir };
    }
    case "read": {
      const path = pathArgument(args);
      return path === undefined ? { kind: "other" } : { kind: "read", paths: [path] };
    }
    case "write": {
      const path = pathArgument(args);
      return path === undefined ? { kind: "other" } : { kind: "write", paths: [path], deleted: [] };
    }
    case "patch": {
      const { written, deleted } = patchPaths(patchArgument(args), undefined);
      return written.length === 0 && deleted.length === 0 ? { kind: "other" } : { kind: "write", paths: written, deleted };
    }
    case "poll": {
      const object = argumentObject(args);
      const session = object?.session_id;
      const interrupts = typeof object?.chars === "string" && object.chars.includes("\u0003");
      return typeof session === "number" || (typeof session === "string" && session !== "")
        ? { kind: "poll", session: String(session), interrupts }
        : { kind: "other" };
    }
    case undefined:
      return { kind: "other" };
  }
}
