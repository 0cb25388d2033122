/**
 * An outside review of the literal prefilter (issue 23): secrets that leaked where colour or an
 * escape of text stands around them. Leads (`Bearer`, `Basic`, `Authorization:`, an AWS key's
 * name, a URL's scheme) right after an escape; colour between a key and its separator or before
 * its value; `$…` values that only start like a variable; a short secret, found once, recurring
 * after an escape; the configured key after one. Each row failed before its fix.
 */
import { describe, expect, test } from "bun:test";
import { KINDS } from "../../fixtures/secrets-everywhere.ts";
import { TOKEN_RULES } from "./redact-rules.ts";
import { hintedRules, TOKEN_HINT, tokenPattern, tokenPatterns } from "./redact-token-pattern.ts";
import { createRedactor } from "./redact.ts";
import { createWithholder, WITHHELD } from "./withhold.ts";

/** What may stand right before a lead or a value: terminal escapes raw and written as text, escapes of text. */
const ESCAPES: [what: string, before: string][] = [
  ["an ANSI colour", "\x1b[31m"],
  ["a reset then bold", "\x1b[0m\x1b[1m"],
  ["a colour with parameters", "\x1b[1;38;5;208m"],
  ["an 8-bit CSI", "\u009b32m"],
  ["a colour as JSON text", String.raw`\u001b[31m`],
  ["a colour as JSON text escaped twice", String.raw`\\u001b[31m`],
  ["a colour as JS text", String.raw`\x1b[31m`],
  ["a colour as shell text (\\033)", String.raw`\033[1m`],
  ["a colour as shell text (\\e)", String.raw`\e[1m`],
  ["a JSON \\n", String.raw`\n`],
  ["a JSON \\t", String.raw`\t`],
  ["a JSON escaped quote", String.raw`\"`],
  ["a JSON \\u0022", String.raw`\u0022`],
  ["a percent escape", "%20"],
  ["a percent escape escaped twice", "%2520"],
];

const BEARER = "Zq8vLm3Rt7Wx2Kp9Hn4Bc6Df1Gj5Ys0Ta";
const BASIC = "dXNlcjpQYXNzdzByZDEyMw==";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE9";

/** [kind, the text after the escape, the secret in it]: every lead the token rules keep. */
const LEADS: [kind: string, text: string, secret: string][] = [
  ["bearer-token", `Bearer ${BEARER}`, BEARER],
  ["bearer-token", `bearer ${BEARER}`, BEARER],
  ["basic-auth", `Basic ${BASIC}`, BASIC],
  ["authorization", `Authorization: Token ${BEARER}`, BEARER],
  ["authorization", `Proxy-Authorization: ${BEARER}`, BEARER],
  ["aws-secret-key", `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`, AWS_SECRET],
  ["aws-secret-key", `secret_access_key = ${AWS_SECRET}`, AWS_SECRET],
  ["url-password", "https://deploy:pw9Xq7Lm2@host/x", "pw9Xq7Lm2"],
  ["url-password", "redis://:Sup3rRedis9x@cache:6379", "Sup3rRedis9x"],
];

describe("a lead right after an escape is a lead (issue 23, review 1)", () => {
  const rows = ESCAPES.flatMap(([what, before]) => LEADS.map(([kind, text, secret]) => [what, kind, text, before, secret] as const));
  test.each(rows)("after %s: the %s in %p is replaced", (_what, kind, text, before, secret) => {
    const input = `out: ${before}${text}\x1b[0m done`;
    const redactor = createRedactor();
    const out = redactor.redact(input);
    expect(out).toBe(input.replace(secret, `[REDACTED:${kind}:1]`));
    expect(redactor.restore(out)).toBe(input);
  });

  test("a lead glued to a word is still not one", () => {
    for (const text of ["xBearer Zq8vLm3Rt7Wx2Kp9Hn4Bc6Df1Gj5Ys0Ta", "myBasic dXNlcjpQYXNzdzByZDEyMw==", "9https://u:pw9Xq7Lm2@host"]) {
      expect(createRedactor().redact(text)).toBe(text);
    }
  });

  test("the literal prefilter passes every line of the secrets-everywhere table a rule matches, after every escape", () => {
    const matched = new Set<string>();
    for (const k of KINDS) {
      for (const [, before] of ESCAPES) {
        const text = `${before}${k.line(k.secret(k.kind))}`;
        for (const match of text.matchAll(tokenPattern())) {
          const rule = TOKEN_RULES.findIndex((_, i) => match.groups?.[`s${i}`] !== undefined);
          matched.add(TOKEN_RULES[rule]?.kind ?? "");
          expect({ text, passes: TOKEN_HINT.test(text) }).toEqual({ text, passes: true });
        }
      }
    }
    // Every token rule has a line there, so the end-to-end tests carry each through every written text.
    expect(TOKEN_RULES.map((rule) => rule.kind).filter((kind) => !matched.has(kind))).toEqual([]);
  });

  test("each rule's own hint is in every text it matches, so a text's pattern of hinted rules finds the same matches", () => {
    const patternFor = tokenPatterns();
    const matchesOf = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => [m.index, m[0], JSON.stringify(m.groups)]);
    let narrowed = 0;
    for (const k of KINDS) {
      for (const [, before] of ESCAPES) {
        const text = `${before}${k.line(k.secret(k.kind))} and sk- https://x gh${"p"}_ Basic eyJ`;
        for (const match of text.matchAll(tokenPattern())) {
          const rule = TOKEN_RULES.findIndex((_, i) => match.groups?.[`s${i}`] !== undefined);
          expect({ text, rule, hinted: (hintedRules(text) >> rule) & 1 }).toEqual({ text, rule, hinted: 1 });
        }
        const pattern = patternFor(text);
        if (pattern !== tokenPattern()) narrowed++;
        expect(matchesOf(text, pattern)).toEqual(matchesOf(text, tokenPattern()));
      }
    }
    expect(narrowed).toBeGreaterThan(0);
  });

  test("hints that overlap are each seen (npm_ and _test_ share an underscore)", () => {
    const stripe = TOKEN_RULES.findIndex((rule) => rule.hint.includes("_test_"));
    const npm = TOKEN_RULES.findIndex((rule) => rule.hint === "npm_");
    expect((hintedRules("npm_test_") >> stripe) & 1).toBe(1);
    expect((hintedRules("npm_test_") >> npm) & 1).toBe(1);
    expect(hintedRules("nothing to see here")).toBe(0);
  });

  test("a hint is still seen after others were found, also inside one found before (no rule's hint is searched for past its first)", () => {
    const rule = (hint: string) => TOKEN_RULES.findIndex((r) => r.hint.split("|").includes(hint));
    const CASES: [text: string, hints: string[]][] = [
      ["npm_ and later npm_test_", ["npm_", "_test_"]],
      [`${"sk-".repeat(1000)}ghp_`, ["sk-", "gh[pousr]_"]],
      ["eyJeyJ sk-sk- xoxapp AIzaAIza", ["eyJ", "sk-", "xox", "AIza"]],
      ["Basic earer ecret -----BEGIN uthorization ://", ["Basic", "earer", "ecret", "-----BEGIN", "uthorization", "://"]],
    ];
    for (const [text, hints] of CASES) {
      const want = hints.reduce((bits, hint) => {
        const i = rule(hint);
        expect({ hint, i: i >= 0 }).toEqual({ hint, i: true });
        // Every rule sharing the hint (three share sk-) is in.
        return TOKEN_RULES.reduce((b, r, j) => (r.hint === TOKEN_RULES[i]?.hint ? b | (1 << j) : b), bits);
      }, 0);
      expect({ text, rules: hintedRules(text) }).toEqual({ text, rules: want });
    }
  });
});

const VALUE = "Zq8vLm3Rt7Wx2Kp9";

/** [the line, the secret in it, its kind]: colour between a key, its separator and its value; escapes kept as they are. */
const COLOURED: [line: string, secret: string, kind: string][] = [
  [`\x1b[1mapi_key\x1b[0m: ${VALUE}`, VALUE, "api-key"],
  [`\x1b[1mapi_key\x1b[0m=${VALUE}`, VALUE, "api-key"],
  [`api_key\x1b[0m = ${VALUE}`, VALUE, "api-key"],
  [`\x1b[1mAPI_KEY\x1b[0m\x1b[2m=\x1b[0m${VALUE}`, VALUE, "api-key"],
  [`\x1b[36m"password"\x1b[0m: \x1b[32m"${VALUE}"\x1b[0m`, VALUE, "password"],
  [`"password": "\x1b[32m${VALUE}\x1b[0m"`, VALUE, "password"],
  [`\u009b1mtoken\u009b0m: ${VALUE}`, VALUE, "token"],
  [String.raw`\u001b[1mapi_key\u001b[0m: ${VALUE}`, VALUE, "api-key"],
  [String.raw`\u001b[1mapi_key\u001b[0m=${VALUE}`, VALUE, "api-key"],
  [String.raw`{\"api_key\u001b[0m\": \"${VALUE}\"}`, VALUE, "api-key"],
  [String.raw`{\"api_key\": \"\\u001b[32m${VALUE}\\u001b[0m\"}`, VALUE, "api-key"],
  [String.raw`\x1b[1msecret\x1b[0m := ${VALUE}`, VALUE, "secret"],
  [String.raw`\033[1mpassword\033[0m: ${VALUE}`, VALUE, "password"],
  [`--token \x1b[1m${VALUE}\x1b[0m`, VALUE, "token"],
  // A short secret right after the escape (review 4), and around it.
  ["token=\x1b[0mabc123XYZ", "abc123XYZ", "token"],
  ["token: \x1b[32mabc123XYZ\x1b[0m", "abc123XYZ", "token"],
  ["password=\\u001b[0mHunter2isMy", "Hunter2isMy", "password"],
  [`Bearer \x1b[0m${VALUE}XYZabc`, `${VALUE}XYZabc`, "bearer-token"],
  [`Authorization\x1b[0m: Bearer ${VALUE}XYZabc`, `${VALUE}XYZabc`, "bearer-token"],
  [`Authorization:\x1b[0m Token\x1b[0m ${VALUE}`, VALUE, "authorization"],
  [`AWS_SECRET_ACCESS_KEY\x1b[0m=\x1b[33m${AWS_SECRET}`, AWS_SECRET, "aws-secret-key"],
];

describe("colour between a key and its value (issue 23, reviews 2 and 4)", () => {
  test.each(COLOURED)("%p: the value alone is replaced", (line, secret, kind) => {
    const redactor = createRedactor();
    const out = redactor.redact(line);
    expect(out).toBe(line.replace(secret, `[REDACTED:${kind}:1]`));
    expect(redactor.restore(out)).toBe(line);
    // The secret found is the value, not the value with its colour: it is found again uncoloured.
    expect(redactor.redactKnown(`later: ${secret}.`)).toBe(`later: [REDACTED:${kind}:1].`);
  });

  test.each([
    ["a type annotation in colour", "\x1b[1mpassword\x1b[0m: \x1b[33mstring\x1b[0m"],
    ["a reference in colour", "\x1b[1mtoken\x1b[0m = \x1b[36mprocess.env.TOKEN\x1b[0m"],
    ["a variable in colour", "api_key\x1b[0m=\x1b[32m$OPENAI_API_KEY\x1b[0m"],
    ["prose after a coloured key", "\x1b[1mtoken\x1b[0m: \x1b[2mthe\x1b[0m one we keep"],
    ["a stand-in in colour", "\x1b[1mpassword\x1b[0m=\x1b[2m<your-password>\x1b[0m"],
  ])("%s is left alone", (_what, line) => {
    expect(createRedactor().redact(line)).toBe(line);
  });
});

describe("a run of up to 16 escapes between a key and its value is colour too", () => {
  // Tools reset and set several attributes in a row (\x1b[0m\x1b[1m\x1b[38;5;231m…); 5 to 8 leaked when four were the bound.
  const times = (n: number, sequence: string) => sequence.repeat(n);
  const rows = [5, 8, 16].flatMap((n) => [
    [n, `api_key${times(n, "\x1b[0m")}: ${VALUE}`, "api-key"],
    [n, `api_key: ${times(n, "\x1b[0m")}${VALUE}`, "api-key"],
    [n, `token=${times(n, "\x1b[1;38;5;208m")}${VALUE}`, "token"],
    [n, String.raw`{\"api_key${times(n, String.raw`\u001b[0m`)}\": \"${VALUE}\"}`, "api-key"],
    [n, `PASSWORD${times(n, "\u009b0m")}=${times(n, "\x1b[2m")}${VALUE}`, "password"],
  ]) as [number, string, string][];
  test.each(rows)("%d escapes: %p", (_n, line, kind) => {
    const redactor = createRedactor();
    const out = redactor.redact(line);
    expect(out).toBe(line.replace(VALUE, `[REDACTED:${kind}:1]`));
    expect(redactor.restore(out)).toBe(line);
  });
});

describe("a value is a variable only when its name reads as one (issue 23, review 3)", () => {
  test.each([
    ["password=$ecretPass9", "$ecretPass9"],
    ["password=$3cr3t!x", "$3cr3t!x"],
    ["PASSWORD=$Xk9mQ2vL", "$Xk9mQ2vL"],
    ['password: "$ecretPass9"', "$ecretPass9"],
    ["token=${x9Kq2Lm7}", "${x9Kq2Lm7}"],
    ["secret=%Xk9Qm2Lp%", "%Xk9Qm2Lp%"],
    ["password=$X9K2M4P7Q", "$X9K2M4P7Q"],
  ])("%p: %p is a secret", (line, secret) => {
    const redactor = createRedactor();
    const out = redactor.redact(line);
    expect(out).not.toContain(secret);
    expect(redactor.restore(out)).toBe(line);
  });

  test.each([
    "password=$HOME",
    "password=${API_KEY}",
    "token=$GITHUB_TOKEN",
    "token=$K8S_TOKEN",
    "api_key=$OPENAI_API_KEY2",
    "password=$dbPassword",
    "password: $db_password",
    "token=${env:GITHUB_TOKEN}",
    "token=${GITHUB_TOKEN:-none}",
    "token=${config.token}",
    "secret=%APPDATA%",
    "'password' => $request->input('password'),",
    "password=$this->password;",
  ])("%p is a reference", (line) => {
    expect(createRedactor().redact(line)).toBe(line);
  });
});

describe("found once, a secret is found again after an escape; so is the configured key (issue 23, review 4)", () => {
  const SHORT = "Hunter2x"; // shorter than 12: replaced only where it stands alone
  test.each(ESCAPES)("after %s", (_what, before) => {
    const redactor = createRedactor();
    redactor.redact(`password=${SHORT}`);
    expect(redactor.redactKnown(`said ${before}${SHORT} twice`)).toBe(`said ${before}[REDACTED:password:1] twice`);
    const withhold = createWithholder(["dummy1"]);
    expect(withhold(`key ${before}dummy1 here`)).toBe(`key ${before}${WITHHELD} here`);
  });

  test("inside a longer word neither is replaced", () => {
    const redactor = createRedactor();
    redactor.redact(`password=${SHORT}`);
    expect(redactor.redactKnown(`x${SHORT} ${SHORT}y`)).toBe(`x${SHORT} ${SHORT}y`);
    expect(createWithholder(["dummy1"])("xdummy1 dummy12")).toBe("xdummy1 dummy12");
  });
});
