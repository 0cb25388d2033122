/**
 * Where opencode 1.18.33 keeps its database (read in the package, checked with the real binary):
 * `OPENCODE_DB` when set (an absolute path as it is, a relative one inside its data folder,
 * `:memory:` no file at all), else `opencode.db` in its data folder, `$XDG_DATA_HOME/opencode`
 * (`~/.local/share/opencode` when `XDG_DATA_HOME` is unset or empty, as the `xdg-basedir`
 * package it uses decides).
 */
import type { AgentHome, PathSegments } from "../home.ts";

/** opencode's data folder. */
export function opencodeDataFolder(home: AgentHome): PathSegments {
  const xdg = home.env.XDG_DATA_HOME;
  return xdg ? [xdg, "opencode"] : [home.home, ".local", "share", "opencode"];
}

/** The database every session of opencode's lies in; undefined when `OPENCODE_DB` names no file (`:memory:`). */
export function opencodeDatabase(home: AgentHome): PathSegments | undefined {
  const configured = home.env.OPENCODE_DB;
  if (configured === ":memory:") return undefined;
  if (configured?.startsWith("/")) return [configured];
  if (configured) return [...opencodeDataFolder(home), configured];
  return [...opencodeDataFolder(home), "opencode.db"];
}
