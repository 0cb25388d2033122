/**
 * What the engine checks hand off: a pi session with made-up secrets of every kind the redactor
 * knows planted in each place a session holds text, a last user request the model must see, a
 * focus (with secrets too), and for each agent one session of its own already in its history,
 * which the run must leave alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { plantedSecrets, plantedText, type Place } from "../../fixtures/secrets-everywhere.ts";
import { assistant, bash, call, chain, text, toolResult, user } from "../../fixtures/sessions/builders.ts";
import type { EngineName } from "../agents.ts";
import type { Sandbox } from "../sandbox.ts";
import { REPO } from "./reading.ts";

/** The session's last user request: the model must be sent it. */
export const LAST_REQUEST = "COMPAT-LAST-REQUEST: report the line and column of every parse error.";

/** The part of the focus that must reach the model (the rest is secrets). */
export const FOCUS_MARK = "COMPAT-FOCUS: keep the public API as it is.";

/** Where the session plants its secrets. */
const PLACES: readonly Place[] = [
  "header cwd",
  "user text",
  "assistant text",
  "thinking",
  "tool-call arguments",
  "tool result",
  "compaction summary",
  "custom message",
  "user command",
  "focus",
];

/** The secrets planted in the session and the focus: none may reach the model. */
export function engineSecrets(): { kind: string; value: string }[] {
  return plantedSecrets().filter((secret) => PLACES.includes(secret.place));
}

export const ENGINE_FOCUS = `${FOCUS_MARK}\n${plantedText("focus")}`;

export function engineSession(): string {
  const t = plantedText;
  return chain(
    [
      user(1, [text(`COMPAT-FIRST-REQUEST: write a parser for the config format.\n${t("user text")}`)]),
      assistant(
        2,
        [
          { type: "thinking", thinking: t("thinking") },
          text(t("assistant text")),
          call("call_1", "bash", { command: "cat .env", note: t("tool-call arguments") }),
        ],
        "toolUse",
      ),
      toolResult(3, "call_1", "bash", t("tool result")),
      { type: "compaction", summary: t("compaction summary"), firstKeptEntryId: "e01", tokensBefore: 50_000 },
      { type: "custom_message", customType: "notes", content: t("custom message"), display: true },
      bash(6, "cat .env", t("user command"), 0),
      assistant(7, [text("The parser reads every key of the config format.")]),
      user(8, LAST_REQUEST),
      assistant(9, [text("Working on it.")]),
    ],
    { cwd: `/home/dev/${t("header cwd").replaceAll("\n", " ")}` },
  );
}

/** Each agent's real transcript (fixtures/real/), as a session the user already has, where its agent keeps it. */
const EXISTING: Record<EngineName, { fixture: string; place: string; id: string }> = {
  pi: {
    fixture: "fixtures/real/pi/session.jsonl",
    place:
      ".pi/agent/sessions/--tmp-agent-compat-pi-transcript-project--/2026-11-30T12-52-44-409Z_01a22c83-caf8-71de-9277-0c6f4ed6244b.jsonl",
    id: "01a22c83-caf8-71de-9277-0c6f4ed6244b",
  },
  omp: {
    fixture: "fixtures/real/omp/session.jsonl",
    place: ".omp/agent/sessions/--tmp-agent-compat-omp-transcript-project--/2026-11-30T12-51-21-094Z_omp-existing.jsonl",
    id: "omp-existing",
  },
  "claude-code": {
    fixture: "fixtures/real/claude-code/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
    place: ".claude/projects/-tmp-agent-compat-claude-code-transcript-project/7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7.jsonl",
    id: "7c0a11e5-0d3e-4c0d-9a11-c0a7c0a7c0a7",
  },
  codex: {
    fixture: "fixtures/real/codex/rollout.jsonl",
    place: ".codex/sessions/2026/11/30/rollout-2026-11-30T12-52-57-01a22c83-ffcf-7703-8435-2c3998d6a9a2.jsonl",
    id: "01a22c83-ffcf-7703-8435-2c3998d6a9a2",
  },
};

/** Puts the agent's existing session into its history; its id (an agent may index it, which is no new session). */
export function placeExistingSession(name: EngineName, sandbox: Sandbox): string {
  const existing = EXISTING[name];
  const path = join(sandbox.home, existing.place);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, readFileSync(join(REPO, existing.fixture)));
  return existing.id;
}
