import { describe, expect, test } from "bun:test";
import { GITHUB, OPENAI, redacted } from "../../fixtures/redact-samples.ts";
import { createRedactor } from "./redact.ts";

describe("createRedactor finds each kind of secret", () => {
  const cases: [kind: string, text: string, secret: string][] = [
    ["openai-key", `OPENAI_API_KEY=${OPENAI}`, OPENAI],
    [
      "openai-key",
      "key: sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc",
      "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc",
    ],
    [
      "openai-key",
      "OPENAI_API_KEY=sk-None-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5Gh",
      "sk-None-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5Gh",
    ],
    ["openai-key", "key sk-svcacct-Zx9Cv8Bn7Ml6Kj5Hg4Fd3S in it", "sk-svcacct-Zx9Cv8Bn7Ml6Kj5Hg4Fd3S"],
    ["openai-key", "deepseek sk-8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c", "sk-8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c"],
    [
      "openrouter-key",
      "OPENROUTER_API_KEY=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",
      "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",
    ],
    ["github-token", 'JSON text {"a":"x\\nghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"}', "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue"],
    ["aws-access-key-id", '"x\\tAKIAQ3VX7LM2RT5ZW4NB"', "AKIAQ3VX7LM2RT5ZW4NB"],
    [
      "anthropic-key",
      "use sk-ant-api03-Zx9_Cv8-Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhAA now",
      "sk-ant-api03-Zx9_Cv8-Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhAA",
    ],
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
    [
      "slack-token",
      "SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2",
      "xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2",
    ],
    [
      "slack-webhook",
      "POST https://hooks.slack.com/services/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 ok",
      "https://hooks.slack.com/services/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",
    ],
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
    ["authorization", "-H 'Authorization: Token 0123456789abcdef0123'", "0123456789abcdef0123"],
    ["authorization", "Authorization: token 9f8e7d6c5b4a39f8e7d6", "9f8e7d6c5b4a39f8e7d6"],
    ["authorization", "authorization: ApiKey Zx9Cv8Bn7Ml6Kj5Hg4Fd3", "Zx9Cv8Bn7Ml6Kj5Hg4Fd3"],
    ["authorization", "Proxy-Authorization: Digest-ish 4Rt8Wz1Qp0Lm3Nb6", "4Rt8Wz1Qp0Lm3Nb6"],
    ["authorization", "AUTHORIZATION=7c2f9e1a8b3d4c5e6f70", "7c2f9e1a8b3d4c5e6f70"],
    ["authorization", '{\\"Authorization\\":\\"Token 0123456789abcdef0123\\"}', "0123456789abcdef0123"],
    ["authorization", "Authorization: ZxCvBnMlKjHgFdSaQwErTyUiOp", "ZxCvBnMlKjHgFdSaQwErTyUiOp"],
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
    "api_key = ${API_KEY}",
    'password: "${DB_PASSWORD}"',
    "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}",
    "password=xxx token=xxxxxxxx secret=******** api_key=...",
    "API_KEY=<your-api-key> TOKEN=your_token_here PASSWORD=changeme",
    "password: null, token: undefined, secret: true",
    "headers: { Authorization: authHeader }",
    "req.headers.authorization = process.env.AUTH_HEADER",
    "Authorization: Token ${API_TOKEN}",
    "the Authorization: header carries the credential",
    "max_tokens: 4096, tokens = 5, maxTokens: 100, total_tokens=1280",
    "--password-file ./pw.txt --token-stdin --password --verbose",
    "commit 3f0c9a52c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6 (HEAD -> main)",
    '{"id":"3f0c9a52-8d1e-4b7a-9c61-2f4e5d6a7b80","parentId":"a0000001","toolCallId":"call_1"}',
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "The password policy requires: twelve characters.",
    'const header = "-----BEGIN PRIVATE KEY-----";',
    'WWW-Authenticate: Basic realm="api"',
    "see sk-learn docs and task-runner-skeleton-component-name",
    "class sk-button-primary-large-variant-outline",
    "if token == expected_token:",
  ];
  test.each(unchanged)("%p", (text) => {
    const redactor = createRedactor();
    expect(redactor.redact(text)).toBe(text);
    expect(redactor.count).toBe(0);
  });
});
