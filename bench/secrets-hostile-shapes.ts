/**
 * More hostile inputs for secrets-differential.ts, aimed at the prefilters that decide before the
 * full patterns that a text cannot hold a secret (heldRules, mayHoldAssignment, the grouped hint
 * search, keepsJson, the guard's memos): the literal a rule holds besides its hint missed by one
 * escape (`%40` for `@`, `.eyJ` split, `PRIVATE\x1b[0m KEY`, escapes inside `sk-`'s 20 characters,
 * colour after `Authorization`), key words and their values across escapes and flags, more than 64
 * hints before a token, very long lines, CRLF; tool arguments of printable JSON holding the key
 * escaped up to three times; facts that repeat their strings, requests made of the context's own.
 */
import type { ChatRequest } from "../core/llm/types.ts";
import type { ContextMessage } from "../core/session/messages.ts";
import type { SessionFacts } from "../core/session/facts.ts";
import type { hostileInputs } from "./secrets-hostile-inputs.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const B64URL = `${ALNUM}_-`;
/** What may stand between two characters a rule needs next to each other, or after a key word. */
const BETWEEN = ["\x1b[0m", "\x1b[1;31m", "\\u001b[0m", "\\\\u001b[32m", "\\x1b[1m", "\\033[0m", "\\e[K", "\u009b1m", "\x1bM"];
const INVISIBLE = ["\u200b", "\u00ad", "\ufeff", "\u202e", "\x00", "\x7f"];
const TEXT_ESCAPES = ["\\n", "\\t", "\\r", "\\\\n", "\r", "%20", "%3D", "%253D", "\\u0020", "\\x3d"];

export function hostileShapes(inputs: ReturnType<typeof hostileInputs>) {
  const { random, pick, chance, run, disguise, hostileText, argumentsValue } = inputs;
  const gap = () => pick([...BETWEEN, ...INVISIBLE, ...TEXT_ESCAPES, "", "", ""]);
  /** `text` with an escape or an invisible character at one place, now and then. */
  const split = (text: string) => {
    if (!chance(0.4)) return text;
    const at = Math.floor(random() * (text.length + 1));
    return text.slice(0, at) + gap() + text.slice(at);
  };

  /** Texts whose hints are those of rules that hold a second literal, that literal there, escaped or missed. */
  function heldShape(): string {
    return pick<() => string>([
      () => split(`sk-${run(B64URL, 17, 40)}`),
      () =>
        `${pick(["sk-", "\\u0073k-", "s\\u006b-", "sk\\u002d", "sk%2D", "SK-", "sk-ant-", "sk-or-v1-", "sk-proj-"])}${split(run(B64URL, 18, 70))}`,
      () =>
        `${pick(["https", "postgres", "redis", "x"])}://${run(ALNUM, 0, 8)}:${run(`${ALNUM}!$`, 1, 20)}${pick(["@", "%40", "\\u0040", "\\x40", "&#64;", "\uff20", "@@", "", "\x1b[0m@"])}${pick(["host", "h.example/p"])}`,
      () =>
        `eyJ${run(B64URL, 5, 20)}${pick([".", "\\u002e", "%2E", ".\x1b[0m", "", ". "])}${pick(["eyJ", "ey\x1b[0mJ", "e\\u0079J", "EYJ", "eyj"])}${run(B64URL, 5, 20)}.${run(B64URL, 0, 20)}`,
      () =>
        `-----BEGIN ${pick(["", "RSA ", "OPENSSH "])}${pick(["PRIVATE KEY", "PRIVATE\x1b[0m KEY", "PRIVATE  KEY", "private key", "PRIVATE\\u0020KEY", "PRIVATE\u200bKEY"])}-----${pick(["\n", "\\n", "\r\n", "\\r\\n", "\n12: "])}${run(`${ALNUM}+/`, 16, 80)}${pick(["\n-----END PRIVATE KEY-----", "", "\\n-----END RSA PRIVATE KEY-----"])}`,
      () =>
        `${pick(["Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "AuthoriZation"])}${pick([...BETWEEN, "", " ", "  ", "\t", '"', "'", '\\"', '\\\\"', " \x1b[0m"])}${pick(["", " ", "\t", "\u200b"])}${pick([":", "=", ": ", " = ", "\x1b[32m:", "", " header"])}${pick(["", " ", "\x1b[32m", '"', "'", "\\u001b[1m"])}${pick(["", "Token ", "token\x1b[0m ", "Bearer "])}${split(run(`${ALNUM}._~+/-`, 10, 40))}`,
    ])();
  }

  /** Key words and values, the separator or the value across an escape; flags; near misses. */
  function assignmentShape(): string {
    const key = pick([
      "password",
      "passwd",
      "passphrase",
      "pass",
      "pwd",
      "db.pwd",
      "x_pwd",
      "secret",
      "client_secret",
      "token",
      "tokens",
      "api_key",
      "apiKey",
      "ACCESS-KEY",
      "signing_key",
      "PRIVATE_KEY",
      "keys",
      "Passwords",
      "authToken",
    ]);
    const colour = () => (chance(0.5) ? pick(BETWEEN) : "");
    return pick<() => string>([
      () =>
        `${pick(["", '"', "'", '\\"', '\\\\"', colour()])}${key}${colour()}${pick(["", '"', "'", '\\"'])}${pick(["", " ", "\t", "  "])}${pick(["=", ":", ":=", "=>", "?=", ": str =", ": Optional[str] = ", " :", "\x1b[0m=", "\\u001b[0m: ", " is ", " "])}${pick(["", " ", "\t", colour()])}${pick(["", '"', "'", '\\"'])}${split(run(`${ALNUM}!#$^*`, 3, 30))}${pick(["", '"', "'", '\\"', " ?? x", " next", "\x1b[0m"])}`,
      () =>
        `--${pick(["", "db-", "x-y-", "API_", "my_"])}${key}${colour()}${pick(["=", " ", "\t", "   ", "", "\x1b[0m "])}${colour()}${split(run(`${ALNUM}-`, 4, 30))}`,
      () => `${key}${gap()}${pick(["=", ":"])}${gap()}${run(ALNUM, 6, 30)}`,
    ])();
  }

  /** More than 64 hints (the grouped search's limit) before, among or after tokens. */
  function manyHints(): string {
    const hints = [
      "sk-",
      "://",
      "eyJ",
      "ghp_",
      "AKIA",
      "earer",
      "Basic",
      "xox",
      "npm_",
      "ecret",
      "AIza",
      "_test_",
      "-----BEGIN",
      "uthorization",
      "@",
    ];
    let out = "";
    const n = 50 + Math.floor(random() * 60);
    for (let i = 0; i < n; i++) out += pick(hints) + pick(["", " ", "x", "\n", "-"]);
    return chance(0.5) ? out + heldShape() : heldShape() + out;
  }

  /** A text of these shapes, the key's forms, filler; CRLF line breaks and very long lines now and then. */
  function shapedText(key: string | undefined): string {
    let out = "";
    const parts = 1 + Math.floor(random() * 6);
    for (let i = 0; i < parts; i++) {
      out += pick(["", " ", "\n", "\r\n", "\t", "x", "=", '"', "\\", "é "]);
      out += pick<() => string>([
        heldShape,
        heldShape,
        assignmentShape,
        assignmentShape,
        manyHints,
        () => run(`${ALNUM}  `, 2000, 6000) + heldShape() + run(`${ALNUM} `, 0, 3000),
        () => (key === undefined ? hostileText(key) : split(disguise(key))),
      ])();
    }
    return chance(0.3) ? out.replace(/\n/g, "\r\n") : out;
  }

  /** The key's forms as the JSON of tool arguments holds them: escaped once to four times, in printable ASCII JSON. */
  function plainArguments(key: string | undefined): string {
    let piece = key ?? "sk-none";
    const times = Math.floor(random() * 4);
    for (let i = 0; i < times; i++) piece = JSON.stringify(piece).slice(1, -1);
    const around = () => pick(["", "echo ", "x=", " ", "\n", "\t", '"', "\\", "\\n", "ls -la"]);
    const value = `${around()}${chance(0.5) ? piece : encodeURIComponent(piece)}${around()}`;
    return JSON.stringify(chance(0.3) ? { [value]: 1 } : chance(0.5) ? { command: value, n: 3 } : { a: [value, "b"], c: { d: value } });
  }

  /** Facts that repeat their strings (a path read and written), a secret first found late among them. */
  function facts(key: string | undefined): SessionFacts {
    const pool = Array.from({ length: 2 + Math.floor(random() * 4) }, () =>
      (chance(0.5) ? shapedText(key) : hostileText(key)).slice(0, 300),
    );
    const some = () => Array.from({ length: Math.floor(random() * 5) }, () => pick(pool));
    return {
      cwd: pick(pool),
      filesRead: some(),
      filesModified: some(),
      filesDeleted: some(),
      commands: some().map((command) => ({ command, exitCode: chance(0.5) ? 0 : null, by: "tool" as const, failed: chance(0.3) })),
      models: some(),
      lastUserRequest: chance(0.5) ? pick(pool) : undefined,
    };
  }

  /** A request made of the context's own strings (as the guard gave them, or as they were), some with the key added. */
  function requestFrom(context: readonly ContextMessage[], key: string | undefined): ChatRequest {
    const texts = context.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
    const text = () => {
      const t = texts.length > 0 ? pick(texts) : shapedText(key);
      return chance(0.2) && key !== undefined ? `${t} ${key}` : t;
    };
    return {
      model: "m",
      stream: true,
      messages: [
        { role: "system", content: text() },
        { role: "user", content: text() },
        {
          role: "assistant",
          content: text(),
          tool_calls: [plainArguments(key), JSON.stringify(argumentsValue(key))].map((args, n) => ({
            id: `call_${n}`,
            type: "function" as const,
            function: { name: "bash", arguments: args },
          })),
        },
        { role: "tool", tool_call_id: "call_0", content: text() },
      ],
    };
  }

  return { shapedText, plainArguments, facts, requestFrom };
}
