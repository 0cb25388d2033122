/**
 * The secrets guard's first use (redact the whole branch, then replace every secret found
 * wherever it recurs) on the two real sessions, and the redactor alone on text built to be hard
 * for it: URL-encoded queries, snake_case and kebab-case runs, `key: word` lines, percent escapes.
 * Median of RUNS runs each, in this process (no startup in the figure). Also prints how many
 * secrets each real session gives: a real session's placeholders are false positives unless
 * shown otherwise (core/secrets/redact-real-sessions.test.ts pins each one).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch, parseSession } from "../core/index.ts";
import { createRedactor } from "../core/secrets/redact.ts";
import { createSecretsGuard } from "../core/secrets/secrets-guard.ts";
import { createWithholder } from "../core/secrets/withhold.ts";
import { median, ms } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const SESSIONS = join(import.meta.dir, "..", "..", "shared", "sessions");

function time(run: () => void): number {
  run(); // warm up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

console.log(`redact (${RUNS} runs, medians, in-process)`);
for (const name of ["large-session", "before-compaction"]) {
  const file = join(SESSIONS, `${name}.jsonl`);
  if (!existsSync(file)) {
    console.log(`  ${name}: skipped (${file} is not here)`);
    continue;
  }
  const { context } = analyzeBranch(parseSession(readFileSync(file, "utf8"), file));
  let secrets = 0;
  const took = time(() => {
    const guard = createSecretsGuard({ context });
    guard.outgoing();
    secrets = guard.redacted;
  });
  const chars = JSON.stringify(context).length;
  console.log(
    `  ${`${name}.jsonl`.padEnd(30)} ${ms(took).padStart(10)}  (${(chars / 1e6).toFixed(2)} M chars of context; ${secrets} secrets)`,
  );
}

const LINES = [
  "GET /search?q=a%20b&redirect=%2Fhome%3Fpage%3D2%26sort%3Ddesc&lang=en_US HTTP/1.1",
  "const user_session_token_count = compute_total_tokens(parse_input_buffer(raw_text_value));",
  "  password: hashed-and-salted-value-from-the-login-form-handler",
  "css: .btn-primary-large-rounded-outline, .sk-button-large-primary, .gh-pages-deploy-step",
  "%41%42%43%44%45%46%47%48%49%4A%4B%4C%4D%4E%4F%50%51%52%53%54%55%56%57%58%59%5A%30%31%32",
  "exec_command_run_shell_tool_call_with_a_very_long_snake_case_name_and_more_words_after_it",
  "the token: we keep one per request, and the secret = what the user typed at the prompt",
];
const mixed = LINES.join("\n").repeat(4000);
const hostile = ["_".repeat(200_000), "-".repeat(200_000), "%3D".repeat(70_000), "a_b-c%3D".repeat(25_000)].join("\n");
// Escape-heavy text, 5 M characters each: a colourised log and a JSON-escaped transcript (a
// key word on most lines), and one line of escapes glued to key words and leads with no value
// after them (the worst case for a scan that steps over escapes: it must stay linear).
const FIVE_MB = 5_000_000;
const fill = (unit: string) => unit.repeat(Math.ceil(FIVE_MB / unit.length)).slice(0, FIVE_MB);
const colourLog = fill(
  "\x1b[2m12:00:01\x1b[0m \x1b[32mINFO\x1b[0m \x1b[1mrequest\x1b[0m done in \x1b[33m12 ms\x1b[0m token count \x1b[36m512\x1b[0m\n",
);
const jsonEscaped = fill(String.raw`{\"type\":\"text\",\"text\":\"\u001b[31merror\u001b[0m: the key\nwas read\t\\\"ok\\\" by pass 2\"}\n`);
const escapeRun = fill('\x1b[0mtoken\x1b[1m\\u001b[0mBearer\\n%20Basic\x1b[m:\\"');
const escapes = [
  ["colour log, 5 M chars", colourLog],
  ["JSON-escaped, 5 M chars", jsonEscaped],
  ["escapes and key words, 5 M", escapeRun],
] as const;

// Hints of the token rules close together and never a token: each rule's hint is looked for once it is found no more.
const hints = fill("sk- ghp_ eyJ Basic earer :// AKIA xox npm_ _live_ sk-a ");
for (const [label, text] of [
  ["hard text, 1.8 M chars", mixed],
  ["runs of _ - %3D, 0.8 M chars", hostile],
  ["token hints, 5 M chars", hints],
  ...escapes,
] as const) {
  const took = time(() => createRedactor().redact(text));
  console.log(`  ${label.padEnd(30)} ${ms(took).padStart(10)}`);
}
// The second pass (every found secret wherever it recurs) and the withheld key, over the same texts.
for (const [label, text] of escapes) {
  const redactor = createRedactor();
  redactor.redact("password=Hunter2x token=abc123XYZ9");
  const withhold = createWithholder(["ollama1"]);
  const took = time(() => withhold(redactor.redactKnown(text)));
  console.log(`  ${`known, withheld: ${label.split(",")[0]}`.padEnd(30)} ${ms(took).padStart(10)}`);
}
