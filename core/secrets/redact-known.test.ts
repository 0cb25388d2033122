import { describe, expect, test } from "bun:test";
import { createRedactor } from "./redact.ts";

/** A redactor that has found `found` (each line through `redact`), then `redactKnown` of `later`. */
function knownIn(found: readonly string[], later: string) {
  const redactor = createRedactor();
  const first = found.map((t) => redactor.redact(t));
  const second = [...first, later].map((t) => redactor.redactKnown(t));
  return { redactor, found: second.slice(0, -1), later: second.at(-1) ?? "" };
}

describe("redactKnown: a secret found once is replaced wherever it recurs", () => {
  test.each([
    {
      name: "a password value, later bare",
      found: ["password=Hunter2Secret!"],
      later: "the pass is Hunter2Secret! ok",
      want: "the pass is [REDACTED:password:1] ok",
    },
    {
      name: "a URL password, later in prose",
      found: ["postgres://admin:S3cr3tPass@db/prod"],
      later: "S3cr3tPass, again",
      want: "[REDACTED:url-password:1], again",
    },
    {
      name: "every occurrence, also twice on a line",
      found: ["token: Xk29abcdLmnop7"],
      later: "Xk29abcdLmnop7/Xk29abcdLmnop7",
      want: "[REDACTED:token:1]/[REDACTED:token:1]",
    },
    {
      name: "a long secret inside a longer word",
      found: ["secret=Zq9Vx7Lm2Kp4"],
      later: "xxZq9Vx7Lm2Kp4yy",
      want: "xx[REDACTED:secret:1]yy",
    },
    {
      name: "a short one only as a whole token",
      found: ["password=Hunt3r"],
      later: "Hunt3r Hunt3rs xHunt3r (Hunt3r)",
      want: "[REDACTED:password:1] Hunt3rs xHunt3r ([REDACTED:password:1])",
    },
    {
      name: "shorter than 6 characters: left where no rule finds it",
      found: ["password=ab3x9"],
      later: "ab3x9 stays",
      want: "ab3x9 stays",
    },
    {
      name: "the longest first when one contains another",
      found: ["password=Hunter2Secret", "token: Hunter2Secret-and-more"],
      later: "Hunter2Secret-and-more",
      want: "[REDACTED:token:1]",
    },
    {
      name: "regex characters in a secret are literal",
      found: ["password=a.b*c+d(e)?"],
      later: "a.b*c+d(e)? and aXbbc",
      want: "[REDACTED:password:1] and aXbbc",
    },
  ])("$name", ({ found, later, want }) => {
    expect(knownIn(found, later).later).toBe(want);
  });

  test("a secret that is part of a placeholder never breaks one", () => {
    const { found, later } = knownIn(
      ["password=password1 here", "api_key=github-token-1"],
      "[REDACTED:password:1] \\[REDACTED:github-token:1\\] password1",
    );
    expect(found).toEqual(["password=[REDACTED:password:1] here", "api_key=[REDACTED:api-key:1]"]);
    expect(later).toBe("[REDACTED:password:1] \\[REDACTED:github-token:1\\] [REDACTED:password:1]");
  });

  test("restore gives each original back exactly once, wherever the placeholder went", () => {
    const { redactor, found, later } = knownIn(["password=Hunter2Secret!"], "Hunter2Secret! and Hunter2Secret!");
    expect(redactor.restore([...found, later].join("\n"))).toBe("password=Hunter2Secret!\nHunter2Secret! and Hunter2Secret!");
    expect(redactor.count).toBe(1);
  });

  test("many secrets at once: each recurrence, at the start, the end, beside a placeholder", () => {
    const secrets = Array.from({ length: 300 }, (_, i) => `Pw${i}-${(i * 7919).toString(36)}x`);
    const redactor = createRedactor();
    const found = secrets.map((s) => redactor.redact(`password=${s}`));
    expect(redactor.count).toBe(300);
    expect(found[0]).toBe("password=[REDACTED:password:1]");
    const later = secrets.map((s) => `${s} [${s}][REDACTED:password:1]${s}`).join(" ");
    const redacted = redactor.redactKnown(later);
    for (const s of secrets) expect(redacted).not.toContain(s);
    expect(redactor.restore(redacted)).toBe(secrets.map((s) => `${s} [${s}]${secrets[0]}${s}`).join(" "));
  });

  test("nothing found: text is untouched", () => {
    expect(createRedactor().redactKnown("password is Hunter2Secret!")).toBe("password is Hunter2Secret!");
  });
});
