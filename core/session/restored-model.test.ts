/**
 * The model a new session for another agent names: the source's only when the source's agent
 * names its provider as the other agent does (`SessionFormat.sharedProviders`). `bun run compat`
 * showed why: a Codex session's provider is a key of that user's Codex configuration, and a pi
 * or omp session naming it starts with the agent's default (omp's may even be unreachable).
 */
import { describe, expect, test } from "bun:test";
import { codex } from "./formats/codex/index.ts";
import { FORMATS } from "./formats/table.ts";
import { modelForAnotherAgent, type RestoredModel } from "./restored-model.ts";

const OPENAI: RestoredModel = { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" };
const PROXY: RestoredModel = { pi: { provider: "my-proxy", modelId: "gpt-5" }, omp: "my-proxy/gpt-5" };
const NONE: RestoredModel = { pi: undefined, omp: undefined };

describe("a source's model, for another agent", () => {
  const CASES: [string, RestoredModel, readonly string[] | undefined, RestoredModel][] = [
    ["every provider shared (pi, omp, Claude Code): kept", PROXY, undefined, PROXY],
    ["a shared provider: kept", OPENAI, ["openai"], OPENAI],
    ["a provider only the source's agent has: none, the agent's default", PROXY, ["openai"], NONE],
    ["no model at all: none", NONE, ["openai"], NONE],
    [
      "pi's and omp's differ: each judged on its own",
      { pi: { provider: "my-proxy", modelId: "x" }, omp: "openai/gpt-5" },
      ["openai"],
      { pi: undefined, omp: "openai/gpt-5" },
    ],
    ["omp's without a provider: none", { pi: undefined, omp: "gpt-5" }, ["gpt-5"], NONE],
    ["omp's provider only as a prefix of a shared one: none", { pi: undefined, omp: "open/ai" }, ["openai"], NONE],
  ];
  test.each(CASES)("%s", (_, model, shared, expected) => {
    expect(modelForAnotherAgent(model, shared)).toEqual(expected);
  });

  test("only Codex limits its providers, to Codex's own `openai`", () => {
    expect(FORMATS.filter((format) => format.sharedProviders !== undefined).map((format) => format.name)).toEqual(["codex"]);
    expect(codex.sharedProviders).toEqual(["openai"]);
  });
});
