import { describe, expect, test } from "bun:test";
import { GITHUB, redacted } from "../../fixtures/redact-samples.ts";
import { createRedactor } from "./redact.ts";

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
