/**
 * A token with a known prefix is found wherever it is glued in: after the last digit of a percent
 * escape (URL-encoded text, also encoded twice), after `_` or `-` (a name built around it), and
 * followed by `_`, `-` or a percent escape. After a letter or a digit that ends no escape it is
 * the inside of a longer word, and stays.
 */
import { describe, expect, test } from "bun:test";
import { GITHUB, OPENAI } from "../../fixtures/redact-samples.ts";
import { createRedactor } from "./redact.ts";
import { createSecretsGuard } from "./secrets-guard.ts";

const PROJECT = "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc";
const AWS = "AKIAQ3VX7LM2RT5ZW4NB";
const GOOGLE = "AIzaSyB3x9Lk2_Vm7Rt1Wz8Nc4Hb6Gd0Js5Pf-Q";
const SLACK = "xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2";
const STRIPE = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
const NPM = "npm_Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8";
const GITLAB = "glpat-Xk2_9vLm-Qr7TzWc1Nb4";
const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1XzQyIn0.Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6";
const ANTHROPIC = "sk-ant-api03-Zx9_Cv8-Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhAA";
const OPENROUTER = "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";

/** [where, text, the token in it, its kind]. */
const GLUED: [string, string, string, string][] = [
  ["a URL-encoded query", `https://app.example/cb?next=%2Fapi%3Fauth%3D${GITHUB}%26page%3D2`, GITHUB, "github-token"],
  ["an encoded Authorization header", `h=Authorization%3A%20Bearer%20${PROJECT}&x=1`, PROJECT, "openai-key"],
  ["encoded credentials in a URL", `git clone https://x-access-token%3A${GITHUB}%40github.com/o/r.git`, GITHUB, "github-token"],
  ["a query encoded twice", `redirect=%2Fcb%253Ftoken%253D${GITHUB}`, GITHUB, "github-token"],
  ["lower-case escapes", `q=%3fkey%3d${GOOGLE}`, GOOGLE, "google-api-key"],
  ["a tool's name", `exec_command_${GITHUB}`, GITHUB, "github-token"],
  ["a kebab-case name", `x-access-token-${GITHUB}`, GITHUB, "github-token"],
  ["a name after it too", `backup_${GITHUB}_old`, GITHUB, "github-token"],
  ["a dash after it", `${GITHUB}-rotated`, GITHUB, "github-token"],
  ["an AWS key id after an escape", `AWSAccessKeyId%3D${AWS}%26`, AWS, "aws-access-key-id"],
  ["a Slack token after an escape", `token%3D${SLACK}`, SLACK, "slack-token"],
  ["a Stripe key after _", `STRIPE_${STRIPE}`, STRIPE, "stripe-key"],
  ["an npm token after an escape", `_authToken%3D${NPM}%0A`, NPM, "npm-token"],
  ["a GitLab token after -", `ci-${GITLAB}`, GITLAB, "gitlab-token"],
  ["a JWT after an escape", `id_token%3D${JWT}`, JWT, "jwt"],
  ["an Anthropic key after _", `ANTHROPIC_${ANTHROPIC}`, ANTHROPIC, "anthropic-key"],
  ["an OpenRouter key after an escape", `key%22%3A%22${OPENROUTER}%22`, OPENROUTER, "openrouter-key"],
  ["an OpenAI key after -", `prod-${OPENAI}`, OPENAI, "openai-key"],
];

describe("a token glued into URL-encoded text or a name is still found", () => {
  test.each(GLUED)("%s", (_, text, token, kind) => {
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).toBe(text.replace(token, `[REDACTED:${kind}:1]`));
    expect(redactor.restore(out)).toBe(text);
  });

  test("a tool named after a token is sent under a placeholder", () => {
    const guard = createSecretsGuard({
      context: [
        {
          role: "assistant",
          content: [{ type: "toolCall", id: "c1", name: `exec_command_${GITHUB}`, arguments: { cmd: "ls" } }],
          provider: "openai",
          model: "gpt-5",
          stopReason: "toolUse",
          entryId: "e1",
        },
      ],
    });
    expect(JSON.stringify(guard.outgoing())).not.toContain(GITHUB.slice(4, 12));
    expect(guard.outgoing().context[0]?.content[0]).toMatchObject({ name: "exec_command_[REDACTED:github-token:1]" });
  });
});

describe("a prefix inside a longer word is not a token", () => {
  test.each([
    ["after a letter", `task${GITHUB}`],
    ["after a digit", `x9${GITHUB}`],
    ["after hex digits that are no escape", `abc3D${GITHUB}`],
    ["after a percent sign and one digit", `%3${GITHUB}`],
    ["a kebab-case name glued to sk-", "class btn_sk-button-primary-large-variant-outline"],
    ["an encoded kebab-case name", "q=%3Dsk-learn-docs-and-more-words-here"],
    ["a short run after ghp_", "exec_command_ghp_short"],
  ])("%s", (_, text) => {
    const redactor = createRedactor();
    expect(redactor.redact(text)).toBe(text);
    expect(redactor.count).toBe(0);
  });
});
