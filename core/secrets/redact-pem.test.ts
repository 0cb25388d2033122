import { describe, expect, test } from "bun:test";
import { createRedactor } from "./redact.ts";
import { ASSIGNMENT_HINT } from "./redact-assignments.ts";
import { KEY_TAIL_HINT } from "./redact-pem.ts";

const BODY = [
  "MIIEowIBAAKCAQEAx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5PfZx9Cv8Bn7Ml6Kj5Hg4Fd3Sa",
  "Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8Op7As6Df5GhJk4Lz3Xc2Vb1Nm0Qw9E",
  "Ty9Ui8Op7As6Df5Gh==",
];
const END = "-----END RSA PRIVATE KEY-----";

/** [what, text, the part that is the key's tail]. */
const TAILS: [what: string, text: string, tail: string][] = [
  ["base64 lines and the END line", `${BODY.join("\n")}\n${END}`, `${BODY.join("\n")}\n${END}`],
  ["after other output", `$ tail -n 3 id_rsa\n${BODY.join("\n")}\n${END}\nok`, `${BODY.join("\n")}\n${END}`],
  ["with CRLF line ends", `${BODY.join("\r\n")}\r\n${END}`, `${BODY.join("\r\n")}\r\n${END}`],
  ["inside JSON text", `{"content":"${BODY.join("\\n")}\\n${END}\\n"}`, `${BODY.join("\\n")}\\n${END}`],
  ["cut in the middle of a line", `…cut…${BODY[1]}\n${BODY[2]}\n${END}`, `${BODY[1]}\n${BODY[2]}\n${END}`],
  [
    "an OpenSSH key",
    `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`,
    `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----`,
  ],
  // Lines flattened into one (`echo $KEY` unquoted, a log, a folder name): blanks stand for the breaks.
  ["flattened by spaces", `$ echo $KEY\n${BODY.join(" ")} ${END}`, `${BODY.join(" ")} ${END}`],
  ["flattened, after a word on its line", `key.pem ${BODY.join(" ")} ${END} ok`, `${BODY.join(" ")} ${END}`],
  ["flattened by tabs and runs of blanks", `${BODY.join("\t  ")}\t${END}`, `${BODY.join("\t  ")}\t${END}`],
  ["flattened, inside JSON text", `{"cwd":"/home/dev/old key ${BODY.join(" ")} ${END}"}`, `${BODY.join(" ")} ${END}`],
  ["flattened, a long last line", `${BODY.slice(0, 2).join(" ")} ${END}`, `${BODY.slice(0, 2).join(" ")} ${END}`],
];

describe("a private key whose BEGIN line is missing", () => {
  test.each(TAILS)("%s", (_what, text, tail) => {
    const redactor = createRedactor();
    const out = redactor.redact(text);
    expect(out).toBe(text.replace(tail, "[REDACTED:private-key:1]"));
    expect(redactor.restore(out)).toBe(text);
  });

  test("prose before a flattened key on its line is kept", () => {
    const text = `the key is ${BODY.slice(0, 2).join(" ")} ${END}`;
    expect(createRedactor().redact(text)).toBe("the key is [REDACTED:private-key:1]");
  });

  test("a prose line above the key is kept", () => {
    const text = `Here is the end of it:\n${BODY[2]}AAAAAAAA\n${END}`;
    expect(createRedactor().redact(text)).toBe("Here is the end of it:\n[REDACTED:private-key:1]");
  });

  test.each([
    ["a lone END line", `const footer = "${END}";`],
    ["an END line after a short word", `ok\n${END}`],
    ["an END line after a short word on its line", `ok ${END}`],
    ["an END line after prose on its line", `Your file must end with the ${END}`],
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

describe("a private key with a prefix on each line", () => {
  const BEGIN = "-----BEGIN RSA PRIVATE KEY-----";
  const LINES = [BEGIN, ...BODY, END];
  /** [how the lines are shown, the prefix of line i (0-based), what ends each line]. */
  type Style = [name: string, prefix: (i: number) => string, suffix: string, newline: string];
  const CAT_N: Style = ["cat -n", (i) => `${String(i + 1).padStart(6)}\t`, "", "\n"];
  const STYLES: Style[] = [
    CAT_N,
    ["grep -n", (i) => `${i + 1}:`, "", "\n"],
    ["nl -ba with a wide number", (i) => `${String(i + 100).padStart(6)}  `, "", "\n"],
    ["indented four spaces (a markdown code block)", () => "    ", "", "\n"],
    ["indented with a tab", () => "\t", "", "\n"],
    ["a markdown quote", () => "> ", "", "\n"],
    ["a nested quote", () => "> > ", "", "\n"],
    ["table pipes", () => "| ", " |", "\n"],
    ["cat -n with CRLF", (i) => `${String(i + 1).padStart(6)}\t`, "", "\r\n"],
    ["cat -n inside JSON text", (i) => `${String(i + 1).padStart(6)}\\t`, "", "\\n"],
  ];

  function show(lines: readonly string[], [, prefix, suffix, newline]: Style, first = 0): string {
    return lines.map((line, i) => `${prefix(i + first)}${line}${suffix}`).join(newline);
  }

  test.each(STYLES)("%s: the whole key is one placeholder, no line of it left", (name, prefix, suffix, newline) => {
    const style: Style = [name, prefix, suffix, newline];
    const text = `$ cat -n id_rsa${newline}${show(LINES, style)}${newline}done`;
    const redactor = createRedactor();
    const out = redactor.redact(text);
    for (const line of BODY) expect(out).not.toContain(line);
    expect(out.match(/\[REDACTED:private-key:\d+\]/g)).toEqual(["[REDACTED:private-key:1]"]);
    expect(redactor.restore(out)).toBe(text);
  });

  test.each(STYLES)("%s: a tail without its BEGIN line is one placeholder too", (name, prefix, suffix, newline) => {
    const style: Style = [name, prefix, suffix, newline];
    const text = `$ tail -n 3 id_rsa${newline}${show([...BODY, END], style, 1)}${newline}done`;
    const redactor = createRedactor();
    const out = redactor.redact(text);
    for (const line of BODY) expect(out).not.toContain(line);
    expect(out.match(/\[REDACTED:private-key:\d+\]/g)).toEqual(["[REDACTED:private-key:1]"]);
    expect(redactor.restore(out)).toBe(text);
  });

  test("numbered prose around a numbered key stays", () => {
    const text = `     1\tThe key:\n${show(LINES, CAT_N, 1)}\n     7\tUse it with care.`;
    const out = createRedactor().redact(text);
    expect(out).toStartWith("     1\tThe key:\n     2\t[REDACTED:private-key:1]");
    expect(out).toEndWith("\n     7\tUse it with care.");
  });

  test("every text with a key's END line holds an assignment's key word, the one prefilter redact runs before looking for tails", () => {
    expect(ASSIGNMENT_HINT.test(KEY_TAIL_HINT)).toBe(true);
    for (const kind of ["RSA ", "OPENSSH ", "EC ", ""]) expect(ASSIGNMENT_HINT.test(`-----END ${kind}PRIVATE KEY-----`)).toBe(true);
  });
});
