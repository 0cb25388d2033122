/**
 * The token rules' hints as `hintedRules` reads them: one search with a group per hint, which is
 * right only while no hint holds a group of its own and no two hints can stand at one place. And
 * the quick search gives the rules the narrowing one gives, for texts with few hints and many.
 */
import { describe, expect, test } from "bun:test";
import { KINDS } from "../../fixtures/secrets-everywhere.ts";
import { TOKEN_RULES } from "./redact-rules.ts";
import { createRedactor } from "./redact.ts";
import { HELD_BY_KIND, heldRules, hintedRules, narrowingSearch, tokenPattern } from "./redact-token-pattern.ts";

const HINTS = [...new Set(TOKEN_RULES.map((rule) => rule.hint))];

/** Every string a hint matches, for the few forms hints are written in: literals, `\.`, `[abc]`, `(?:a|b)`, `a|b`. */
function expand(source: string): string[] {
  const alternatives: string[][] = [[""]];
  let i = 0;
  const append = (options: string[]) => {
    const current = alternatives.at(-1) as string[];
    alternatives[alternatives.length - 1] = current.flatMap((head) => options.map((tail) => head + tail));
  };
  while (i < source.length) {
    const c = source[i] as string;
    if (c === "|") {
      alternatives.push([""]);
      i++;
    } else if (c === "\\") {
      append([source[i + 1] as string]);
      i += 2;
    } else if (c === "[") {
      const end = source.indexOf("]", i);
      append([...source.slice(i + 1, end)]);
      i = end + 1;
    } else if (source.startsWith("(?:", i)) {
      let depth = 0;
      let end = i;
      for (; end < source.length; end++) {
        if (source[end] === "(") depth++;
        if (source[end] === ")" && --depth === 0) break;
      }
      append(expand(source.slice(i + 3, end)));
      i = end + 1;
    } else {
      expect({ source, unexpected: c }).toEqual({ source, unexpected: c.replace(/[()*+?{}^$]/, "") });
      append([c]);
      i++;
    }
  }
  return alternatives.flat();
}

describe("the token rules' hints", () => {
  test("each hint holds no group of its own (hint k is group k + 1 of the one search)", () => {
    for (const hint of HINTS) expect({ hint, groups: (new RegExp(`${hint}|`).exec("")?.length ?? 0) - 1 }).toEqual({ hint, groups: 0 });
  });

  test("the expansion of each hint is what it matches", () => {
    for (const hint of HINTS) {
      const whole = new RegExp(`^(?:${hint})$`);
      for (const literal of expand(hint)) expect({ hint, literal, matches: whole.test(literal) }).toEqual({ hint, literal, matches: true });
    }
    expect(expand("gh[pousr]_|github_pat_")).toEqual(["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]);
    expect(expand("gl(?:pat|dt)-")).toEqual(["glpat-", "gldt-"]);
  });

  test("no two hints can stand at one place: none is the start of another's", () => {
    const literals = HINTS.flatMap((hint, k) => expand(hint).map((literal) => ({ k, literal })));
    for (const a of literals)
      for (const b of literals)
        if (a.k !== b.k)
          expect({ a: a.literal, b: b.literal, overlap: a.literal.startsWith(b.literal) }).toEqual({
            a: a.literal,
            b: b.literal,
            overlap: false,
          });
  });
});

describe("hintedRules", () => {
  const literals = HINTS.flatMap(expand);
  /** A text of `count` hints drawn in turn from `pool`, each after `gap`. */
  const soup = (pool: readonly string[], count: number, gap: string) =>
    Array.from({ length: count }, (_, i) => `${gap}${pool[(i * 7) % pool.length]}`).join("");
  const TEXTS: [what: string, text: string][] = [
    ["no hint", "nothing to see here"],
    ["one of each hint", literals.join(" ")],
    ["hints glued together", literals.join("")],
    ["overlapping hints", "npm_test_ sk-sk- eyJeyJ xoxapp"],
    ["many of one hint, then another", `${"sk-".repeat(1000)}ghp_`],
    ["more hints than the quick search reads, the last new", `${"eyJ ".repeat(70)}Basic`],
    ["more hints than the quick search reads, each new late", soup(literals, 200, " x")],
    ["just as many hints as the quick search reads", `${"://".repeat(63)}AIza`],
    ["hints inside words", literals.map((literal) => `a${literal}b`).join("")],
    ...KINDS.map((k): [string, string] => [`a ${k.kind} line`, k.line(k.secret(k.kind))]),
  ];
  test.each(TEXTS)("%s: the rules the narrowing search finds", (_what, text) => {
    expect(hintedRules(text)).toBe(narrowingSearch(text));
  });
});

describe("what rules hold besides their hints (HELD_BY_KIND)", () => {
  const kindOf = (kind: string) => TOKEN_RULES.findIndex((rule) => rule.kind === kind);
  const MORE: string[] = [
    "redis://:pw9Xq7Lm2@host:6379/0",
    "https://user:s3cretPw9@example.com/path",
    "postgres://app:Zq8vLm3Rt7@db.internal:5432/app",
    "ssh://git@github.com/org/repo.git and https://github.com:443/x",
    "Authorization = Zq8vLm3Rt7Wx2Kp9Hn4B",
    "Proxy-Authorization\t: Token Zq8vLm3Rt7Wx2Kp9Hn4B",
    "AUTHORIZATION  \x1b[0m: Zq8vLm3Rt7Wx2Kp9Hn4B",
  ];
  test("each names a rule, and every match of that rule is in a text holding it", () => {
    for (const kind of Object.keys(HELD_BY_KIND)) expect({ kind, rule: kindOf(kind) >= 0 }).toEqual({ kind, rule: true });
    // Every line of the secrets-everywhere table, also after an escape, a colour, inside JSON text and quoted.
    const around = ["", "\x1b[31m", "\\u001b[0m", "%20", "\\n", '"', "key: "];
    const texts = [...KINDS.flatMap((k) => around.map((before) => `${before}${k.line(k.secret(k.kind))}`)), ...MORE];
    const seen = new Set<string>();
    for (const text of texts) {
      for (const match of text.matchAll(tokenPattern())) {
        const rule = TOKEN_RULES.findIndex((_, i) => match.groups?.[`s${i}`] !== undefined);
        const kind = TOKEN_RULES[rule]?.kind ?? "";
        const held = HELD_BY_KIND[kind];
        if (held === undefined) continue;
        seen.add(kind);
        expect({ text, kind, holds: held.test(text) }).toEqual({ text, kind, holds: true });
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(HELD_BY_KIND).sort());
  });

  const CASES: [text: string, kind: string, kept: boolean][] = [
    ["see https://example.com/docs for more", "url-password", false],
    ["https://user:s3cretPw9@example.com/path", "url-password", true],
    ["a base64 JSON header eyJhbGciOiJIUzI1NiJ9 alone", "jwt", false],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig", "jwt", true],
    ["if (line.startsWith('-----BEGIN ')) parsePem(line)", "private-key", false],
    ["the task-list and disk-usage panels", "openai-key", false],
    ["sk-proj-Zq8vLm3Rt7Wx2Kp9Hn4Bc6Df1Gj5Ys0Ta", "openai-key", true],
    ["send the Authorization header with each request", "authorization", false],
    ["Authorization: token Zq8vLm3Rt7Wx2Kp9", "authorization", true],
    ['{"Authorization":"Zq8vLm3Rt7Wx2Kp9"}', "authorization", true],
    ["AUTHORIZATION\x1b[0m = Zq8vLm3Rt7Wx2Kp9", "authorization", true],
  ];
  test.each(CASES)("%j: %s kept %p", (text, kind, kept) => {
    const bit = 1 << kindOf(kind);
    expect(hintedRules(text) & bit).toBe(bit);
    expect((heldRules(text, hintedRules(text)) & bit) !== 0).toBe(kept);
  });

  test("rules are left out only all at once: the hinted set stays while one of its rules may match", () => {
    for (const text of ["see https://example.com and ghp_ here", "https://example.com eyJhbGciOiJIUzI1NiJ9 task-list and Basic"]) {
      expect(heldRules(text, hintedRules(text))).toBe(hintedRules(text));
    }
    const none = "https://example.com eyJhbGciOiJIUzI1NiJ9 task-list";
    expect(hintedRules(none)).not.toBe(0);
    expect(heldRules(none, hintedRules(none))).toBe(0);
  });

  test("a text whose hinted rules all lack their held literal is returned as it is", () => {
    for (const [text, , kept] of CASES) if (!kept) expect(createRedactor().redact(text)).toBe(text);
  });
});
