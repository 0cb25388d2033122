import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OMP_EXTENSION_HOST } from "../../omp/extension.ts";
import { extensionHookArgv, parseExtensionHookArgv } from "./hook-protocol.ts";
import { PI_EXTENSION_HOST } from "./host.ts";
import { type ExtensionSetup, readExtensionSetup, renderExtension } from "./setup.ts";

const TEMPLATE = readFileSync(join(import.meta.dir, "agent-handoff.ts"), "utf8");
const SETUP: ExtensionSetup = { command: "agent-handoff", agent: "omp", run: ["/a b/bun", "/x/'q'/cli.ts", "$(x)"], timeoutMs: 1234 };

describe("the installed copy", () => {
  test("is the template but for the SETUP line, which reads back as the setup written", () => {
    const installed = renderExtension(TEMPLATE, SETUP);
    const differing = installed.split("\n").filter((line, i) => line !== TEMPLATE.split("\n")[i]);
    expect(differing).toEqual([
      `const SETUP: Setup = {"command":"agent-handoff","agent":"omp","run":["/a b/bun","/x/'q'/cli.ts","$(x)"],"timeoutMs":1234};`,
    ]);
    expect(readExtensionSetup(installed)).toEqual(SETUP);
    const withBin = { ...SETUP, agentBin: "/usr/local/bin/omp", targets: ["pi", "codex"] };
    expect(readExtensionSetup(renderExtension(TEMPLATE, withBin))).toEqual(withBin);
    expect(renderExtension(installed, SETUP)).toBe(installed);
  });

  test("the template in the repository reads as pi's with agent from PATH", () => {
    expect(readExtensionSetup(TEMPLATE)).toBeUndefined(); // its line is TypeScript, not the JSON integrate writes
    expect(TEMPLATE).toContain('const SETUP: Setup = { command: "handoff", agent: "pi", run: ["agent"], timeoutMs: 600_000 };');
  });

  // Files that are not a copy of ours: --uninstall leaves them, --status says so.
  const NOT_OURS: [string, string][] = [
    ["an empty file", ""],
    ["someone's extension", "export default function (pi) { pi.registerCommand('handoff', {}); }\n"],
    ["two SETUP lines", `${renderExtension(TEMPLATE, SETUP)}\n${renderExtension(TEMPLATE, SETUP)}`],
    ["a SETUP line that is not JSON", 'const SETUP: Setup = { command: "handoff" };\n'],
    ["a SETUP line of another shape", 'const SETUP: Setup = {"command":"handoff","agent":"pi","run":"agent","timeoutMs":1};\n'],
    ["targets that are not names", 'const SETUP: Setup = {"command":"handoff","agent":"pi","run":[],"timeoutMs":1,"targets":[1]};\n'],
    ["an agent we do not install into", 'const SETUP: Setup = {"command":"handoff","agent":"codex","run":[],"timeoutMs":1};\n'],
  ];
  for (const [name, text] of NOT_OURS) test(`${name} is not ours`, () => expect(readExtensionSetup(text)).toBeUndefined());

  test("a template without exactly one SETUP line is a bug, said so", () => {
    expect(() => renderExtension("export {};\n", SETUP)).toThrow("the extension template holds 0 SETUP lines, not one");
  });

  test("each host's folder and command: pi's /handoff, omp's /agent-handoff (its own /handoff stays)", () => {
    const home = { home: "/h", env: {}, tmpdir: "/tmp" };
    expect([PI_EXTENSION_HOST.command, PI_EXTENSION_HOST.folder(home)]).toEqual(["handoff", ["/h", ".pi", "agent", "extensions"]]);
    expect([OMP_EXTENSION_HOST.command, OMP_EXTENSION_HOST.folder(home)]).toEqual(["agent-handoff", ["/h", ".omp", "agent", "extensions"]]);
    const moved = { ...home, env: { PI_CODING_AGENT_DIR: "~/pi-dir" } };
    expect(PI_EXTENSION_HOST.folder(moved)).toEqual(["/h/pi-dir", "extensions"]);
    expect(OMP_EXTENSION_HOST.folder({ ...home, env: { OMP_PROFILE: "work" } })).toEqual([
      "/h",
      ".omp",
      "profiles",
      "work",
      "agent",
      "extensions",
    ]);
  });
});

describe("the argv of agent hook pi|omp", () => {
  const INPUT = { sessionFile: "/s/a b.jsonl", cwd: "/w", args: "--to codex $(x)\n" };

  test("what the extension passes reads back as what it meant", () => {
    const argv = extensionHookArgv("pi", INPUT);
    expect(argv.slice(0, 2)).toEqual(["hook", "pi"]);
    expect(parseExtensionHookArgv(argv.slice(2))).toEqual(INPUT);
    expect(parseExtensionHookArgv(["--cwd", "/w", "--session", "/s", "--", ""])).toEqual({ sessionFile: "/s", cwd: "/w", args: "" });
    const withBin = { ...INPUT, agentBin: "/opt/pi bin/pi" };
    expect(parseExtensionHookArgv(extensionHookArgv("omp", withBin).slice(2))).toEqual(withBin);
  });

  const USAGE = "expected --session <file> --cwd <folder> [--agent-bin <path>] -- <arguments>";
  const BAD: [string[], string][] = [
    [[], `no -- before the command's arguments (${USAGE})`],
    [["--session", "/s", "--cwd", "/w", "--"], `0 items after --, not one (${USAGE})`],
    [["--session", "/s", "--cwd", "/w", "--", "a", "b"], `2 items after --, not one (${USAGE})`],
    [["--session", "/s", "--", "x"], USAGE],
    [["--session", "/s", "--session", "/t", "--cwd", "/w", "--", "x"], `--session is given twice (${USAGE})`],
    [["--session", "", "--cwd", "/w", "--", "x"], `--session needs a value (${USAGE})`],
    [["--session", "/s", "--cwd", "--", "x"], `--cwd needs a value (${USAGE})`],
    [["--focus", "x", "--", "x"], `unexpected "--focus" (${USAGE})`],
    [["--session", "s.jsonl", "--cwd", "/w", "--", "x"], '--session "s.jsonl" is not an absolute path'],
    [["--session", "/s", "--cwd", "w", "--", "x"], '--cwd "w" is not an absolute path'],
    [["--session", "/s", "--cwd", "/w", "--agent-bin", "pi", "--", "x"], '--agent-bin "pi" is not an absolute path'],
  ];
  for (const [argv, problem] of BAD)
    test(`${JSON.stringify(argv)}: ${problem}`, () => expect(parseExtensionHookArgv(argv)).toEqual({ problem }));
});
