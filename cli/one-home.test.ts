import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { checkOneHome, findCopies } from "../scripts/one-home.ts";

// Near today's count of production files in cli/ and core/: far fewer means the glob missed the tree.
const FILE_FLOOR = 220;

describe("each idea has one home in the source", () => {
  test("no production file in cli/ or core/ spells one again", () => {
    const { files, violations } = checkOneHome(join(import.meta.dir, ".."));
    expect(files.length).toBeGreaterThanOrEqual(FILE_FLOOR);
    expect(violations.map((v) => `${v.file}:${v.line}: ${v.problem}`)).toEqual([]);
  });

  // [case, file, a line of it, the home its message names]
  const CAUGHT: [string, string, string, string][] = [
    ["errorMessage copied", "cli/x.ts", "  return error instanceof Error ? error.message : String(error);", "core/errors.ts"],
    ["errorMessage copied, other names", "core/y.ts", "const m = e instanceof Error ? e.message : String(e);", "core/errors.ts"],
    ["a code read by hand", "cli/x.ts", 'const code = error instanceof Error && "code" in error ? error.code : "";', "cli/io/fs-errors.ts"],
    ["fs words spelled again", "cli/x.ts", '  if (code === "EACCES") return "permission denied";', "cli/io/fs-errors.ts"],
    [
      "a no-overwrite message spelled again",
      "cli/x.ts",
      "throw new Error(`${p}: already exists; refusing to overwrite it`);",
      "cli/io/fs-errors.ts",
    ],
    ["the wrapper's open tag", "cli/glance-x.ts", 'const OPEN = "<handoff-context>";', "core/session/formats/handoff-text.ts"],
    ["the wrapper's close tag", "core/z.ts", "text.endsWith(`\\n</handoff-context>`)", "core/session/formats/handoff-text.ts"],
    [
      "an id read from a file name",
      "cli/commands/handoff/resume.ts",
      "  const id = layout.idInName?.(basename(path));",
      "cli/sessions/new-session-place.ts",
    ],
    [
      "a format's location read elsewhere",
      "cli/commands/handoff/resume.ts",
      "  const root = joinSegments(format.location.sessionsRoot(home));",
      "cli/sessions/new-session-place.ts",
    ],
    ["a table keyed by agent", "cli/commands/handoff/resume.ts", '  "claude-code": "<uuid>.jsonl",', "core/"],
    ["a table keyed by agent, bare key", "cli/flags/settings.ts", "  codex: settings.codexBin,", "core/"],
  ];
  test.each(CAUGHT)("caught: %s", (_, file, line, home) => {
    const found = findCopies(file, `export {};\n${line}\n`);
    expect(found).toHaveLength(1);
    expect(found[0]?.line).toBe(2);
    expect(found[0]?.problem).toContain(`use the one in ${home}`);
  });

  // [case, file, text]
  const LEFT: [string, string, string][] = [
    ["the home itself", "core/errors.ts", "  return error instanceof Error ? error.message : String(error);"],
    ["the fs home", "cli/io/fs-errors.ts", '  EACCES: "permission denied",'],
    ["a comment line", "cli/x.ts", " * The `<handoff-context>` wrapper, `permission denied`."],
    ["a format's own layout", "core/session/formats/codex/location.ts", "    idInName: (name) => ROLLOUT_NAME.exec(name)?.[1],"],
    ["discovery, finding the sessions that exist", "cli/sessions/discover.ts", "  const layout = format.location.sessionFiles(home);"],
    ["agent names in core", "core/agent-run/table.ts", '  "claude-code": claudeCodeEngine,'],
    ["a trailing comment", "cli/x.ts", 'f(); // "code" in error was read here once'],
    ["the stack for a bug", "cli/x.ts", "const m = error instanceof Error ? `${error.name}: ${error.message}` : String(error);"],
  ];
  test.each(LEFT)("left alone: %s", (_, file, text) => {
    expect(findCopies(file, text)).toEqual([]);
  });
});
