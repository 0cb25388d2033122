import { describe, expect, test } from "bun:test";
import { AGENT_ENGINES } from "./table.ts";

const PROMPT = { system: "Be brief.", body: "<transcript>…</transcript>\n\nWrite it." };

describe("the run each agent gets", () => {
  test.each(AGENT_ENGINES.map((e) => [e.name, e] as const))(
    "%s: the prompt goes on stdin, never in argv; nothing saved; no tools",
    (_, engine) => {
      const plan = engine.plan(PROMPT, "/tmp/scratch");
      expect(plan.stdin).toBe(PROMPT.body);
      expect(plan.args.some((a) => a.includes("<transcript>"))).toBe(false);
      const noPersistence = { "claude-code": "--no-session-persistence", codex: "--ephemeral", pi: "--no-session", omp: "--no-session" }[
        engine.name
      ];
      expect(plan.args).toContain(noPersistence);
      const noTools = {
        "claude-code": ["--tools", ""],
        codex: ["-c", "features.shell_tool=false"],
        pi: ["--no-tools"],
        omp: ["--no-tools"],
      }[engine.name];
      const found = plan.args.some((_, at) => noTools.every((word, i) => plan.args[at + i] === word));
      expect(found).toBe(true);
    },
  );

  test.each(AGENT_ENGINES.filter((e) => e.name !== "codex").map((e) => [e.name, e] as const))(
    "%s: the system prompt by --system-prompt, left out when there is none",
    (_, engine) => {
      expect(engine.plan(PROMPT, "/s").args.slice(-2)).toEqual(["--system-prompt", "Be brief."]);
      expect(engine.plan({ system: "", body: "b" }, "/s").args).not.toContain("--system-prompt");
    },
  );

  test.each(AGENT_ENGINES.filter((e) => e.name !== "codex").map((e) => [e.name, e] as const))(
    "%s: a system prompt too long for one argument opens the prompt on stdin instead",
    (_, engine) => {
      const system = "s".repeat(100_000);
      const plan = engine.plan({ system, body: "b" }, "/s");
      expect(plan.args).not.toContain("--system-prompt");
      expect(plan.args.every((a) => a.length < 1000)).toBe(true);
      expect(plan.stdin).toBe(`${system}\n\nb`);
    },
  );

  test("codex: the system prompt replaces its instructions from a file in the scratch folder; it runs there, read-only", () => {
    const codex = AGENT_ENGINES.find((e) => e.name === "codex");
    if (codex === undefined) throw new Error("codex is not in AGENT_ENGINES");
    const plan = codex.plan(PROMPT, "/tmp/scratch");
    expect(plan.files).toEqual({ "instructions.md": "Be brief." });
    expect(plan.args).toContain('model_instructions_file="/tmp/scratch/instructions.md"');
    expect(plan.args.slice(0, 1)).toEqual(["exec"]);
    expect(plan.args.at(-1)).toBe("-");
    for (const [flag, value] of [
      ["--cd", "/tmp/scratch"],
      ["--sandbox", "read-only"],
    ] as const)
      expect(plan.args[plan.args.indexOf(flag) + 1]).toBe(value);
    expect(codex.plan({ system: "", body: "b" }, "/s").files).toEqual({});
  });
});

describe("what each agent would read on its own is turned off (issue 22 A6, A12; proven by bun run compat)", () => {
  const plans = Object.fromEntries(AGENT_ENGINES.map((e) => [e.name, e.plan(PROMPT, "/tmp/scratch")]));

  test("Claude Code: no file for an @-mention, no CLAUDE.md of any folder or of the user", () => {
    expect(plans["claude-code"]?.env).toMatchObject({ CLAUDE_CODE_DISABLE_FILE_MENTIONS: "1", CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1" });
  });

  test("Codex: no AGENTS.md of a project, and no folder above its own taken for the project", () => {
    const args = plans.codex?.args ?? [];
    for (const setting of ["project_doc_max_bytes=0", "project_root_markers=[]"]) expect(args[args.indexOf(setting) - 1]).toBe("-c");
  });

  test("omp: a project marker in its folder, so it reads no folder above it up to HOME", () => {
    expect(plans.omp?.files).toEqual({ ".git": "" });
  });

  test("pi: no context files (it expands nothing in a prompt)", () => {
    expect(plans.pi?.args).toContain("--no-context-files");
  });
});
