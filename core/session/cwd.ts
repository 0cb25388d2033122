/**
 * The folder a session worked in, as every later step uses it (the target agent's folder, the
 * resume command, the new session's header, the facts' relative paths): an absolute path in
 * one spelling. The file's text is not trusted: a relative cwd (`proj`, `.`) names no folder
 * we can know, so it counts as none, as a missing one does; an absolute one is normalised
 * (`.`, `..`, doubled and trailing slashes), as a shell would resolve it, so `//tmp//a/./p/`
 * and `/tmp/a/p` are one folder with one Claude Code project folder.
 */

import type { Session } from "./types.ts";

/** Windows forms (`C:\\…`, `C:/…`, `\\\\server\\share`) are absolute where they were written; kept as found. */
const WINDOWS_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\)/;

export function normaliseCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  if (WINDOWS_ABSOLUTE.test(cwd)) return cwd;
  if (!cwd.startsWith("/")) return undefined;
  const parts: string[] = [];
  for (const part of cwd.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** The session with its cwd made usable (see above); the header's `raw` keeps it as written. */
export function withUsableCwd(session: Session): Session {
  return { ...session, header: { ...session.header, cwd: normaliseCwd(session.header.cwd) } };
}
