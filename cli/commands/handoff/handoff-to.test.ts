/**
 * `agent handoff --to`: every source format × every target the table lists, run as a user
 * runs it, with the offline engine (no model, no network) and a HOME of the test's own. Where
 * the file lands, what it opens with, which model it names, how our own reader reads it back,
 * and what --json says. (`bun run compat` hands the same pairs to the real agents.)
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { analyzeBranch, describeFormatNames, FILE_FORMATS, readSession, type FileAgentName } from "../../../core/index.ts";
import { wrapHandoffDocument } from "../../../core/handoff/wrap.ts";
import { cleanEnv, REPO, runAgent } from "../../../fixtures/run-agent.ts";
import { filesIn, useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();

interface Source {
  fixture: string;
  agent: FileAgentName;
  /** The cwd the source records (head -c 300 of each file). */
  cwd: string;
  /** The model its branch resumes with, as `provider/id` (`agent inspect --json`'s last model). */
  model: string;
  /** Codex's `model_provider` in its session_meta. */
  codexProvider?: string;
  /** The fixture, changed before it is handed off. */
  edit?: (text: string) => string;
}

const SOURCES: Source[] = [
  {
    fixture: "fixtures/real/gemini/session-2026-12-03T05-51-ac74b73f.jsonl",
    agent: "gemini",
    cwd: "/home/dev/greeter",
    // Gemini's messages name a model but no provider: no other agent can resume with it.
    model: "gemini-2.5-flash",
    edit: (text) => text.replaceAll("/tmp/agent-compat/gemini-transcript/project", "/home/dev/greeter"),
  },
  { fixture: "fixtures/handoff-markers.jsonl", agent: "pi", cwd: "/home/me/parser", model: "openai/gpt-5" },
  { fixture: "fixtures/sessions/v1.jsonl", agent: "pi", cwd: "/home/dev/users", model: "anthropic/claude-sonnet-4-5" },
  { fixture: "fixtures/sessions/omp.jsonl", agent: "omp", cwd: "/home/dev/uploader", model: "openai/gpt-5.1" },
  {
    fixture: "fixtures/sessions/claude-code/split.jsonl",
    agent: "claude-code",
    cwd: "/home/dev/shop",
    model: "anthropic/claude-sonnet-4-5",
  },
  {
    fixture: "fixtures/sessions/codex/compaction.jsonl",
    agent: "codex",
    cwd: "/home/dev/shop",
    model: "openai/gpt-5",
    codexProvider: "openai",
  },
  {
    fixture: "fixtures/sessions/codex/compaction.jsonl (a provider of the user's own Codex configuration)",
    agent: "codex",
    cwd: "/home/dev/shop",
    model: "my-proxy/gpt-5",
    codexProvider: "my-proxy",
    edit: (text) => text.replace('"model_provider":"openai"', '"model_provider":"my-proxy"'),
  },
];

/** Where each agent keeps the sessions of a cwd outside HOME and /tmp, under the test's HOME (see core/session/formats/location.test.ts). */
const AGENT_FOLDER: Record<FileAgentName, (home: string, cwd: string) => string | RegExp> = {
  pi: (home, cwd) => join(home, ".pi", "agent", "sessions", `--${cwd.slice(1).replaceAll("/", "-")}--`),
  omp: (home, cwd) => join(home, ".omp", "agent", "sessions", `--${cwd.slice(1).replaceAll("/", "-")}--`),
  "claude-code": (home, cwd) => join(home, ".claude", "projects", cwd.replaceAll("/", "-")),
  // Today's date where the user is: not known ahead at midnight.
  codex: (home) => new RegExp(`^${join(home, ".codex", "sessions")}/\\d{4}/\\d{2}/\\d{2}$`),
  // A folder Gemini has not seen: named after its last folder (projects.json gets the entry).
  gemini: (home, cwd) => join(home, ".gemini", "tmp", basename(cwd), "chats"),
};

/** What a new session's first line is, for each target. */
const FIRST_LINE_TYPE: Record<FileAgentName, string | undefined> = {
  pi: "session",
  omp: "title",
  "claude-code": "user",
  codex: "session_meta",
  gemini: undefined,
};

/**
 * The model a new session names for its agent to resume with: pi's and omp's model entry,
 * the model of Claude Code's acknowledgement, Codex's `model_provider`.
 */
function namedModel(target: FileAgentName, content: string): string | undefined {
  const lines = content
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  if (target === "claude-code") return lines[1]?.message?.model;
  if (target === "codex") return lines[0]?.payload?.model_provider;
  return lines.find((line) => line.type === "model_change")?.model;
}

/**
 * What the new session must name: pi and omp resume with the source's model when its provider is
 * one they have (a Codex provider is a key of that user's Codex configuration; only `openai` is
 * theirs too); Claude Code with the source's model only from a Claude Code session (else its
 * `<synthetic>` mark: the user's default model); Codex with the source's provider only from Codex.
 */
function expectedModel(source: Source, target: FileAgentName): string | undefined {
  if (target === "gemini") return undefined; // Gemini CLI takes its model from its settings
  if (target === "claude-code") return source.agent === "claude-code" ? source.model.split("/")[1] : "<synthetic>";
  if (target === "codex") return source.agent === "codex" ? source.codexProvider : undefined;
  // Gemini's messages name no provider: pi and omp start with their default.
  if (source.agent === "gemini") return undefined;
  return source.agent !== "codex" || source.codexProvider === "openai" ? source.model : undefined;
}

const TARGETS = FILE_FORMATS.map((f) => f.name);

async function handoff(args: string[], extra: Record<string, string> = {}) {
  const run = await runAgent(["handoff", ...args, "--engine", "offline", "--json"], cleanEnv(sandbox.home, extra));
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : undefined };
}

describe("--to × sources: the new session is the target's, where the target looks for it", () => {
  const cases = SOURCES.flatMap((source) => [undefined, ...TARGETS].map((to) => [source.fixture, to ?? "(default)", source, to] as const));
  test.each(cases)("%s --to %s", async (_, __, source, to) => {
    const src = sandbox.source(join(REPO, source.fixture.split(" ")[0] ?? ""));
    if (source.edit) writeFileSync(src, source.edit(readFileSync(src, "utf8")));
    const original = readFileSync(src);
    const run = await handoff([src, ...(to ? ["--to", to] : [])]);
    expect(run.code).toBe(0);
    const target = to ?? source.agent;
    const recordable = source.agent === "pi" || source.agent === "omp";
    expect(run.json).toMatchObject({ sourceFormat: source.agent, sessionFormat: target, recorded: recordable });
    // Beside the source only for pi or omp handed to itself; Claude Code and Codex find sessions
    // only in their own folder, so even their own session goes there.
    const besideSource = target === source.agent && (target === "pi" || target === "omp");
    const folder = besideSource ? sandbox.dir : AGENT_FOLDER[target](sandbox.home, source.cwd);
    if (folder instanceof RegExp) expect(dirname(run.json.sessionFile)).toMatch(folder);
    else expect(dirname(run.json.sessionFile)).toBe(folder);
    const content = readFileSync(run.json.sessionFile, "utf8");
    expect(JSON.parse(content.split("\n")[0] ?? "").type).toBe(FIRST_LINE_TYPE[target]);
    expect(namedModel(target, content)).toBe(expectedModel(source, target));
    // Read back as the target's: it opens with the document, as --json printed it.
    const back = readSession(content, run.json.sessionFile);
    expect(back.session.format).toBe(target);
    expect(back.session.header.cwd).toBe(source.cwd);
    const [first] = analyzeBranch(back.session).context;
    expect(first?.content).toEqual([{ type: "text", text: wrapHandoffDocument(run.json.document) }]);
    // pi and omp sources are recorded into, whatever the target; Claude Code's and Codex's are left untouched.
    if (recordable) expect(readFileSync(src).length).toBeGreaterThan(original.length);
    else expect(readFileSync(src).equals(original)).toBe(true);
    if (target !== source.agent) {
      // The agent's folders did not exist: created for the user only.
      for (let f = dirname(run.json.sessionFile); f.startsWith(`${sandbox.home}/`); f = dirname(f))
        expect(statSync(f).mode & 0o777).toBe(0o700);
      expect(filesIn(sandbox.dir)).toEqual(["source.jsonl"]);
    }
  });
});

/** What is in the test's HOME, but for Bun's own cache. */
const ours = (home: string) => readdirSync(home).filter((name) => name !== ".bun");

describe("--to, the rest of the rules", () => {
  test("-o wins over the target's folder", async () => {
    const src = sandbox.source(join(REPO, "fixtures/sessions/omp.jsonl"));
    const out = join(sandbox.dir, "mine.jsonl");
    const run = await handoff([src, "--to", "pi", "-o", out]);
    expect(run.json).toMatchObject({ sessionFile: out, sessionFormat: "pi" });
    expect(existsSync(join(sandbox.home, ".pi"))).toBe(false);
  });

  test("the target agent's own overrides: PI_CODING_AGENT_DIR", async () => {
    const src = sandbox.source(join(REPO, "fixtures/sessions/omp.jsonl"));
    const run = await handoff([src, "--to", "pi"], { PI_CODING_AGENT_DIR: join(sandbox.home, "elsewhere") });
    expect(dirname(run.json.sessionFile)).toBe(join(sandbox.home, "elsewhere", "sessions", "--home-dev-uploader--"));
  });

  test("AGENT_TO and the config file's `to` choose the target; the flag wins over both", async () => {
    const src = sandbox.source(join(REPO, "fixtures/handoff-markers.jsonl"));
    const xdg = join(sandbox.home, "xdg");
    await Bun.write(join(xdg, "agent", "config.toml"), 'to = "omp"\n');
    expect((await handoff([src, "--no-record"], { XDG_CONFIG_HOME: xdg })).json.sessionFormat).toBe("omp");
    expect((await handoff([src, "--no-record"], { XDG_CONFIG_HOME: xdg, AGENT_TO: "pi" })).json.sessionFormat).toBe("pi");
    expect((await handoff([src, "--no-record", "--to", "omp"], { AGENT_TO: "pi" })).json.sessionFormat).toBe("omp");
  });

  test("a name no format has: exit 2, the names there are, nothing written", async () => {
    const src = sandbox.source();
    const original = readFileSync(src);
    const run = await runAgent(["handoff", src, "--engine", "offline", "--to", "aider"], cleanEnv(sandbox.home));
    expect([run.code, run.stdout, run.stderr]).toEqual([
      2,
      "",
      `error: --to takes ${describeFormatNames()}, not "aider" (see agent handoff --help)\n`,
    ]);
    sandbox.expectNothingWritten(src, original);
  });

  test("another agent, and a source that records no cwd: exit 2 before anything is written, saying to use -o", async () => {
    const text = readFileSync(join(REPO, "fixtures/handoff-markers.jsonl"), "utf8").replace(',"cwd":"/home/me/parser"', "");
    expect(text).not.toContain('"cwd"');
    const src = join(sandbox.dir, "source.jsonl");
    writeFileSync(src, text);
    const run = await runAgent(["handoff", src, "--engine", "offline", "--to", "omp"], cleanEnv(sandbox.home));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "error: the session records no working directory (or not an absolute one), so there is no omp folder for it; say where the new session goes with -o\n",
    );
    sandbox.expectNothingWritten(src, Buffer.from(text));
    expect(ours(sandbox.home)).toEqual([]);
  });

  test("the target's folder cannot be made (a file in the way): exit 1, and no folder of ours is left behind", async () => {
    const src = sandbox.source();
    const original = readFileSync(src);
    writeFileSync(join(sandbox.home, ".omp"), "not a folder");
    const run = await runAgent(["handoff", src, "--engine", "offline", "--to", "omp"], cleanEnv(sandbox.home));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Handoff failed: could not write the new session: ${join(sandbox.home, ".omp", "agent", "sessions", "--home-me-parser--")}: a part of the path is not a folder`,
    );
    sandbox.expectNothingWritten(src, original);
    expect(ours(sandbox.home)).toEqual([".omp"]);
  });

  test("a session read from stdin and handed to its own agent lands in the current folder; to another, in that agent's", async () => {
    const env = cleanEnv(sandbox.home);
    const fixture = join(REPO, "fixtures/handoff-markers.jsonl");
    const same = await runAgent(["handoff", "-", "--engine", "offline", "--json"], env, sandbox.dir, fixture);
    expect(dirname(JSON.parse(same.stdout).sessionFile)).toBe(sandbox.dir);
    const other = await runAgent(["handoff", "-", "--engine", "offline", "--json", "--to", "omp"], env, sandbox.dir, fixture);
    expect(dirname(JSON.parse(other.stdout).sessionFile)).toBe(join(sandbox.home, ".omp", "agent", "sessions", "--home-me-parser--"));
  });
});

describe("a Claude Code or Codex session from another home of its agent stays in that home", () => {
  // A second CLAUDE_CONFIG_DIR / CODEX_HOME the user runs the agent with, not the one set now.
  const cases = [
    {
      label: "Claude Code, ~/.claude-work",
      fixture: "fixtures/sessions/claude-code/split.jsonl",
      at: (home: string) => join(home, ".claude-work", "projects", "-home-dev-shop", "0d1e2f30-4152-4637-8849-5a6b7c8d9e0f.jsonl"),
      expected: (home: string) => join(home, ".claude-work", "projects", "-home-dev-shop"),
    },
    {
      label: "Claude Code, a project folder of another cwd",
      fixture: "fixtures/sessions/claude-code/split.jsonl",
      at: (home: string) => join(home, "work-claude", "projects", "-home-dev-other", "0d1e2f30-4152-4637-8849-5a6b7c8d9e0f.jsonl"),
      expected: (home: string) => join(home, "work-claude", "projects", "-home-dev-shop"),
    },
    {
      label: "Codex, ~/.codex-work",
      fixture: "fixtures/sessions/codex/compaction.jsonl",
      at: (home: string) =>
        join(home, ".codex-work", "sessions", "2026", "01", "02", "rollout-2026-01-02T10-00-00-0c0de000-1000-4000-8000-000000000001.jsonl"),
      expected: (home: string) => new RegExp(`^${join(home, ".codex-work", "sessions")}/\\d{4}/\\d{2}/\\d{2}$`),
    },
    {
      label: "Claude Code, a file not named as a session: the agent's folder now",
      fixture: "fixtures/sessions/claude-code/split.jsonl",
      at: (home: string) => join(home, ".claude-work", "projects", "-home-dev-shop", "copy.jsonl"),
      expected: (home: string) => join(home, ".claude", "projects", "-home-dev-shop"),
    },
    {
      label: "Codex, a rollout outside any sessions folder: the agent's folder now",
      fixture: "fixtures/sessions/codex/compaction.jsonl",
      at: (home: string) => join(home, "saved", "a", "b", "c", "rollout-2026-01-02T10-00-00-0c0de000-1000-4000-8000-000000000001.jsonl"),
      expected: (home: string) => new RegExp(`^${join(home, ".codex", "sessions")}/\\d{4}/\\d{2}/\\d{2}$`),
    },
  ];
  test.each(cases)("$label", async ({ fixture, at, expected }) => {
    const src = at(sandbox.home);
    mkdirSync(dirname(src), { recursive: true });
    copyFileSync(join(REPO, fixture), src);
    const run = await handoff([src]);
    expect(run.code).toBe(0);
    const folder = expected(sandbox.home);
    if (folder instanceof RegExp) expect(dirname(run.json.sessionFile)).toMatch(folder);
    else expect(dirname(run.json.sessionFile)).toBe(folder);
  });
});

describe("a pi or omp session named through a link: the new session goes beside the file itself", () => {
  // The folder the agent lists and picks "the most recent" in is the real file's, not the link's.
  const cases = [
    {
      label: "pi, a link in the home folder",
      fixture: "fixtures/handoff-markers.jsonl",
      agent: "pi" as const,
      link: (home: string) => join(home, "latest.jsonl"),
    },
    {
      label: "omp, a link in another folder",
      fixture: "fixtures/sessions/omp.jsonl",
      agent: "omp" as const,
      link: (home: string) => join(home, "saved", "it.jsonl"),
    },
    {
      label: "pi, a link to a link",
      fixture: "fixtures/handoff-markers.jsonl",
      agent: "pi" as const,
      link: (home: string) => join(home, "a", "b.jsonl"),
      via: (home: string) => join(home, "via.jsonl"),
    },
  ];
  test.each(cases)("$label", async ({ fixture, agent, link, via }) => {
    const folder = join(sandbox.home, `.${agent}`, "agent", "sessions", "--home-me-x--");
    mkdirSync(folder, { recursive: true });
    const real = join(folder, "2026-01-01T00-00-00-000Z_source.jsonl");
    copyFileSync(join(REPO, fixture), real);
    const name = link(sandbox.home);
    mkdirSync(dirname(name), { recursive: true });
    const hop = via?.(sandbox.home);
    if (hop) symlinkSync(real, hop);
    symlinkSync(hop ?? real, name);
    const run = await handoff([name]);
    expect(run.code).toBe(0);
    expect(dirname(run.json.sessionFile)).toBe(folder);
    expect(readdirSync(dirname(name)).filter((n) => n.endsWith(".jsonl"))).toEqual([basename(name)]);
    // The agent's "continue the most recent" finds the new one: it is the newest of the folder.
    expect(statSync(run.json.sessionFile).mtimeMs).toBeGreaterThan(statSync(real).mtimeMs);
  });
});
