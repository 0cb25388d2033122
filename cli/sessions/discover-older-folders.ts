/**
 * Sessions in a folder an agent named by an older rule and has not copied yet (Gemini CLI's
 * `tmp/<SHA-256 of the path>/`, from before `projects.json`): no marker names their path, but the
 * folder's name is the path's hash, so the path is the one among the agent's registry and the
 * folders asked about whose hash it is (core's `FolderRegistry.ownerOfOlderFolder`).
 */
import { basename, dirname } from "node:path";
import { AgentError, type AgentHome, type SessionFormat } from "../../core/index.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { joinSegments } from "./agent-home.ts";
import { folderOwnerOf } from "./folder-registry.ts";

/** Each format's registry text, read once a discovery (undefined: none, or one that cannot be read). */
export type RegistryTexts = Map<SessionFormat, string | undefined>;

function registryText(format: SessionFormat, home: AgentHome, texts: RegistryTexts): string | undefined {
  const registry = format.location.folderRegistry;
  if (registry === undefined) return undefined;
  if (!texts.has(format)) {
    let text: string | undefined;
    try {
      text = readTextFile(joinSegments(registry.file(home)), (reason) => new AgentError("FILE", reason), MAX_TEXT_FILE_BYTES, "undefined");
    } catch {
      // Unreadable: it names no path here; placing a new session reports it.
      text = undefined;
    }
    texts.set(format, text);
  }
  return texts.get(format);
}

/** The path the older-named folder a session file lies in belongs to; undefined for any other folder. */
export function olderFolderOwner(
  format: SessionFormat,
  path: string,
  home: AgentHome,
  cwds: readonly string[],
  texts: RegistryTexts,
): string | undefined {
  const registry = format.location.folderRegistry;
  if (registry?.ownerOfOlderFolder === undefined) return undefined;
  let folder = path;
  for (let level = 0; level < registry.markerLevels; level++) folder = dirname(folder);
  return registry.ownerOfOlderFolder(basename(folder), registryText(format, home, texts), cwds);
}

/**
 * The path whose folder a session that names none worked in, by the one rule `agent ls` and a
 * read share: the marker of its project folder, else the path whose hash the folder's older name
 * is (among the agent's registry and `cwds`); undefined when neither says.
 */
export function sessionFolderOwner(
  format: SessionFormat,
  path: string,
  home: AgentHome,
  cwds: readonly string[],
  texts: RegistryTexts = new Map(),
): string | undefined {
  return folderOwnerOf(format, path) ?? olderFolderOwner(format, path, home, cwds, texts);
}
