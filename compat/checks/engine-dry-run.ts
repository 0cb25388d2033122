/**
 * `agent handoff --engine <agent> --dry-run --json` with the real agent installed: nothing runs
 * (the fake gets no request, the agent's HOME is unchanged), the printed prompt holds the
 * session's last request and none of the planted secrets, and what it printed is the exact run:
 * started by hand (its placeholders replaced by fresh folders), the real agent sends our
 * instruction and the session's last request with no tool, and answers with the fake's document.
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SYSTEM_PROMPT } from "../../core/handoff/prompt.ts";
import { isObject } from "../../core/json.ts";
import type { EngineAgentInstall } from "../agents.ts";
import type { DnsLog } from "../isolate.ts";
import { describeRun, runAgent } from "../sandbox.ts";
import { allOf, must, type Checks } from "./report.ts";
import { WRITTEN_DOCUMENT } from "./resume.ts";
import { runHandoffCli, setUpEngine } from "./engine-drivers.ts";
import { filesHolding, historyChanges, offeredTools, secretFragments, sentText, snapshotHistory } from "./engine-evidence.ts";
import { engineSecrets, ENGINE_FOCUS, LAST_REQUEST } from "./engine-session.ts";

/** The placeholders `--dry-run` prints for the folders a real run makes (cli/commands/handoff/agent-dry-run.ts). */
const PLACEHOLDERS: Record<string, string> = { "<new empty folder>": "scratch", "<new temporary folder>": "temp" };

/** What is in HOME but Bun's own cache (the CLI we run is a Bun script: Bun writes there, no agent). */
const agentFolders = (home: string) =>
  readdirSync(home)
    .filter((name) => name !== ".bun")
    .map((name) => join(home, name));

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

export async function checkEngineDryRun(agent: EngineAgentInstall, dir: string, checks: Checks, dns: DnsLog): Promise<void> {
  const setup = await setUpEngine(agent, dir, "dry-run", () => ({ text: WRITTEN_DOCUMENT }));
  const home = setup.sandbox.home;
  try {
    let printed: { command: string[]; env: Record<string, string>; files: Record<string, string>; prompt: string } | undefined;
    const ok = await checks.run(agent.name, "engine --dry-run: nothing runs, the prompt holds the last request and no secret", async () => {
      const before = snapshotHistory(home, agentFolders(home), []);
      const run = await runHandoffCli(setup, ["--focus", ENGINE_FOCUS, "--dry-run", "--json"], dns, 60_000);
      must(run.exitCode === 0, describeRun(run));
      const json: unknown = JSON.parse(run.stdout);
      const first = isObject(json) && Array.isArray(json.runs) ? json.runs[0] : undefined;
      must(
        isObject(first) && typeof first.prompt === "string" && isObject(first.env),
        `no run in --dry-run --json: ${run.stdout.slice(0, 200)}`,
      );
      const env = Object.fromEntries(Object.entries(first.env).filter((e): e is [string, string] => typeof e[1] === "string"));
      const files = isObject(first.files)
        ? Object.fromEntries(Object.entries(first.files).filter((e): e is [string, string] => typeof e[1] === "string"))
        : {};
      printed = { command: strings(first.command), env, files, prompt: first.prompt };
      // Read without the joiners that make the prompt inert: a secret must not hide behind them.
      const shown = `${run.stdout}\n${run.stderr}`.replaceAll("\u2060", "");
      const leaked = engineSecrets().filter((secret) => secretFragments(secret.value).some((fragment) => shown.includes(fragment)));
      return allOf([
        () => must(setup.fake.requests.length === 0, `the fake got ${setup.fake.requests.length} requests`),
        () => {
          const changes = historyChanges(before, snapshotHistory(home, agentFolders(home), []));
          must(changes.length === 0, `the agent's HOME changed: ${changes.join("; ")}`);
        },
        () => must((printed?.prompt ?? "").includes(LAST_REQUEST), "the prompt lacks the session's last request"),
        () => must(leaked.length === 0, `${leaked.length} planted secrets printed`),
      ]);
    });
    if (!ok || !printed) return;
    const shown = printed;
    await checks.run(
      agent.name,
      "engine --dry-run: the printed command, run by hand, is the run: our instruction, the last request, no tool, the fake's document",
      async () => {
        const folders: Record<string, string> = {};
        for (const [placeholder, name] of Object.entries(PLACEHOLDERS)) {
          folders[placeholder] = join(setup.sandbox.tmp, `by-hand-${name}`);
          mkdirSync(folders[placeholder] ?? "", { recursive: true });
        }
        const fill = (text: string) =>
          Object.entries(folders).reduce((out, [placeholder, path]) => out.replaceAll(placeholder, path), text);
        const [executable = "", ...args] = shown.command.map(fill);
        const env = { ...setup.env, ...Object.fromEntries(Object.entries(shown.env).map(([k, v]) => [k, fill(v)])) };
        // The files the run writes into its empty folder first, as printed (Codex's instructions).
        for (const [name, text] of Object.entries(shown.files)) writeFileSync(join(folders["<new empty folder>"] ?? "", name), text);
        const run = await runAgent(
          [executable, ...args],
          { cwd: folders["<new empty folder>"] ?? "", env, stdin: shown.prompt, timeoutMs: 120_000 },
          dns,
        );
        const requests = setup.fake.modelRequests(setup.engine.wire);
        const sent = sentText(requests);
        return allOf([
          () => must(run.exitCode === 0, describeRun(run)),
          () =>
            must(
              setup.engine.answer(run.stdout)?.includes(WRITTEN_DOCUMENT.split("\n")[1] ?? "") === true,
              "no answer with the fake's document",
            ),
          () =>
            must(sent.includes(DEFAULT_SYSTEM_PROMPT), "our system prompt did not reach the model: the printed run is not the whole run"),
          () => must(sent.includes(LAST_REQUEST), "the session's last request did not reach the model"),
          () => must(requests.flatMap(offeredTools).length === 0, `tools offered: ${requests.flatMap(offeredTools).join(", ")}`),
          () => must(filesHolding(home, [home], LAST_REQUEST).length === 0, "a file in HOME keeps the prompt"),
        ]);
      },
    );
  } finally {
    await setup.fake.stop();
  }
}
