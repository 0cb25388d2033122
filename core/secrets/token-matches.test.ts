/**
 * `tokenMatches` tries the token rules only near their hints (issue 23, the fast path): it must
 * find exactly what a scan of every place finds, the same matches at the same places with the
 * same groups, on the secrets-everywhere lines after every escape and on generated texts glued
 * from the rules' starts, leads, escapes and token characters.
 */
import { describe, expect, test } from "bun:test";
import { KINDS } from "../../fixtures/secrets-everywhere.ts";
import { HINT_REACH, TOKEN_HINT, TOKEN_PATTERN, TOKEN_RULES, tokenMatches } from "./redact-rules.ts";

/** What a match is, for comparing: where it starts, what it took, and every named group. */
function shapes(matches: Iterable<RegExpMatchArray>): { index: number | undefined; text: string; groups: string }[] {
  return [...matches].map((m) => ({ index: m.index, text: m[0], groups: JSON.stringify(m.groups ?? {}) }));
}

/** Every place-by-place match of TOKEN_PATTERN, as the redactor used to find them. */
const everyPlace = (text: string) => shapes(text.matchAll(TOKEN_PATTERN));

const BEFORE = ["", " ", "x", "_", "-", "\x1b[31m", "\\u001b[0m", "\\n", '\\"', "%20", "=", "'", "://", "\u009b1m"];

/** The longest text each rule's `start` takes before its hint, as the rule is written (HINT_REACH must cover them all). */
const LONGEST_STARTS: Record<string, string> = {
  "private-key": "-----BEGIN ",
  "anthropic-key": "sk-ant-",
  "openrouter-key": "sk-or-v",
  "openai-key": "sk-",
  "github-token": "github_pat_",
  "gitlab-token": "glsoat-",
  "aws-access-key-id": "AKIA",
  "aws-secret-key": "AWS_SECRET",
  "google-api-key": "AIza",
  "slack-token": "xapp",
  "slack-webhook": "https://hooks.slack.com/",
  "stripe-key": "whsec_",
  "npm-token": "npm_",
  jwt: "eyJ",
  "bearer-token": "Bearer",
  "basic-auth": "Basic",
  authorization: "Proxy-Authorization",
  "url-password": "://",
};

describe("token matches found near the hints are every match (issue 23)", () => {
  test("each rule's longest start holds its hint within HINT_REACH characters of where it starts", () => {
    expect(Object.keys(LONGEST_STARTS).sort()).toEqual(TOKEN_RULES.map((rule) => rule.kind).sort());
    for (const rule of TOKEN_RULES) {
      const start = LONGEST_STARTS[rule.kind] ?? "";
      expect({ kind: rule.kind, starts: new RegExp(`^(?:${rule.start})`).test(start) }).toEqual({ kind: rule.kind, starts: true });
      const hint = new RegExp(rule.hint).exec(`${start}live_test_`);
      expect({ kind: rule.kind, at: (hint?.index ?? Number.POSITIVE_INFINITY) <= HINT_REACH }).toEqual({ kind: rule.kind, at: true });
    }
  });

  test("every secrets-everywhere line, after every escape, twice and glued", () => {
    let compared = 0;
    for (const k of KINDS) {
      for (const before of BEFORE) {
        const line = k.line(k.secret(`${k.kind}${before}`));
        for (const text of [`${before}${line}`, `${line} ${before}${line}`, `${line}${line}`, `a${before}${line}\n${line}`]) {
          expect({ text, found: shapes(tokenMatches(text)) }).toEqual({ text, found: everyPlace(text) });
          compared += everyPlace(text).length;
        }
      }
    }
    expect(compared).toBeGreaterThan(KINDS.length * BEFORE.length);
  });

  test("10,000 texts glued from starts, leads, escapes and token characters", () => {
    const pieces = [
      ...Object.values(LONGEST_STARTS),
      ...[
        "sk_live_",
        "pk_live_",
        "rk_test_",
        "ghp_",
        "glpat-",
        "ASIA",
        "secret_access_key",
        "SECRET_ACCESS_KEY",
        "bearer",
        "authorization",
      ],
      ...[": ", "=", " = ", '"', "'", '\\"', "@", "/", ".", "-", "_", " ", "\t", "\n", "\\n", "\x1b[0m", "\\u001b[32m", "%3D"],
      ...[
        "eyJhbGciOiJIUzI1NiJ9",
        ".eyJzdWIiOiIxIn0.",
        "Zq8vLm3Rt7Wx2Kp9",
        "Hn4Bc6Df1Gj5Ys0TaQ",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE9",
      ],
      ...["https://", "postgres://app:", "user:pw9Xq7Lm2@host", "task-", "disk", "x", "9", "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ"],
    ];
    // A fixed stream (xorshift), so every run checks the same texts.
    let seed = 2463534242;
    const next = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      seed >>>= 0;
      return seed % n;
    };
    let withMatches = 0;
    for (let i = 0; i < 10_000; i++) {
      let text = "";
      for (let j = next(12) + 1; j > 0; j--) text += pieces[next(pieces.length)];
      const expected = everyPlace(text);
      if (expected.length > 0) withMatches++;
      expect({ text, found: shapes(tokenMatches(text)) }).toEqual({ text, found: expected });
    }
    expect(withMatches).toBeGreaterThan(500);
  });

  test("a text with no hint, or hints that start nothing, has no match", () => {
    for (const text of ["", "plain words", "x".repeat(10_000)]) {
      expect(TOKEN_HINT.test(text)).toBe(false);
      expect(tokenMatches(text)).toEqual([]);
    }
    for (const text of ["task-runner disk-skip", "sk- ".repeat(5_000), "Basic".repeat(3_000), "a://b ".repeat(2_000)]) {
      expect(TOKEN_HINT.test(text)).toBe(true);
      expect(tokenMatches(text)).toEqual([]);
    }
  });
});
