/**
 * Help says truthfully which agents the tool works with: a help text that names some agents
 * in a list names all of them (the format table's), or exactly the ones a table property
 * picks (the agents that open a session file anywhere, for `-o`'s default). A new agent in
 * the table that a help text leaves out fails here.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FORMATS, isEngineName, type SessionFormat } from "../../core/index.ts";
import { cleanEnv, runAgent } from "../../fixtures/run-agent.ts";
import { COMPLETION_HELP } from "./completion/completion.ts";
import { CONFIG_HELP } from "./config.ts";
import { HANDOFF_HELP } from "./handoff/handoff-args.ts";
import type { CommandHelp } from "./help.ts";
import { INSPECT_HELP } from "./inspect.ts";
import { LS_HELP } from "./ls/ls.ts";

const env = cleanEnv(mkdtempSync(join(tmpdir(), "agent-help-agents-")));

/** Every way a text can name an agent: its name, aliases, label, and omp's long name. */
function wordsFor(format: SessionFormat): string[] {
  return [format.name, ...format.aliases, format.label, ...(format.name === "omp" ? ["oh-my-pi"] : [])];
}

/** The agents `text` names, by name. */
function agentsNamed(text: string): string[] {
  return FORMATS.filter((format) =>
    wordsFor(format).some((word) => new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "i").test(text)),
  ).map((f) => f.name);
}

/** The sets a list of agents may be: all, or those a table property picks. */
const ALLOWED: string[][] = [
  FORMATS.map((f) => f.name),
  FORMATS.filter((f) => !f.location.findsSessionsOnlyInItsFolder).map((f) => f.name),
  FORMATS.filter((f) => isEngineName(f.name)).map((f) => f.name),
];

/** Each text a command's help prints in one piece: summary, description, each flag, each section row or line. */
function helpTexts(help: CommandHelp): string[] {
  const args = Object.values(help.args).flatMap((def) => [
    def.description ?? "",
    "negativeDescription" in def ? (def.negativeDescription ?? "") : "",
  ]);
  const sections = (help.sections ?? []).flatMap((section) =>
    "rows" in section ? section.rows.map(([a, b]) => `${a} ${b}`) : "commands" in section ? section.commands : section.text,
  );
  return [help.summary, help.description ?? "", ...args, ...sections].filter((text) => text !== "");
}

describe("help names every agent, or none, in each text", () => {
  const HELPS = [HANDOFF_HELP, LS_HELP, INSPECT_HELP, CONFIG_HELP, COMPLETION_HELP];
  const texts = HELPS.flatMap((help) => helpTexts(help).map((text): [string, string] => [help.name, text]));

  test.each(texts.filter(([, text]) => agentsNamed(text).length >= 2))("%s: %s", (_name, text) => {
    expect(ALLOWED).toContainEqual(agentsNamed(text));
  });

  test("agent --help says what it works with: every agent in the table", async () => {
    const run = await runAgent(["--help"], env);
    expect(run.code).toBe(0);
    const summary = run.stdout.split("\n\n")[0] ?? "";
    expect(agentsNamed(summary)).toEqual(FORMATS.map((f) => f.name));
  });

  test("the rule sees a list that leaves an agent out", () => {
    expect(ALLOWED).not.toContainEqual(agentsNamed("sessions of pi, oh-my-pi or Claude Code"));
    expect(ALLOWED).not.toContainEqual(agentsNamed("claude-code (or claude), codex or pi"));
  });
});
