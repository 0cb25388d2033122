import { describe, expect, test } from "bun:test";
import { createRedactor } from "./redact.ts";

const BODY = ["MIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5PfZx9Cv8Bn7Ml6Kj5Hg4Fd3Sa", "Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhJk4Lz3Xc2Vb1Nm0Qw9E", "Ty9Ui8Op7As6Df5Gh=="];
const END = "-----END RSA PRIVATE KEY-----";

/** [what, text, the part that is the key's tail]. */
const TAILS: [what: string, text: string, tail: string][] = [
  ["base64 lines and the END line", `${BODY.join("\n")}\n${END}`, `${BODY.join("\n")}\n${END}`],
  ["after other output", `$ tail -n 3 id_rsa\n${BODY.join("\n")}\n${END}\nok`, `${BODY.join("\n")}\n${END}`],
  ["with CRLF line ends", `${BODY.join("\r\n")}\r\n${END}`, `${BODY.join("\r\n")}\r\n${END}`],
  ["inside JSON text", `{"content":"${BODY.join("\\n")}\\n${END}\\n"}`, `${BODY.join("\\n")}\\n${END}`],
  ["cut in the middle of a line", `…cut…${BODY[1]}\n${BODY[2]}\n${END}`, `${BODY[1]}\n${BODY[2]}\n${END}`],
  ["an OpenSSH key", `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`, `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`],
];

describe("a private key whose BEGIN line is missing", () => {
  test.each(TAILS)("%s", (_what, text, tail) => {
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).toBe(text.replace(tail, "[REDACTED:private-key:1]"));
    expect(redactor.restore(out)).toBe(text);
  });

  test("a prose line above the key is kept", () => {
    const text = `Here is the end of it:\n${BODY[2]}AAAAAAAA\n${END}`;
    expect(createRedactor().redact(text)).toBe("Here is the end of it:\n[REDACTED:private-key:1]");
  });

  test.each([
    ["a lone END line", `const footer = "${END}";`],
    ["an END line after a short word", `ok\n${END}`],
  ])("%s is not a key", (_what, text) => {
    expect(createRedactor().redact(text)).toBe(text);
  });

  test("a whole key is still one placeholder", () => {
    const key = `-----BEGIN RSA PRIVATE KEY-----\n${BODY.join("\n")}\n${END}`;
    expect(createRedactor().redact(`key:\n${key}\n`)).toBe("key:\n[REDACTED:private-key:1]\n");
  });

  test("5 MB of base64 lines and END lines completes", () => {
    const unit = `${BODY[0]}\n${END}\n`;
    const text = unit.repeat(Math.ceil((5 * 1024 * 1024) / unit.length));
    const out = createRedactor().redact(text);
    expect(out).not.toContain("MIIEow");
  });
});
