import { describe, expect, test } from "bun:test";
import { GITHUB, GITHUB_2, OPENAI } from "../../fixtures/redact-samples.ts";
import { choosePlaceholderWord, createRedactor } from "./redact.ts";

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

  test("a value that holds a token already replaced restores whole, in one pass", () => {
    const redactor = createRedactor();
    const text = `API_KEY=pre-${GITHUB} and secret =  token=${GITHUB_2}`;
    const out = redactor.redact(text);
    expect(out).not.toContain("ghp_");
    expect(redactor.restore(out)).toBe(text);
  });

  test("restore leaves placeholders it did not make", () => {
    const redactor = createRedactor();
    redactor.redact(GITHUB);
    const other = "[REDACTED:github-token:2] [REDACTED:password:1] [REDACTED:GITHUB:1]";
    expect(redactor.restore(other)).toBe(other);
    expect(createRedactor().restore("[REDACTED:github-token:1]")).toBe("[REDACTED:github-token:1]");
  });
});

describe("placeholders never collide with the input", () => {
  test.each<[string, string[], string]>([
    ["no placeholder-like text: the plain word", ["hello", "token=x"], "REDACTED"],
    ["a literal placeholder: the next word", ["old doc: [REDACTED:github-token:1]"], "REDACTED-2"],
    ["escaped, and the next word too: the one after", ["\\[REDACTED:password:1\\]", "[REDACTED-2:x:1]"], "REDACTED-3"],
    ["the word without the colon is not a collision", ["REDACTED, REDACTED-2 and [REDACTED]"], "REDACTED"],
  ])("%s", (_what, texts, word) => {
    expect(choosePlaceholderWord(texts)).toBe(word);
  });

  test("a hostile input holding 200,000 variants is read once, and gets the next word", () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `[REDACTED${i === 0 ? "" : `-${i + 1}`}:x:1]`).join(" ");
    expect(choosePlaceholderWord([text])).toBe("REDACTED-200001");
  });

  test("a redactor with another word issues and restores only its own placeholders", () => {
    const redactor = createRedactor({ word: "REDACTED-2" });
    const out = redactor.redact(`copied [REDACTED:github-token:1], real ${GITHUB}`);
    expect(out).toBe("copied [REDACTED:github-token:1], real [REDACTED-2:github-token:1]");
    expect(redactor.restore(`${out} \\[REDACTED-2:github-token:1\\] [REDACTED-2:github-token:9]`)).toBe(
      `copied [REDACTED:github-token:1], real ${GITHUB} ${GITHUB} [REDACTED-2:github-token:9]`,
    );
  });

  test("a word given as a function is asked once, when the first placeholder is issued, and is the word of every placeholder", () => {
    let asked = 0;
    const redactor = createRedactor({
      word: () => {
        asked++;
        return "REDACTED-3";
      },
    });
    expect(redactor.redact("nothing secret here, token count 12")).toBe("nothing secret here, token count 12");
    expect(redactor.restore("[REDACTED-3:github-token:1]")).toBe("[REDACTED-3:github-token:1]");
    expect(redactor.redactKnown("nothing known")).toBe("nothing known");
    expect(asked).toBe(0);
    const out = redactor.redact(`real ${GITHUB} and ${OPENAI}`);
    expect(out).toBe("real [REDACTED-3:github-token:1] and [REDACTED-3:openai-key:1]");
    expect(redactor.redactKnown(`again ${GITHUB}`)).toBe("again [REDACTED-3:github-token:1]");
    expect(redactor.restore(out)).toBe(`real ${GITHUB} and ${OPENAI}`);
    expect(asked).toBe(1);
  });
});
