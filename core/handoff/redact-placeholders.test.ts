import { describe, expect, test } from "bun:test";
import { GITHUB, GITHUB_2, OPENAI } from "../../fixtures/redact-samples.ts";
import { createRedactor } from "./redact.ts";

describe("placeholders", () => {
  test("the same secret gets the same placeholder, another secret the next number", () => {
    const redactor = createRedactor();
    const first = redactor.redact(`a ${GITHUB} b ${GITHUB_2}`);
    const second = redactor.redact(`again ${GITHUB}`);
    expect(first).toBe("a [REDACTED:github-token:1] b [REDACTED:github-token:2]");
    expect(second).toBe("again [REDACTED:github-token:1]");
    expect(redactor.count).toBe(2);
    expect(redactor.kinds).toEqual({ "github-token": 2 });
  });

  test("numbers count per kind", () => {
    const redactor = createRedactor();
    expect(redactor.redact(`${GITHUB} ${OPENAI} PASSWORD=hunter22`)).toBe(
      "[REDACTED:github-token:1] [REDACTED:openai-key:1] PASSWORD=[REDACTED:password:1]",
    );
    expect(redactor.count).toBe(3);
  });

  test("redacting redacted text changes nothing", () => {
    const redactor = createRedactor();
    const once = redactor.redact(`token=${GITHUB} password: "s3cret-1" ${OPENAI}`);
    expect(redactor.redact(once)).toBe(once);
    expect(redactor.count).toBe(3);
  });

  test("kinds is a copy, not the redactor's own record", () => {
    const redactor = createRedactor();
    redactor.redact(GITHUB);
    redactor.kinds["github-token"] = 99;
    expect(redactor.kinds).toEqual({ "github-token": 1 });
  });

  test("restore puts every repetition back, also in markdown code and escaped brackets", () => {
    const redactor = createRedactor();
    const placeholder = redactor.redact(GITHUB);
    const document = [
      `## Critical Context`,
      `- The token ${placeholder} is in .env.`,
      "```sh",
      `export GITHUB_TOKEN=${placeholder}`,
      "```",
      `Inline \`${placeholder}\`, escaped \\[REDACTED:github-token:1\\], twice ${placeholder}${placeholder}.`,
    ].join("\n");
    const restored = redactor.restore(document);
    expect(restored).not.toContain("REDACTED");
    expect(restored.split(GITHUB).length - 1).toBe(6);
    expect(restored).toContain(`escaped ${GITHUB},`);
  });

  test("restore leaves placeholders it did not make", () => {
    const redactor = createRedactor();
    redactor.redact(GITHUB);
    const other = "[REDACTED:github-token:2] [REDACTED:password:1] [REDACTED:GITHUB:1]";
    expect(redactor.restore(other)).toBe(other);
    expect(createRedactor().restore("[REDACTED:github-token:1]")).toBe("[REDACTED:github-token:1]");
  });
});
