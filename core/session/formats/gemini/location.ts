/**
 * Where Gemini CLI 0.61 keeps sessions: `<home>/.gemini/tmp/<project>/chats/session-<UTC
 * YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl`, `<home>` being `GEMINI_CLI_HOME` when set (its
 * `homedir()`), else the user's. `<project>` is the name `~/.gemini/projects.json` gives the
 * project's path; a path it does not name yet gets its last folder's name in lower case, every
 * run of other characters one `-` (`project` when nothing is left), with `-1`, `-2`, … after it
 * when another path has that name (ProjectRegistry in packages/core/src/config/projectRegistry.ts).
 * Subagents' files lie one folder deeper (`chats/<parent id>/<id>.jsonl`): not sessions.
 */
import { AgentError } from "../../../errors.ts";
import { isObject } from "../../../json.ts";
import type { AgentHome, AgentLocation, FolderRegistry, PathSegments, SessionPlace } from "../types.ts";
import { sha256Hex } from "./sha256.ts";

/** `GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiDir({ home, env }: AgentHome): PathSegments {
  return [env.GEMINI_CLI_HOME || home, ".gemini"];
}

/** The name Gemini gives a project folder it has not seen, before a `-N` for a name taken. */
export function projectSlug(cwd: string): string {
  const base = cwd.replace(/\/+$/, "").split("/").at(-1) ?? "";
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "-")
      .replace(/-+/g, "-")
      .replace(/^-|-$/g, "") || "project"
  );
}

/** `projects.json`'s shape as Gemini checks it: `{ "projects": { <path>: <lower-case slug> } }`. */
function projectsOf(text: string, file: string): { data: Record<string, unknown>; projects: Record<string, string> } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const projects = isObject(data) && isObject(data.projects) ? data.projects : undefined;
  if (!isObject(data) || projects === undefined || !Object.values(projects).every((v) => typeof v === "string" && /^[a-z0-9-]+$/.test(v)))
    throw new AgentError(
      "FILE",
      `${file}: not a Gemini CLI project list ({"projects": {<path>: <folder name>}}); Gemini would start it afresh, so it is left as it is: fix or remove it, or say where the new session goes with -o`,
      { file },
    );
  return { data, projects: projects as Record<string, string> };
}

/**
 * Gemini's choice for a path `projects.json` does not name: a folder whose `.project_root` names
 * the path, else the slug (then `-1`, `-2`, …) that no entry holds and no folder's marker gives
 * to another path (a folder without a marker is free: Gemini marks it and takes it).
 */
export const geminiProjects: FolderRegistry = {
  label: "Gemini CLI's projects.json",
  file: (home) => [...geminiDir(home), "projects.json"],
  markerFile: ".project_root",
  markerLevels: 2,
  folderFor(text, cwd, folders) {
    const { data, projects } =
      text === undefined ? { data: {}, projects: {} as Record<string, string> } : projectsOf(text, "projects.json");
    const known = projects[cwd];
    if (known !== undefined) return { name: known };
    const owned = folders.find((folder) => folder.owner === cwd)?.name;
    const others = folders.filter((folder) => folder.owner !== undefined && folder.owner !== cwd).map((folder) => folder.name);
    const name = owned ?? freeName(projectSlug(cwd), new Set([...Object.values(projects), ...others]));
    return { name, newText: JSON.stringify({ ...data, projects: { ...projects, [cwd]: name } }, null, 2) };
  },
  // Before projects.json a project's folder was the SHA-256 of its path (Gemini's own
  // `getFilePathHash`); 0.61 copies such a folder into the named one when it starts in that path.
  // Hashing every path once (not once a folder) keeps a long projects.json cheap.
  olderFolderOwners(registryText, cwds) {
    let registered: string[] = [];
    try {
      registered = registryText === undefined ? [] : Object.keys(projectsOf(registryText, "projects.json").projects);
    } catch {
      // A list Gemini could not read names no path; the cwds may still.
    }
    const owners = new Map<string, string>();
    for (const path of [...cwds, ...registered]) {
      const name = sha256Hex(path);
      if (!owners.has(name)) owners.set(name, path);
    }
    return owners;
  },
};

/** `slug`, else `slug-1`, `slug-2`, …: the first no other project has. */
function freeName(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let n = 1; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
}

/** `session-<anything>.jsonl`, and `.json` for a session from before JSON Lines: as Gemini lists them. */
const SESSION_NAME = /^session-.+\.jsonl?$/;

export const geminiLocation: AgentLocation = {
  sessionsRoot: (home) => [...geminiDir(home), "tmp"],
  sessionFolder: (place: SessionPlace) => [...geminiDir(place), "tmp", place.registeredFolder ?? projectSlug(place.cwd), "chats"],
  sessionFiles: () => ({
    folders: 2,
    isSessionName: (name) => SESSION_NAME.test(name),
    // Resuming a session from before JSON Lines, Gemini copies it into `<name>l` and goes on there.
    continuedIn: (name) => (name.endsWith(".json") ? `${name}l` : undefined),
  }),
  // The project folder's name is the registry's, not the path's: discovery reads each file's cwd.
  filesByCwd: false,
  // `gemini -r <id>` looks only in the chats folder of the project it runs in.
  findsSessionsOnlyInItsFolder: true,
  folderRegistry: geminiProjects,
};
