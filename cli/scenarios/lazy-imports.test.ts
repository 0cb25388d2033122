import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO } from "../../fixtures/run-agent.ts";

// What every run pays before it does anything: the binary is one bundle, and a module it imports
// statically (or a runtime module any bundled file imports statically) is loaded at start, used or
// not. The heavy ones are loaded where they are used: `process.getBuiltinModule`, or `import()`
// for a package (the bundle then evaluates it only when that line runs).
describe("the binary loads heavy modules only on the paths that use them", () => {
  let bundle: string;
  let staticImports: Set<string>;

  beforeAll(async () => {
    const built = await Bun.build({ entrypoints: [join(REPO, "cli", "index.ts")], target: "bun", format: "esm" });
    if (!built.success) throw new Error(built.logs.join("\n"));
    bundle = (await built.outputs[0]?.text()) ?? "";
    staticImports = new Set([...bundle.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1] ?? ""));
  });

  // Each: a runtime module and what uses it.
  test.each([
    ["zlib", "a zstd-compressed session (cli/io/zstd.ts, cli/io/zstd-window.ts)"],
    ["tty", "a session on stdin (cli/sessions/session-file.ts)"],
    ["child_process", "an agent engine (cli/agents/agent-process.ts)"],
    ["crypto", "a lock name cut to fit (cli/io/lock.ts)"],
    ["bun:sqlite", "Codex's thread index (cli/sessions/session-index.ts)"],
    [
      "os",
      "a HOME that is not set, the user's ids, a program's platform and an exit by signal (cli/sessions/agent-home.ts, cli/io/private-folder.ts, cli/commands/handoff/resume.ts)",
    ],
  ])("%s is not imported at start (used only by %s)", (name) => {
    expect(staticImports.size).toBeGreaterThan(0);
    expect([...staticImports]).not.toContain(name);
    expect([...staticImports]).not.toContain(`node:${name}`);
  });

  // A package imported with `import()` is wrapped by the bundler (`var init_x = __esm(…)`) and
  // evaluated where `init_x()` is called: only inside the `import()`, never in another module's init.
  test.each([["@clack/prompts", "node_modules/@clack/prompts/dist/index.mjs", "--pick (cli/sessions/pick.ts)"]])(
    "%s (%s) is evaluated only by its import(), on %s",
    (_name, path) => {
      const start = bundle.indexOf(`// ${path}\n`);
      expect(start).toBeGreaterThan(-1);
      const init = /^var (init_\w+) = __esm\(/m.exec(bundle.slice(start, bundle.indexOf("\n// ", start + 1)))?.[1];
      expect(init).toBeDefined();
      const calls = [...bundle.matchAll(new RegExp(`(.{0,30})\\b${init}\\(\\)`, "g"))].map((m) => m[1]);
      expect(calls.length).toBeGreaterThan(0);
      for (const before of calls) expect(before).toMatch(/Promise\.resolve\(\)\.then\(\(\) => \(?$/);
    },
  );

  // A one-file bundle still loads at start every built-in module a lazily evaluated package
  // imports (node:readline for the prompts): the build splits, so each such package is a chunk
  // with its built-ins, loaded by its import() alone.
  test("the build splits, and the chunk of the prompts is not the CLI's: node:readline is not loaded at start", async () => {
    const packageJson = await Bun.file(join(REPO, "package.json")).json();
    expect(packageJson.scripts.build).toContain("--splitting");
    const split = await Bun.build({ entrypoints: [join(REPO, "cli", "index.ts")], target: "bun", format: "esm", splitting: true });
    if (!split.success) throw new Error(split.logs.join("\n"));
    const chunks = await Promise.all(split.outputs.map((output) => output.text()));
    const importing = (name: string) =>
      chunks.filter((text) => [...text.matchAll(/^import .* from "([^"]+)";$/gm)].some((m) => m[1] === name || m[1] === `node:${name}`));
    expect(importing("readline").length).toBeGreaterThan(0);
    for (const chunk of importing("readline")) {
      expect(chunk).toContain("// node_modules/@clack/core/");
      expect(chunk).not.toContain("// cli/main.ts");
    }
  });
});
