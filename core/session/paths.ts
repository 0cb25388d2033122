/**
 * One spelling per file. Agents name the same file as `src/a.ts`, `./src/a.ts` and
 * `/home/me/app/src/a.ts`; every list we show (inspect, Session Facts, the offline document)
 * uses the form this module gives: relative to the session's working directory when the file
 * lies inside it, else absolute. Pure string work: nothing here touches a file system.
 */

/** Resolves `.` and `..` segments and repeated slashes; keeps a leading `/` or `~`. */
function normaliseSegments(path: string): string {
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length > 0 && out.at(-1) !== "..") out.pop();
    else if (segment === ".." && absolute) continue;
    else out.push(segment);
  }
  const joined = out.join("/");
  return absolute ? `/${joined}` : joined === "" ? "." : joined;
}

/**
 * The one form a path is shown in: relative to `cwd` when it lies inside it (a relative path is
 * taken as relative to `cwd`, since that is where the agent's tools ran), else absolute. A path
 * starting with `~` is left as written: whose home it means is not ours to guess.
 */
export function normalizePath(path: string, cwd: string | undefined): string {
  return pathNormalizer(cwd)(path);
}

/**
 * `normalizePath` for many paths of one session: the working directory is normalised once, and
 * a path seen before is not worked out again (a long session names the same files thousands of times).
 */
export function pathNormalizer(cwd: string | undefined): (path: string) => string {
  const base = cwd?.startsWith("/") ? normaliseSegments(cwd) : undefined;
  const known = new Map<string, string>();
  return (path) => {
    let form = known.get(path);
    if (form === undefined) {
      form = oneForm(path, base);
      known.set(path, form);
    }
    return form;
  };
}

function oneForm(path: string, base: string | undefined): string {
  const trimmed = path.trim();
  if (trimmed === "" || trimmed.startsWith("~")) return trimmed;
  if (base === undefined) return normaliseSegments(trimmed);
  const absolute = normaliseSegments(trimmed.startsWith("/") ? trimmed : `${base}/${trimmed}`);
  if (base === "/") return absolute === "/" ? "/" : absolute.slice(1);
  return absolute.startsWith(`${base}/`) ? absolute.slice(base.length + 1) : absolute;
}

/** Paths in their one form, each once, in order of first appearance. */
export function uniquePaths(paths: readonly string[], cwd: string | undefined): string[] {
  const normalize = pathNormalizer(cwd);
  return [...new Set(paths.map(normalize).filter((p) => p !== ""))];
}

/**
 * Text (a command, a line of output) with the working directory's absolute paths written
 * relative to it, so the document names each file one way. Only whole path prefixes change:
 * `/w/app/src` → `src`, but `/w/application` stays.
 */
export function relativeInText(text: string, cwd: string | undefined): string {
  if (cwd === undefined || !cwd.startsWith("/")) return text;
  const pattern = cwdPattern(cwd);
  if (pattern === undefined) return text;
  return text.replace(pattern, (_match, before: string, slash: string) => (slash === "/" ? before : `${before}.`));
}

/** The last working directory's pattern: a document rewrites thousands of lines for one cwd, and building the pattern cost more than using it. */
let lastCwd: { cwd: string; pattern: RegExp | undefined } | undefined;

function cwdPattern(cwd: string): RegExp | undefined {
  if (lastCwd?.cwd === cwd) return lastCwd.pattern;
  const base = normaliseSegments(cwd);
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // `replace` starts a global pattern from the beginning each time, so one pattern serves every call.
  const pattern = base === "/" ? undefined : new RegExp(`(^|[\\s"'\`(=:])${escaped}(/(?=[^\\s/])|(?=[\\s"'\`):;,]|$))`, "g");
  lastCwd = { cwd, pattern };
  return pattern;
}
