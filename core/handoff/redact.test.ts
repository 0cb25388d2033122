import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { PLANTED_SECRETS, SECRETS_SESSION } from "../../fixtures/secrets.ts";
import { buildRequest } from "../llm/request.ts";
import { analyzeBranch } from "../session/analyze.ts";
import { parseSession } from "../session/parse.ts";
import { createRedactor, redactValue, type Redactor } from "./redact.ts";

// Made-up values in each format's shape (none belongs to a real account).
const OPENAI = "sk-3hT9qLm2Vx8RkP4nZc7Wd1Yf6Gb0Js5Ea2Nu8Hi4Ko7Lr9M";
const GITHUB = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";
const GITHUB_2 = "ghp_9Zx8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Qw0Er9Ty8Ui";

/** Redacts with a fresh redactor and returns the text. */
function redacted(text: string): string {
  return createRedactor().redact(text);
}

describe("createRedactor finds each kind of secret", () => {
  const cases: [kind: string, text: string, secret: string][] = [
    ["openai-key", `OPENAI_API_KEY=${OPENAI}`, OPENAI],
    ["openai-key", "key: sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc", "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc"],
    ["anthropic-key", "use sk-ant-api03-Zx9_Cv8-Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhAA now", "sk-ant-api03-Zx9_Cv8-Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhAA"],
    ["github-token", `git clone https://x:${GITHUB}@github.com/o/r`, GITHUB],
    ["github-token", "gho_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue", "gho_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
    ["github-token", "(ghu_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue)", "ghu_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
    ["github-token", "ghs_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue.", "ghs_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
    ["github-token", "'ghr_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue'", "ghr_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
    [
      "github-token",
      "github_pat_11AbCdEfG0123456789xyZ_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXy",
      "github_pat_11AbCdEfG0123456789xyZ_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXy",
    ],
    ["gitlab-token", "PRIVATE-TOKEN: glpat-Xk2_9vLm-Qr7TzWc1Nb4", "glpat-Xk2_9vLm-Qr7TzWc1Nb4"],
    ["aws-access-key-id", "aws_access_key_id = AKIAQ3VX7LM2RT5ZW4NB", "AKIAQ3VX7LM2RT5ZW4NB"],
    ["aws-access-key-id", '"AccessKeyId": "ASIAZ7KQ2WX5VL3MN6TR"', "ASIAZ7KQ2WX5VL3MN6TR"],
    ["aws-secret-key", "aws_secret_access_key = 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", "q8Vz2Lk7Xm3Rt9Wc1Nb4Hd6Gf0Js5Ya8Pe2Ui7To"],
    ["aws-secret-key", "AWS_SECRET_ACCESS_KEY=q8Vz2Lk7Xm3Rt9Wc1Nb4Hd6Gf0Js5Ya8Pe2Ui/+o", "q8Vz2Lk7Xm3Rt9Wc1Nb4Hd6Gf0Js5Ya8Pe2Ui/+o"],
    ["aws-secret-key", '{"SecretAccessKey": "q8Vz2Lk7Xm3Rt9Wc1Nb4Hd6Gf0Js5Ya8Pe2Ui7To"}', "q8Vz2Lk7Xm3Rt9Wc1Nb4Hd6Gf0Js5Ya8Pe2Ui7To"],
    ["google-api-key", "?key=AIzaSyB3x9Lk2_Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf-Q&q=1", "AIzaSyB3x9Lk2_Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf-Q"],
    ["slack-token", "SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2", "xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2"],
    ["slack-webhook", "POST https://hooks.slack.com/services/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 ok", "https://hooks.slack.com/services/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"],
    ["stripe-key", "Stripe.apiKey = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"],
    ["stripe-key", "sk_test_51Hx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf", "sk_test_51Hx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf"],
    ["stripe-key", "rk_live_51Hx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf", "rk_live_51Hx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf"],
    ["stripe-key", "pk_live_51Hx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf", "pk_live_51Hx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf"],
    [
      "jwt",
      "cookie session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1XzQyIn0.Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6; path=/",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1XzQyIn0.Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6",
    ],
    ["bearer-token", "-H 'Authorization: Bearer Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0'", "Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0"],
    ["basic-auth", "Authorization: Basic YWRtaW46czNjcjN0LXB3", "YWRtaW46czNjcjN0LXB3"],
    ["url-password", "DATABASE_URL=postgres://app:Tr0ub4dor-3@db:5432/app", "Tr0ub4dor-3"],
    ["npm-token", "//registry.npmjs.org/:_authToken=npm_Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8", "npm_Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8"],
    ["password", "DB_PASSWORD=hunter2-staging", "hunter2-staging"],
    ["password", 'config = {"password": "c0rrect horse battery"}', "c0rrect horse battery"],
    ["password", "  passwd: s3cr3t-value", "s3cr3t-value"],
    ["password", "mysql --password Pa55w0rd! -h db", "Pa55w0rd!"],
    ["password", "psql --password='Pa55w0rd'", "Pa55w0rd"],
    ["password", "PGPASSWORD=Pa55w0rd psql", "Pa55w0rd"],
    ["token", "SENTRY_AUTH_TOKEN=sntrys_a1b2c3d4e5", "sntrys_a1b2c3d4e5"],
    ["token", "./deploy --token=a1b2c3d4e5f6", "a1b2c3d4e5f6"],
    ["token", 'const accessToken = "a1b2c3d4e5f6g7";', "a1b2c3d4e5f6g7"],
    ["secret", "JWT_SECRET='long random 42 value'", "long random 42 value"],
    ["secret", "client_secret: 9f8e7d6c5b4a", "9f8e7d6c5b4a"],
    ["api-key", "api_key=9f8e7d6c5b4a3210", "9f8e7d6c5b4a3210"],
    ["api-key", "apikey: 9f8e7d6c5b4a3210", "9f8e7d6c5b4a3210"],
    ["api-key", '{\\"apiKey\\":\\"9f8e7d6c5b4a3210\\"}', "9f8e7d6c5b4a3210"],
    [
      "private-key",
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf\nZx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9==\n-----END RSA PRIVATE KEY-----",
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf\nZx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9==\n-----END RSA PRIVATE KEY-----",
    ],
  ];

  test.each(cases)("%s in %p", (kind, text, secret) => {
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).not.toContain(secret);
    expect(out).toBe(text.replace(secret, `[REDACTED:${kind}:1]`));
    expect(redactor.kinds).toEqual({ [kind]: 1 });
    expect(redactor.restore(out)).toBe(text);
  });

  test("a private key cut short is still redacted, up to where its base64 stops", () => {
    const text = '{"content":"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\nBKcwggSjAgEAAoIBAQC7","next":1}';
    expect(redacted(text)).toBe('{"content":"[REDACTED:private-key:1]","next":1}');
  });

  test("a token inside a URL or after Bearer keeps its provider kind", () => {
    expect(redacted(`git push https://oauth2:glpat-Xk2_9vLm-Qr7TzWc1Nb4@gitlab.com/a/b.git`)).toBe(
      "git push https://oauth2:[REDACTED:gitlab-token:1]@gitlab.com/a/b.git",
    );
    expect(redacted(`Authorization: Bearer ${GITHUB}`)).toBe("Authorization: Bearer [REDACTED:github-token:1]");
  });
});

describe("createRedactor leaves ordinary code and text alone", () => {
  const unchanged = [
    "interface Login { password: string; token?: string }",
    "function login(password: string, token: Token): void {}",
    "const token = getToken();",
    "const token = await fetchToken(user);",
    "password = os.environ['DB_PASSWORD']",
    "const apiKey = process.env.OPENAI_API_KEY ?? config.apiKey;",
    "password = user_input",
    "{ password: hashedPassword, token: refreshToken }",
    "api_key = ${API_KEY}",
    'password: "${DB_PASSWORD}"',
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "password=xxx token=xxxxxxxx secret=******** api_key=...",
    "API_KEY=<your-api-key> TOKEN=your_token_here PASSWORD=changeme",
    "password: null, token: undefined, secret: true",
    "max_tokens: 4096, tokens = 5, maxTokens: 100, total_tokens=1280",
    "--password-file ./pw.txt --token-stdin --password --verbose",
    "commit 3f0c9a52c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6 (HEAD -> main)",
    '{"id":"3f0c9a52-8d1e-4b7a-9c61-2f4e5d6a7b80","parentId":"a0000001","toolCallId":"call_1"}',
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The password policy requires: twelve characters.",
    'const header = "-----BEGIN PRIVATE KEY-----";',
    "WWW-Authenticate: Basic realm=\"api\"",
    "see sk-learn docs and task-runner-skeleton-component-name",
    "if token == expected_token:",
  ];
  test.each(unchanged)("%p", (text) => {
    const redactor = createRedactor();
    expect(redactor.redact(text)).toBe(text);
    expect(redactor.count).toBe(0);
  });
});

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

  test("placeholderFor shares numbering with what redact finds", () => {
    const redactor = createRedactor();
    expect(redactor.placeholderFor("hunter22", "password")).toBe("[REDACTED:password:1]");
    expect(redactor.redact("PASSWORD=hunter22 PASSWORD=other-42")).toBe("PASSWORD=[REDACTED:password:1] PASSWORD=[REDACTED:password:2]");
  });
});

describe("hostile input", () => {
  const MB5 = 5 * 1024 * 1024;
  // Shapes that make a careless pattern rescan the line from every position.
  const shapes: [name: string, unit: string][] = [
    ["one long word", "a"],
    ["JWT starts", "eyJ"],
    ["PEM headers without an end", "-----BEGIN RSA PRIVATE KEY-----"],
    ["assignments without values", "password="],
    ["flags without values", "--password --token "],
    ["opening quotes", '"password": "'],
    ["URL schemes", "https://a:"],
    ["provider prefixes", "sk-proj-ghp_AKIAxoxb-"],
    ["escaped quotes", '\\"'],
    ["identifier pieces", "a_"],
  ];
  test.each(shapes)("a 5 MB line of %s completes", (_name, unit) => {
    const line = unit.repeat(Math.ceil(MB5 / unit.length));
    const redactor = createRedactor();
    const out = redactor.redact(`${line} token=${GITHUB}`);
    expect(out.endsWith("token=[REDACTED:github-token:1]")).toBe(true);
  });

  test("a 5 MB line of ordinary text comes back unchanged", () => {
    const line = "const total = rows.reduce((sum, row) => sum + row.amount, 0); // password: string\t".repeat(MB5 / 80);
    expect(redacted(line)).toBe(line);
  });
});

describe("redactValue", () => {
  test("redacts every string in a request body and leaves the input untouched", () => {
    const body = {
      model: "gpt-5",
      messages: [
        { role: "user", content: `my key is ${OPENAI}` },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command: `export TOKEN=${GITHUB}` }) } }] },
        { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: `DB_PASSWORD=hunter22` }] },
      ],
      stream: true,
      max_tokens: 1000,
    };
    const before = structuredClone(body);
    const redactor = createRedactor();
    const out = redactValue(body, redactor);
    expect(body).toEqual(before);
    expect(JSON.stringify(out)).toBe(
      JSON.stringify(before)
        .replace(OPENAI, "[REDACTED:openai-key:1]")
        .replace(GITHUB, "[REDACTED:github-token:1]")
        .replace("hunter22", "[REDACTED:password:1]"),
    );
  });

  test("numbers placeholders in document order", () => {
    const out = redactValue({ messages: [{ content: [{ text: `first ${GITHUB}` }] }, { content: `second ${GITHUB_2}` }] }, createRedactor());
    expect(out).toEqual({ messages: [{ content: [{ text: "first [REDACTED:github-token:1]" }] }, { content: "second [REDACTED:github-token:2]" }] });
  });

  test("a string under a key that names a secret is redacted whole", () => {
    const out = redactValue({ apiKey: "plain words 12", password: "${PW}", db: { client_secret: "abc 123" }, max_tokens: "4096" }, createRedactor());
    expect(out).toEqual({ apiKey: "[REDACTED:api-key:1]", password: "${PW}", db: { client_secret: "[REDACTED:secret:1]" }, max_tokens: "4096" });
  });

  test("image data URLs pass through untouched", () => {
    const url = "data:image/png;base64,iVBORw0KGgo/AKIAQ3VX7LM2RT5ZW4NB/password=abc123";
    expect(redactValue([{ type: "image_url", image_url: { url } }], createRedactor())).toEqual([{ type: "image_url", image_url: { url } }]);
  });

  test("keeps numbers, booleans, null, key order and a __proto__ key as data", () => {
    const input: unknown = JSON.parse('{"b":1,"a":[true,null,2.5],"__proto__":{"x":"y"}}');
    const out = redactValue(input, createRedactor());
    expect(JSON.stringify(out)).toBe('{"b":1,"a":[true,null,2.5],"__proto__":{"x":"y"}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  test("walks 200,000 levels of nesting without overflowing the stack", () => {
    const depth = 200_000;
    const deep: unknown = JSON.parse(`${"[".repeat(depth)}"token=${GITHUB}"${"]".repeat(depth)}`);
    let node: unknown = redactValue(deep, createRedactor());
    for (let i = 0; i < depth; i++) node = Array.isArray(node) ? node[0] : undefined;
    expect(node).toBe("token=[REDACTED:github-token:1]");
  });
});

describe("the planted-secrets fixture", () => {
  const session = parseSession(readFileSync(SECRETS_SESSION, "utf8"), SECRETS_SESSION);
  const analysis = analyzeBranch(session);

  /** Every string in a value, however deep. */
  function strings(value: unknown): string[] {
    if (typeof value === "string") return [value];
    if (typeof value !== "object" || value === null) return [];
    return Object.values(value).flatMap(strings);
  }

  function leaks(value: unknown): string[] {
    const all = strings(value).join("\n");
    return PLANTED_SECRETS.filter((s) => all.includes(s.value) || all.includes(JSON.stringify(s.value).slice(1, -1))).map((s) => s.kind);
  }

  test("every planted secret reaches the context unredacted (so the fixture tests something)", () => {
    expect(analysis.context.length).toBeGreaterThan(10);
    expect(leaks(analysis.context).length).toBe(PLANTED_SECRETS.length);
  });

  test("none is left in the redacted request body, and each gets its expected kind", () => {
    const request = buildRequest({ model: "m", systemPrompt: "s", context: analysis.context, instruction: "hand off" });
    const redactor: Redactor = createRedactor();
    const out = redactValue(request, redactor);
    expect(leaks(out)).toEqual([]);
    const expected: Record<string, number> = {};
    for (const { kind } of PLANTED_SECRETS) expected[kind] = (expected[kind] ?? 0) + 1;
    expect(redactor.kinds).toEqual(expected);
    expect(redactor.count).toBe(PLANTED_SECRETS.length);
    // Restoring every string gives back the request as it was.
    expect(strings(out).map((s) => redactor.restore(s))).toEqual(strings(request));
  });

  test("redacting the context messages themselves (tool arguments as objects) also leaves nothing", () => {
    expect(leaks(redactValue(analysis.context, createRedactor()))).toEqual([]);
  });
});
