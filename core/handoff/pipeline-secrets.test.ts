import { describe, expect, test } from "bun:test";
import { answer, appendedLines, deps, FULL_DOCUMENT, inputFor } from "../../fixtures/handoff-pipeline.ts";
import { assistant, call, chain, text, toolResult, user } from "../../fixtures/sessions/builders.ts";
import type { ChatRequest, Complete } from "../llm/types.ts";
import { filler } from "./condense/condense.testing.ts";
import { planHandoffRequests, runHandoff } from "./pipeline.ts";

const PASSWORD = "hunter2-staging";
const GITHUB = "ghp_4Fk9Lq2Xm7Vr1Tz8Nc3Bw6Hd0Js5Gy2Pa7Ue";
const API_KEY = "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";
const PEM_BODY = Array.from(
  { length: 24 },
  (_, i) => `MIIEow${String(i).padStart(2, "0")}AAKCAQEAx9Lk2Vm7Rt1Wz8Nc4Hb6Gd0Js5PfZx9Cv8Bn7Ml6Kj5Hg4Fd3Sa`,
);
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.join("\n")}\n-----END RSA PRIVATE KEY-----`;

/** Every placeholder-looking thing (and the key's stand-in) a request carried, in order. */
function placeholdersIn(request: ChatRequest): string[] {
  return [...new Set(JSON.stringify(request).match(/\[REDACTED(?:-\d+)?:[a-z0-9-]+:\d+\]|\[withheld\]/g) ?? [])];
}

/** A model that answers every request with a full document quoting, out of context, every placeholder it was shown. */
function echoingModel(first?: (request: ChatRequest) => string): { complete: Complete; requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  const complete: Complete = async (request) => {
    requests.push(structuredClone(request));
    const quoted = `The values are ${placeholdersIn(request).join(" and ")}.`;
    const text = requests.length === 1 && first ? first(request) : `${FULL_DOCUMENT}\n\n${quoted}`;
    return answer(text.replace("QUOTED", quoted));
  };
  return { complete, requests };
}

function expectNoneSent(requests: readonly ChatRequest[], secrets: readonly string[]): void {
  for (const [i, request] of requests.entries()) {
    const body = JSON.stringify(request);
    const sent = secrets.filter((secret) => body.includes(JSON.stringify(secret).slice(1, -1)));
    expect({ request: i, sent }).toEqual({ request: i, sent: [] });
  }
}

const session = chain([
  user(1, `Deploy with DB_PASSWORD=${PASSWORD} and push with ${GITHUB}.`),
  assistant(2, [text("Done, deployed.")]),
  user(3, "Now write the handoff."),
  assistant(4, [text("Sure.")]),
]);

describe("nothing restored ever goes back out", () => {
  test("--strict: the repair request carries the first answer's placeholders, not the originals; the document has them back", async () => {
    const model = echoingModel(() => "## Goal\nQUOTED");
    const result = await runHandoff(inputFor(session, { strict: true }), deps(model.complete));
    expect(model.requests).toHaveLength(2);
    expectNoneSent(model.requests, [PASSWORD, GITHUB]);
    const repair = JSON.stringify(model.requests[1]);
    expect(repair).toContain("The values are [REDACTED:password:1] and [REDACTED:github-token:1].");
    expect(result.document).toContain(`The values are ${PASSWORD} and ${GITHUB}.`);
  });

  test("condensing: notes the model wrote go into later requests with their placeholders; a key cut by condensing goes whole", async () => {
    const long = chain([
      user(1, `Set DB_PASSWORD=${PASSWORD}.`),
      assistant(2, [call("c1", "bash", { command: "cat id_rsa; cat build.log" })], "toolUse"),
      // A long output ending in a key: condensing keeps its head and a tail shorter than the key.
      toolResult(3, "c1", "bash", `${filler(60_000, "log")}\n${PEM}`),
      ...Array.from({ length: 12 }, (_, i) => [
        user(4 + i * 2, `step ${i}: ${filler(3_000, `u${i}`)}`),
        assistant(5 + i * 2, [text(`done ${i} with ${GITHUB}`)]),
      ]).flat(),
      user(40, "Hand it off."),
    ]);
    const model = echoingModel();
    const result = await runHandoff(inputFor(long, { contextWindow: 8_000 }), deps(model.complete));
    expect(result.condensed?.notesRequests).toBeGreaterThan(1);
    expectNoneSent(model.requests, [PASSWORD, GITHUB, ...PEM_BODY, "-----END RSA PRIVATE KEY-----"]);
    // Later requests quote notes that quote placeholders.
    expect(JSON.stringify(model.requests.at(-1))).toContain("[REDACTED:password:1]");
    expect(result.document).toContain(PASSWORD);
    expect(result.document).toContain(GITHUB);
  });

  test("the configured key is never restored, sent or written, even inside a secret the redactor found", async () => {
    const withKey = chain([
      user(1, `OPENAI_API_KEY=${API_KEY} and ${GITHUB}`),
      assistant(2, [text(`Using ${API_KEY}.`)]),
      user(3, "go"),
      assistant(4, [text("ok")]),
    ]);
    for (const redact of [true, false]) {
      const model = echoingModel();
      const result = await runHandoff(
        inputFor(withKey, { withheld: [API_KEY], focus: `mind ${API_KEY}`, record: true, redact, facts: true }),
        deps(model.complete),
      );
      expectNoneSent(model.requests, [API_KEY]);
      expect(result.document).toContain("[withheld]");
      if (redact) expect(result.document).toContain(GITHUB);
      for (const written of [result.document, result.newSession.content, JSON.stringify(appendedLines(result.recording))])
        expect(written).not.toContain(API_KEY);
    }
  });

  test("an endpoint that echoes the key in its answer or model name does not get it into the files", async () => {
    const complete: Complete = async () => answer(`${FULL_DOCUMENT}\n${API_KEY}`, { model: `m-${API_KEY}` });
    const result = await runHandoff(inputFor(session, { withheld: [API_KEY], record: true }), deps(complete));
    expect(result.document).not.toContain(API_KEY);
    expect(result.model).not.toContain(API_KEY);
    expect(JSON.stringify(appendedLines(result.recording))).not.toContain(API_KEY);
  });

  test("--dry-run prints requests without the key or the secrets, deterministically", () => {
    const input = inputFor(session, { withheld: [API_KEY], focus: `use ${API_KEY}` });
    const first = planHandoffRequests(input);
    expect(JSON.stringify(first.requests)).not.toContain(API_KEY);
    expectNoneSent(first.requests, [PASSWORD, GITHUB]);
    expect(planHandoffRequests(input)).toEqual(first);
  });
});

describe("tool calls", () => {
  test("arguments with a token at the start of each line, a secret id and a secret name send none of them", async () => {
    const tokens = [
      GITHUB,
      "sk-proj-Qm3_Xv8-Lk2Rt7Wz1Nc4Hb9Gd6Js0Pf5Ya2Ue8Ki3To7Mr1Vq4Xs9Bn6Lc",
      "AKIAQ3VX7LM2RT5ZW4NB",
      "xoxb-123456789012-1234567890123-Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2",
      "npm_Zx9Cv8Bn7Ml6Kj5Hg4Fd3Sa2Qw1Er0Ty9Ui8",
    ];
    const id = "call_ghp_9Zx8Cv7Bn6Ml5Kj4Hg3Fd2Sa1Qw0Er9Ty8Ui";
    const name = "ghp_1Ab2Cd3Ef4Gh5Ij6Kl7Mn8Op9Qr0St1Uv2Wx";
    const withCalls = chain([
      user(1, "Write the env file."),
      assistant(2, [call(id, "write", { path: ".env", content: `${tokens.join("\n")}\n` }), call("c2", name, {})], "toolUse"),
      toolResult(3, id, "write", "written"),
      toolResult(4, "c2", name, "ok"),
      user(5, "Hand it off."),
      assistant(6, [text("ok")]),
    ]);
    const model = echoingModel();
    await runHandoff(inputFor(withCalls), deps(model.complete));
    expectNoneSent(model.requests, [...tokens, id, name]);
    const sent = model.requests[0];
    const calls = sent?.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []) : [])) ?? [];
    const results = sent?.messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : [])) ?? [];
    expect(calls.map((c) => c.id)).toEqual(results);
  });
});

describe("placeholder-looking text already in the session", () => {
  test("is sent as it is and never replaced by a secret; the run's own placeholders use another word", async () => {
    const literal = "[REDACTED:github-token:1]";
    const quoting = chain([
      user(1, `The old doc said ${literal}; the token is ${GITHUB}.`),
      assistant(2, [text("noted")]),
      user(3, "go"),
      assistant(4, [text("ok")]),
    ]);
    const model = echoingModel();
    const result = await runHandoff(inputFor(quoting), deps(model.complete));
    expectNoneSent(model.requests, [GITHUB]);
    expect(placeholdersIn(model.requests[0] as ChatRequest)).toEqual([literal, "[REDACTED-2:github-token:1]"]);
    expect(result.document).toContain(`The values are ${literal} and ${GITHUB}.`);
  });
});
