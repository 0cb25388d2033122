import { describe, expect, test } from "bun:test";
import { GITHUB, redacted } from "../../fixtures/redact-samples.ts";
import { createRedactor } from "./redact.ts";

describe("hostile input", () => {
  // 1 MB is enough to tell linear from quadratic: a pattern that rescans a 1 MB line from every
  // position takes some 5 * 10^11 steps (minutes, far past the test timeout); a linear scan, well
  // under a second.
  const MB = 1024 * 1024;
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
    ["escapes in an unclosed quoted value", 'token="\\\\'],
    ["soft stops in an unquoted value", "password=a,b;c&d|"],
    ["spaced assignments", "secret = "],
    ["JSON escapes before tokens", "\\nsk-\\nghp_"],
    ["base64 lines without an END line", "MIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc\n"],
    ["END lines after base64", "MIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc\n-----END PRIVATE KEY-----\n"],
    ["numbered base64 lines", "     1\tMIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc\n"],
    ["numbered END lines", "    12\tMIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc\n    13\t-----END PRIVATE KEY-----\n"],
    ["PEM headers before line prefixes", "-----BEGIN RSA PRIVATE KEY-----\n> | 12: "],
    ["aligned assignments without values", "password            =            "],
    ["JWT starts glued by - and _", "eyJ-eyJ_"],
    ["prefixes glued by _ and -", "_ghp_-sk-_AIza-npm_"],
    ["prefixes after percent escapes", "%3DeyJ%3Dghp_%253Dsk-"],
    ["type annotations without a value", "password: Optional[str] | None "],
    ["annotations that never reach =", "token: a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q "],
  ];
  test.each(shapes)("a 1 MB line of %s completes", (_name, unit) => {
    const line = unit.repeat(Math.ceil(MB / unit.length));
    const redactor = createRedactor();
    const text = `${line} token=${GITHUB}`;
    const out = redactor.redact(text);
    expect(out).not.toContain(GITHUB);
    expect(redactor.restore(out)).toBe(text);
  });

  test("a 1 MB line of ordinary text comes back unchanged", () => {
    const line = "const total = rows.reduce((sum, row) => sum + row.amount, 0); // password: string\t".repeat(MB / 80);
    expect(redacted(line)).toBe(line);
  });
});
