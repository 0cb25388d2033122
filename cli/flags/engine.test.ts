import { describe, expect, test } from "bun:test";
import { AgentError } from "../../core/index.ts";
import { isAgentEngine, noModelNotice, resolveEngine } from "./engine.ts";
import { ENGINE_CHOICES } from "./setting-values.ts";

describe("choosing the engine", () => {
  test.each([
    [undefined, {}, "offline", true],
    ["auto", {}, "offline", true],
    ["auto", { apiKey: "sk-x" }, "llm", false],
    ["auto", { baseUrl: "http://localhost:11434/v1" }, "llm", false],
    ["llm", { apiKey: "sk-x" }, "llm", false],
    ["offline", { apiKey: "sk-x" }, "offline", false],
  ] as const)("--engine %p with %p → %s", (flag, configured, engine, noticed) => {
    const chosen = resolveEngine(flag, configured);
    expect(chosen.engine).toBe(engine);
    expect(chosen.notice !== undefined).toBe(noticed);
    if (noticed) expect(chosen.notice).toBe("no model configured: the offline engine writes the handoff (see agent config)");
  });

  test("--engine llm with nothing configured is a usage error that says how to configure", () => {
    expect(() => resolveEngine("llm", {})).toThrow(AgentError);
    try {
      resolveEngine("llm", {});
    } catch (error) {
      expect(error instanceof AgentError && error.code).toBe("USAGE");
      expect(String(error)).toContain("OPENAI_API_KEY");
      expect(String(error)).toContain("--engine offline");
    }
  });

  test("the message names the choice as the user wrote it", () => {
    expect(() => resolveEngine("llm", {}, "AGENT_ENGINE=llm")).toThrow("AGENT_ENGINE=llm needs a model: set OPENAI_API_KEY");
  });

  test("an unknown engine is refused by name", () => {
    expect(() => resolveEngine("gpt", {})).toThrow(`--engine takes ${ENGINE_CHOICES}, not "gpt"`);
  });

  test.each([
    ["claude-code", "claude-code"],
    ["claude", "claude-code"],
    ["Claude", "claude-code"],
    ["codex", "codex"],
    ["PI", "pi"],
    ["omp", "omp"],
  ] as const)("--engine %p is the agent %p, with or without a model configured, and says nothing", (flag, engine) => {
    for (const configured of [{}, { apiKey: "sk-x" }]) {
      const chosen = resolveEngine(flag, configured);
      expect(chosen).toEqual({ engine });
      expect(isAgentEngine(chosen.engine)).toBe(true);
    }
    expect(isAgentEngine("llm") || isAgentEngine("offline")).toBe(false);
  });

  test("auto never picks an agent; its offline notice names the one installed", () => {
    expect(noModelNotice(undefined)).toBe("no model configured: the offline engine writes the handoff (see agent config)");
    expect(noModelNotice({ name: "codex", label: "Codex" })).toBe(
      "no model configured: the offline engine writes the handoff (see agent config); Codex is installed: --engine codex has it write the handoff",
    );
  });
});
