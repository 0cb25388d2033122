/**
 * Old and new secrets code, the same answers: extracts `core/` of an older commit (default
 * `main`) and runs its redactor, withholder and secrets guard beside this tree's on generated
 * hostile texts (tokens of every rule, their hints split by escapes and colour, case variants,
 * full-width and homoglyph look-alikes, zero-width characters, JSON `\uXXXX` escapes, URL
 * encoding, base64, the key in a tool argument's name, keys made of digits, of one class, of
 * `Infinity`; made in secrets-hostile-inputs.ts; the prefilters' near misses, the key escaped in
 * tool arguments, facts and requests that repeat the input's strings, in secrets-hostile-shapes.ts),
 * then compares every output byte for byte, the document's sources included. A speed-up must
 * change none: any difference is printed, and the exit code is 1. Guards with different keys run
 * back to back in one process (a memo kept between runs would show here). Fixed seed: the same
 * texts each run. Not part of `bun run bench`: a check to run after a change to core/secrets.
 *
 *   bun bench/secrets-differential.ts [old ref=main] [iterations=3000] [seed=23]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatRequest } from "../core/llm/types.ts";
import * as newRedact from "../core/secrets/redact.ts";
import * as newGuard from "../core/secrets/secrets-guard.ts";
import * as newWithhold from "../core/secrets/withhold.ts";
import type { SessionFacts } from "../core/session/facts.ts";
import { hostileInputs } from "./secrets-hostile-inputs.ts";
import { hostileShapes } from "./secrets-hostile-shapes.ts";

const REPO = join(import.meta.dir, "..");
const [ref = "main", iterationsArg = "3000", seedArg = "23"] = process.argv.slice(2);
const ITERATIONS = Number(iterationsArg);

const dir = mkdtempSync(join(tmpdir(), "secrets-differential-"));
// Through a pipe: the archive is larger than a spawn's output buffer.
execFileSync("sh", ["-c", 'git -C "$0" archive "$1" core | tar -x -C "$2"', REPO, ref, dir], { stdio: ["ignore", "ignore", "inherit"] });
const oldRedact: typeof newRedact = await import(join(dir, "core/secrets/redact.ts"));
const oldGuard: typeof newGuard = await import(join(dir, "core/secrets/secrets-guard.ts"));
const oldWithhold: typeof newWithhold = await import(join(dir, "core/secrets/withhold.ts"));
rmSync(dir, { recursive: true, force: true });

const inputs = hostileInputs(Number(seedArg));
const { random, pick, chance, configuredKey, hostileText, context, request } = inputs;
const { shapedText, facts, requestFrom } = hostileShapes(inputs);

/** Everything one guard shows, as one text: the outgoing input, a request, the document's sources and their restore, an answer's text. */
function guardOutcome(
  guards: typeof newGuard,
  input: Parameters<typeof newGuard.createSecretsGuard>[0],
  r: ChatRequest,
  f: SessionFacts,
): string {
  const guard = guards.createSecretsGuard(input);
  const outgoing = JSON.stringify(guard.outgoing());
  const sent = JSON.stringify(guard.request(r));
  const sources = guard.forDocument(f, f.cwd);
  const document = JSON.stringify({ facts: sources.facts, cwd: sources.cwd });
  const parts = [
    outgoing,
    sent,
    document,
    guard.restore(outgoing),
    guard.restore(document),
    guard.withhold(outgoing),
    String(guard.redacted),
  ];
  return parts.join("\n--\n");
}

let compared = 0;
let differences = 0;
function same(what: string, input: unknown, old: string, now: string): void {
  compared++;
  if (old === now) return;
  differences++;
  if (differences > 20) return;
  // Where the two first part, with some text around it: the whole outputs are long.
  let at = 0;
  while (at < old.length && old[at] === now[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 80), at + 80));
  console.log(
    `DIFFERENT ${what} at ${at}\n  input: ${JSON.stringify(input).slice(0, 400)}\n  old:   ${around(old)}\n  new:   ${around(now)}`,
  );
}

const started = performance.now();
for (let i = 0; i < ITERATIONS; i++) {
  const key = chance(0.8) ? configuredKey() : undefined;
  const withheld = key === undefined ? [] : chance(0.2) ? [key, configuredKey()] : [key];
  const text = chance(0.5) ? hostileText(key) : shapedText(key);
  same("redact", text, oldRedact.createRedactor().redact(text), newRedact.createRedactor().redact(text));
  const name = pick(["password", "api_key", "tokens", "note", "Authorization", "x_secret", text.slice(0, 20)]);
  same(
    "redactAssigned",
    [name, text],
    oldRedact.createRedactor().redactAssigned(name, text),
    newRedact.createRedactor().redactAssigned(name, text),
  );
  same("withhold", [withheld, text], oldWithhold.createWithholder(withheld)(text), newWithhold.createWithholder(withheld)(text));
  // A few guards with different keys back to back, the same sequence for both builds.
  if (i % 5 === 0) {
    const runs = [0, 1, 2].map(() => {
      const k = chance(0.8) ? configuredKey() : undefined;
      const messages = context(k, 1 + Math.floor(random() * 3));
      if (chance(0.5)) messages.push({ role: "user", kind: "user", content: [{ type: "text", text: shapedText(k) }], entryId: "s" });
      const input = {
        context: messages,
        focus: chance(0.5) ? (chance(0.5) ? hostileText(k) : shapedText(k)) : undefined,
        withheld: k === undefined ? [] : [k],
        redact: chance(0.85),
      };
      return { input, r: chance(0.5) ? request(k) : requestFrom(messages, k), f: facts(k) };
    });
    const old = runs.map(({ input, r, f }) => guardOutcome(oldGuard, input, r, f));
    const now = runs.map(({ input, r, f }) => guardOutcome(newGuard, input, r, f));
    for (const [j, one] of runs.entries())
      same("guard", { withheld: one.input.withheld, request: one.r }, old[j] as string, now[j] as string);
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `${compared} outputs compared against ${ref} (seed ${seedArg}, ${ITERATIONS} iterations, ${seconds} s): ${differences} different`,
);
process.exit(differences === 0 ? 0 : 1);
