import { describe, expect, test } from "bun:test";
import { wrapHandoffDocument } from "../../../handoff/wrap.ts";
import type { NewSessionInput } from "../types.ts";
import { codex } from "./index.ts";
import { configuredProvider, threadTitle } from "./thread-index.ts";

const NOW = new Date("2026-11-30T23:30:05.123Z");
const SESSION_ID = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
const WRAPPED = wrapHandoffDocument("## Goal\nShip rate limiting.\n\n## Next Steps\n1. run the tests");
const PATH = "/home/me/.codex/sessions/2026/11/30/rollout-2026-11-30T23-30-05-9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a.jsonl";
/** The file's modification time, with the fraction the file system gives (Codex keeps whole milliseconds). */
const MODIFIED_MS = NOW.getTime() + 2.7;

function rollout(source: NewSessionInput["source"] = { format: "pi", agentVersion: undefined, modelProvider: undefined }): string {
  return codex.renderNewSession({
    wrappedDocument: WRAPPED,
    sessionId: SESSION_ID,
    newEntryId: () => "00000000",
    timestamp: NOW,
    utcOffsetMinutes: 0,
    cwd: "/home/me/app",
    parentSession: "/home/me/src.jsonl",
    model: { pi: { provider: "openai", modelId: "gpt-5" }, omp: "openai/gpt-5" },
    source,
    acknowledgement: "",
  }).content;
}

const index = codex.sessionIndex;

describe("Codex's thread index: the row for a rollout we wrote, as Codex's own scan makes it", () => {
  const home = (env: Record<string, string>) => ({ home: "/home/me", env, tmpdir: "/tmp", runFolder: "/home/me" });
  /** A rollout of ours whose session_meta records /home/me/app, written from /elsewhere. */
  const placed = { content: rollout(), currentFolder: "/elsewhere" };

  // Codex 0.169's own rule: `sqlite_home` in config.toml (its AbsolutePathBuf: `~` and `~/` are the
  // home folder, other relative paths lie in Codex's home, the config file's folder), else
  // CODEX_SQLITE_HOME trimmed and not blank (relative: in the folder Codex runs in), else its home.
  test.each<[string, Record<string, string>, unknown, string]>([
    ["nothing set: Codex's home", {}, undefined, "/home/me/.codex"],
    ["CODEX_HOME", { CODEX_HOME: "/srv/codex" }, undefined, "/srv/codex"],
    ["CODEX_SQLITE_HOME", { CODEX_SQLITE_HOME: "/var/codex" }, { model: "o3" }, "/var/codex"],
    ["sqlite_home wins over CODEX_SQLITE_HOME", { CODEX_SQLITE_HOME: "/var/codex" }, { sqlite_home: "/data/db" }, "/data/db"],
    ["sqlite_home = ~", {}, { sqlite_home: "~" }, "/home/me"],
    ["sqlite_home = ~/db", {}, { sqlite_home: "~/db" }, "/home/me/db"],
    ["sqlite_home = ~//db", {}, { sqlite_home: "~//db" }, "/home/me/db"],
    ["sqlite_home = ~other/db: relative, in Codex's home", {}, { sqlite_home: "~other/db" }, "/home/me/.codex/~other/db"],
    ["sqlite_home relative: in Codex's home", {}, { sqlite_home: "db" }, "/home/me/.codex/db"],
    ["sqlite_home relative, with CODEX_HOME", { CODEX_HOME: "/srv/codex" }, { sqlite_home: "./state/../db" }, "/srv/codex/db"],
    ["sqlite_home = ..", {}, { sqlite_home: ".." }, "/home/me"],
    [
      "sqlite_home empty: Codex's home, over CODEX_SQLITE_HOME",
      { CODEX_SQLITE_HOME: "/var/codex" },
      { sqlite_home: "" },
      "/home/me/.codex",
    ],
    ["sqlite_home not a string: as if not set", { CODEX_SQLITE_HOME: "/var/codex" }, { sqlite_home: 5 }, "/var/codex"],
    ["CODEX_SQLITE_HOME blank: not set", { CODEX_SQLITE_HOME: "   " }, undefined, "/home/me/.codex"],
    ["CODEX_SQLITE_HOME empty: not set", { CODEX_SQLITE_HOME: "" }, undefined, "/home/me/.codex"],
    ["CODEX_SQLITE_HOME with blanks around it: trimmed", { CODEX_SQLITE_HOME: " /var/codex\n" }, undefined, "/var/codex"],
    [
      "CODEX_SQLITE_HOME relative: in the session's folder, where Codex resumes it",
      { CODEX_SQLITE_HOME: "db" },
      undefined,
      "/home/me/app/db",
    ],
    ["CODEX_SQLITE_HOME = ~/db: no ~ expansion", { CODEX_SQLITE_HOME: "~/db" }, undefined, "/home/me/app/~/db"],
  ])("%s", (_, env, config, folder) => {
    expect(index?.database(home(env), config, placed).join("/")).toBe(`${folder}/state_5.sqlite`);
  });

  test("a relative CODEX_SQLITE_HOME for a rollout with no absolute cwd: in the folder we run in", () => {
    const content = rollout().replace('"cwd":"/home/me/app"', '"cwd":"app"');
    expect(content).toContain('"cwd":"app"');
    expect(index?.database(home({ CODEX_SQLITE_HOME: "db" }), undefined, { content, currentFolder: "/elsewhere" }).join("/")).toBe(
      "/elsewhere/db/state_5.sqlite",
    );
  });

  test("the config file and the schema version we tested", () => {
    expect(index?.configFile({ home: "/home/me", env: {}, tmpdir: "/tmp", runFolder: "/home/me" })).toEqual([
      "/home/me",
      ".codex",
      "config.toml",
    ]);
    expect(index?.testedSchemaVersions).toEqual([62]);
  });

  test("holds the file's id, path, cwd, times and first message, listed with the interactive sessions", () => {
    const row = index?.row({ content: rollout(), path: PATH, modifiedMs: MODIFIED_MS, config: undefined });
    const updated = NOW.getTime() + 2;
    expect(row).toEqual({
      table: "threads",
      values: {
        id: SESSION_ID,
        rollout_path: PATH,
        created_at: Math.floor(NOW.getTime() / 1000),
        created_at_ms: NOW.getTime(),
        updated_at: Math.floor(updated / 1000),
        updated_at_ms: updated,
        recency_at: Math.floor(updated / 1000),
        recency_at_ms: updated,
        source: "vscode",
        model_provider: "openai",
        cwd: "/home/me/app",
        title: WRAPPED,
        first_user_message: WRAPPED,
        preview: WRAPPED,
        sandbox_policy:
          '{"type":"managed","file_system":{"type":"restricted","entries":[{"path":{"type":"special","value":{"kind":"root"}},"access":"read"}]},"network":"restricted"}',
        approval_mode: "on-request",
        cli_version: "0.169.0",
        originator: "agent-handoff",
        history_mode: "legacy",
      },
    });
  });

  test("names the provider the rollout names (a Codex source's), else the configured one", () => {
    const fromCodex = rollout({ format: "codex", agentVersion: "0.160.0", modelProvider: "my-proxy" });
    const values = (content: string, config: unknown) => index?.row({ content, path: PATH, modifiedMs: MODIFIED_MS, config }).values;
    expect(values(fromCodex, { model_provider: "azure" })?.model_provider).toBe("my-proxy");
    expect(values(fromCodex, undefined)?.cli_version).toBe("0.160.0");
    expect(values(rollout(), { model_provider: "azure" })?.model_provider).toBe("azure");
  });

  // [case, config.toml parsed, the provider Codex lists sessions under]
  const PROVIDERS: [string, unknown, string][] = [
    ["no config file", undefined, "openai"],
    ["a config naming none", { model: "gpt-5" }, "openai"],
    ["the top-level model_provider", { model_provider: "fake" }, "fake"],
    ["the active profile's", { model_provider: "fake", profile: "work", profiles: { work: { model_provider: "azure" } } }, "azure"],
    ["a profile naming none: the top-level one", { model_provider: "fake", profile: "work", profiles: { work: { model: "o3" } } }, "fake"],
    ["a profile that is not there", { model_provider: "fake", profile: "gone", profiles: {} }, "fake"],
    ["a value of another type", { model_provider: 3, profile: ["x"] }, "openai"],
  ];
  test.each(PROVIDERS)("the configured provider: %s", (_, config, provider) => {
    expect(configuredProvider(config)).toBe(provider);
  });

  // [case, the user_message event's text, the title Codex gives it]
  const TITLES: [string, string, string][] = [
    ["our document, as it is", WRAPPED, WRAPPED],
    ["blanks around it trimmed", "\n  carry on \t\n", "carry on"],
    ["the text after Codex's old request marker", "context first\n## My request for Codex: fix the parser\n", "fix the parser"],
  ];
  test.each(TITLES)("the title: %s", (_, message, title) => {
    expect(threadTitle(message)).toBe(title);
  });
});
