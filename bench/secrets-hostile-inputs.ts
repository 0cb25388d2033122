/**
 * The hostile inputs secrets-differential.ts feeds the old and the new secrets code: tokens of
 * every rule and texts that come close, disguised (escapes, colour, look-alikes, zero-width
 * characters, encodings), keys a user may configure, tool arguments, whole contexts and requests.
 * Drawn from one seeded generator, so a difference is found again with the same seed.
 */
import type { ChatRequest } from "../core/llm/types.ts";
import type { ContextMessage } from "../core/session/messages.ts";

/** mulberry32: a small seeded generator, so a failure is found again with the same seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generators, all drawing from one sequence seeded with `seed`. */
export function hostileInputs(seed: number) {
  const random = generator(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  function run(chars: string, min: number, max: number): string {
    const n = min + Math.floor(random() * (max - min + 1));
    let out = "";
    for (let i = 0; i < n; i++) out += chars[Math.floor(random() * chars.length)];
    return out;
  }
  const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const B64URL = `${ALNUM}_-`;
  const HEX = "0123456789abcdef";

  /** Tokens every rule is after, and texts that come close to them. */
  function token(): string {
    return pick<() => string>([
      () => `sk-${run(B64URL, 18, 60)}`,
      () => `sk-ant-api03-${run(B64URL, 30, 50)}`,
      () => `sk-or-v1-${run(HEX, 30, 70)}`,
      () => `sk-proj-${run(ALNUM, 20, 50)}`,
      () => `${pick(["ghp", "gho", "ghu", "ghs", "ghr"])}_${run(ALNUM, 34, 40)}`,
      () => `github_pat_${run(`${ALNUM}_`, 48, 60)}`,
      () => `${pick(["glpat", "glptt", "gldt", "glrt", "glcbt", "glft", "glsoat"])}-${run(B64URL, 18, 30)}`,
      () => `${pick(["AKIA", "ASIA"])}${run("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 15, 17)}`,
      () =>
        `${pick(["aws_secret_access_key", "AWS_SECRET_ACCESS_KEY", "SecretAccessKey", "secret_key"])}${pick(["=", ": ", " = ", '": "'])}${run(`${ALNUM}/+`, 39, 41)}`,
      () => `AIza${run(B64URL, 34, 36)}`,
      () => `${pick(["xoxb", "xoxp", "xapp", "xoxe"])}-${run(`${ALNUM}-`, 8, 30)}`,
      () => `https://hooks.slack.com/${pick(["services", "workflows"])}/${run(`${ALNUM}/`, 18, 40)}`,
      () => `${pick(["sk_live_", "rk_test_", "pk_live_", "whsec_", "pk_test_"])}${run(ALNUM, 14, 30)}`,
      () => `npm_${run(ALNUM, 35, 37)}`,
      () => `eyJ${run(B64URL, 4, 20)}.eyJ${run(B64URL, 4, 20)}.${run(B64URL, 0, 20)}`,
      () =>
        `${pick(["Bearer", "bearer", "BEARER", "Bearer\u200b", "Be\x1b[0marer"])}${pick([" ", "  ", "\t", "\x1b[1m "])}${run(`${ALNUM}._~+/-`, 14, 40)}`,
      () => `${pick(["Basic", "basic", "BASIC"])} ${run(`${ALNUM}+/`, 10, 30)}${pick(["", "=", "=="])}`,
      () =>
        `${pick(["Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "AuThorization"])}${pick([": ", "=", '": "', "\x1b[0m: "])}${pick(["", "Token ", "token "])}${run(`${ALNUM}._~+/-`, 10, 40)}`,
      () => `${pick(["https", "redis", "postgres", "x"])}://${run(ALNUM, 0, 8)}:${run(`${ALNUM}%!$`, 1, 30)}@host.example`,
      () =>
        `-----BEGIN ${pick(["", "RSA ", "OPENSSH ", "EC "])}PRIVATE KEY-----${pick(["\n", "\\n", "\n12: ", "\n> "])}${run(`${ALNUM}+/`, 14, 70)}${pick(["\n-----END PRIVATE KEY-----", "", "\n"])}`,
      () =>
        `${pick(["password", "DB_PASSWORD", "apiKey", "api_key", "token", "secret", "pwd", "x.pwd", "passphrase", "--auth-token", "PASS", "Token", "ApI_KeY"])}${pick(["=", ": ", " = ", ":=", "=>", '": "', '\\": \\"', "\x1b[0m: \x1b[32m", " "])}${run(`${ALNUM}!@#$%^*`, 3, 30)}${pick(["", '"', '\\"', " next", " ?? x", "\x1b[0m"])}`,
    ])();
  }

  /** What a hostile writer puts around or inside a token to split its hint or hide it. */
  function disguise(text: string): string {
    const at = Math.floor(random() * (text.length + 1));
    const insert = (piece: string) => text.slice(0, at) + piece + text.slice(at);
    return pick<() => string>([
      () => text,
      () => text,
      () => insert(pick(["\x1b[31m", "\x1b[0m", "\\u001b[0m", "\\x1b[1m", "\\033[32m", "\\e[K", "\u009b1m", "\x1bM"])),
      () => insert(pick(["\u200b", "\u200d", "\u00ad", "\ufeff", "\u2060", "\u202e", "\x00", "\x7f", "\r"])),
      () => insert(pick(["\\n", "\\t", "\\u0020", "%20", "%253D", "\\x3d"])),
      () => text.toUpperCase(),
      () => text.toLowerCase(),
      // Full-width letters and Cyrillic look-alikes.
      () => text.replace(/[a-z]/g, (c) => (chance(0.2) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)),
      () =>
        text.replace(/[aeopcx]/g, (c) =>
          chance(0.3) ? (({ a: "а", e: "е", o: "о", p: "р", c: "с", x: "х" } as Record<string, string>)[c] ?? c) : c,
        ),
      // JSON escapes of single characters (`\u0073k-…`), URL encoding, base64.
      () => text.replace(/[a-z_-]/gi, (c) => (chance(0.15) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c)),
      () => encodeURIComponent(text),
      () => Buffer.from(text).toString("base64"),
      () => JSON.stringify(text).slice(1, -1),
      () => JSON.stringify(JSON.stringify(text)).slice(1, -1),
    ])();
  }

  const FILLER = [
    "",
    " ",
    "\n",
    "\t",
    "ok ",
    "see ",
    "x",
    "_",
    "-",
    "/",
    "=",
    '"',
    "'",
    "(",
    "`",
    "é ",
    "— ",
    "1",
    "\\",
    "\\\\",
    "%",
    "\r\n",
    "a.b ",
  ];

  /** A text of a few tokens, the key's forms and filler, each possibly disguised. */
  function hostileText(key: string | undefined): string {
    let out = "";
    // Now and then many parts: a rule's hint found early, its token (or a hint overlapping it) later.
    const parts = 1 + Math.floor(random() * (chance(0.1) ? 30 : 5));
    for (let i = 0; i < parts; i++) {
      out += pick(FILLER);
      if (key !== undefined && chance(0.35)) out += disguise(key);
      else out += chance(0.8) ? disguise(token()) : run(`${ALNUM} .:/`, 0, 80);
      out += pick(FILLER);
    }
    return out;
  }

  /** Keys a user may configure: long and random, short words, digits only, one class, `Infinity`, with quotes and backslashes. */
  function configuredKey(): string {
    return pick<() => string>([
      () => `sk-${run(ALNUM, 20, 40)}`,
      () => run(ALNUM, 12, 30),
      () => pick(["dummy1", "ollama", "test", "file", "import", "abcd"]),
      () => run("0123456789", 4, 20),
      () => run("a", 4, 16),
      () => run("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 4, 16),
      () => pick(["Infinity", "-Infinity", "1e+21", "100000", "0.5"]),
      () => `${run(ALNUM, 4, 10)}${pick(['"', "\\", "/", "%", " ", "é", "\u200b"])}${run(ALNUM, 4, 10)}`,
    ])();
  }

  /** A JSON value of tool arguments, the key or a token possibly as a name, a value or a number. */
  function argumentsValue(key: string | undefined, depth = 0): Record<string, unknown> {
    const value: Record<string, unknown> = {};
    const n = 1 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      const name = chance(0.2)
        ? hostileText(key)
        : pick(["command", "path", "password", "api_key", "headers", "note", "tokens", "Authorization", "n"]);
      value[name] = pick<() => unknown>([
        () => hostileText(key),
        () => Math.floor(random() * 1e6),
        () => pick([1e5, 1e21, 0.5, -3, 12345678901234567000]),
        () => (depth < 2 ? argumentsValue(key, depth + 1) : "leaf"),
        () => [hostileText(key), 7],
      ])();
    }
    return value;
  }

  /** Arguments as JSON text: `JSON.stringify`'s own, or hand-written with escapes and numbers it would not write. */
  function argumentsText(key: string | undefined): string {
    const written = JSON.stringify(argumentsValue(key));
    return pick<() => string>([
      () => written,
      () => written.replace(/[a-z]/g, (c) => (chance(0.05) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c)),
      () =>
        `{"n":${pick(["1e5", "1e999", "-1e400", "1E+21", "0.50", "100000.0", "12345678901234567890", "-0"])},"s":"${pick(["a", key ?? "b"])}"}`,
      () => `not json ${hostileText(key)}`,
    ])();
  }

  function context(key: string | undefined, texts: number): ContextMessage[] {
    const messages: ContextMessage[] = [];
    for (let i = 0; i < texts; i++) {
      messages.push({ role: "user", kind: "user", content: [{ type: "text", text: hostileText(key) }], entryId: `u${i}` });
      messages.push({
        role: "assistant",
        content: [
          { type: "text", text: hostileText(key) },
          { type: "toolCall", id: `c${i}`, name: chance(0.2) ? hostileText(key) : "bash", arguments: argumentsValue(key) },
        ],
        provider: "openai",
        model: "gpt-5",
        stopReason: "toolUse",
        entryId: `a${i}`,
      });
      messages.push({
        role: "toolResult",
        toolCallId: `c${i}`,
        toolName: "bash",
        content: [{ type: "text", text: hostileText(key) }],
        isError: false,
        entryId: `r${i}`,
      });
    }
    return messages;
  }

  function request(key: string | undefined): ChatRequest {
    return {
      model: "m",
      stream: true,
      messages: [
        { role: "system", content: hostileText(key) },
        { role: "user", content: hostileText(key) },
        {
          role: "assistant",
          content: null,
          tool_calls: [1, 2].map((n) => ({
            id: `call_${n}`,
            type: "function" as const,
            function: { name: "bash", arguments: argumentsText(key) },
          })),
        },
        { role: "tool", tool_call_id: "call_1", content: hostileText(key) },
      ],
    };
  }
  return { random, pick, chance, run, configuredKey, disguise, hostileText, argumentsValue, context, request };
}
