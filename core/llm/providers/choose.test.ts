import { describe, expect, test } from "bun:test";
import { chooseProfile, isProviderId, PROFILES, PROVIDER_IDS } from "./choose.ts";

describe("chooseProfile: from the base URL", () => {
  test.each([
    ["(none)", "openai"],
    ["https://api.openai.com/v1", "openai"],
    ["https://openrouter.ai/api/v1", "openrouter"],
    ["https://api.anthropic.com/v1/", "anthropic"],
    ["https://generativelanguage.googleapis.com/v1beta/openai/", "google"],
    ["https://api.deepseek.com/v1", "deepseek"],
    ["https://api.deepseek.com", "deepseek"],
    ["https://api.groq.com/openai/v1", "groq"],
    ["https://api.mistral.ai/v1", "mistral"],
    ["http://localhost:11434/v1", "ollama"],
    ["http://ollama.lan:9999/v1", "ollama"],
    ["http://127.0.0.1:1234/v1", "lmstudio"],
    ["http://localhost:8000/v1", "vllm"],
    ["http://gpu-box:8080/v1", "llamacpp"],
    ["http://my-vllm.internal/v1", "vllm"],
    ["https://llm.example.com/v1", "generic"],
    ["https://notopenai.com/v1", "generic"],
    ["https://api.openai.com.evil.example/v1", "generic"],
    ["not a url", "generic"],
  ])("%s → %s", (baseUrl, id) => {
    const chosen: string = chooseProfile(baseUrl === "(none)" ? undefined : baseUrl).id;
    expect(chosen).toBe(id);
  });

  test("--provider wins over the URL", () => {
    expect(chooseProfile("http://localhost:11434/v1", "vllm").id).toBe("vllm");
    expect(chooseProfile(undefined, "generic").id).toBe("generic");
  });

  test("every profile is listed under its own id", () => {
    for (const id of PROVIDER_IDS) {
      const listed: string | false = isProviderId(id) && PROFILES[id].id;
      expect(listed).toBe(id);
    }
    expect(PROVIDER_IDS).toHaveLength(12);
  });
});
