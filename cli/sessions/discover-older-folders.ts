/**
 * Sessions in a folder an agent named by an older rule and has not copied yet (Gemini CLI's
 * `tmp/<SHA-256 of the path>/`, from before `projects.json`): no marker names their path, but the
 * folder's name is the path's hash, so the path is the one among the agent's registry and the
 * folders asked about whose hash it is (core's `FolderRegistry.olderFolderOwners`, worked out once a
 * discovery: a projects.json of 15,000 paths takes ~60 ms to hash).
 */
import { basename, dirname } from "node:path";
import { AgentError, type AgentHome, type SessionFormat } from "../../core/index.ts";
import { MAX_TEXT_FILE_BYTES, readTextFile } from "../io/read-whole.ts";
import { joinSegments } from "./agent-home.ts";
import { folderOwnerOf } from "./folder-registry.ts";

/** Each format's older folder names and their paths, worked out once a discovery (its registry read once). */
export type OlderFolders = Map<SessionFormat, ReadonlyMap<string, string>>;

function registryText(format: SessionFormat, home: AgentHome): string | undefined {
  const registry = format.location.folderRegistry;
  if (registry === undefined) return undefined;
  try {
    return readTextFile(joinSegments(registry.file(home)), (reason) => new AgentError("FILE", reason), MAX_TEXT_FILE_BYTES, "undefined");
  } catch {
    // Unreadable: it names no path here; placing a new session reports it.
    return undefined;
  }
}

/** The path the older-named folder a session file lies in belongs to; undefined for any other folder. */
function olderFolderOwner(
  format: SessionFormat,
  path: string,
  home: AgentHome,
  cwds: readonly string[],
  known: OlderFolders,
): string | undefined {
  const registry = format.location.folderRegistry;
  if (registry?.olderFolderOwners === undefined) return undefined;
  let folder = path;
  for (let level = 0; level < registry.markerLevels; level++) folder = dirname(folder);
  let owners = known.get(format);
  if (owners === undefined) {
    owners = registry.olderFolderOwners(registryText(format, home), cwds);
    known.set(format, owners);
  }
  return owners.get(basename(folder));
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
  known: OlderFolders = new Map(),
): string | undefined {
  return folderOwnerOf(format, path) ?? olderFolderOwner(format, path, home, cwds, known);
}
