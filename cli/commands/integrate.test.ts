import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  symlinkSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runCli } from "../main.ts";
import { memoryIo, REPO } from "../../fixtures/run-agent.ts";
import { AGENT, HOST, integrate, integrateHomes } from "./integrate.testing.ts";

const { freshHome } = integrateHomes("integrate");

/** Every file under `dir`, path → bytes (what "byte-identical" compares), and every folder (`<path>/`), our own state's too. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        out[`${path.slice(dir.length)}/`] = "";
        walk(path);
      } else out[path.slice(dir.length)] = readFileSync(path, "latin1");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const OTHER = (event: string) =>
  `${JSON.stringify({ model: "opus", hooks: { [event]: [{ hooks: [{ type: "command", command: "echo mine" }] }] } }, null, 4)}\n`;

/** Each agent: the settings file integrate merges, the event, its own file, where its home is moved to. */
const AGENTS = [
  {
    agent: "claude-code",
    settings: ".claude/settings.json",
    event: "UserPromptExpansion",
    own: ".claude/commands/handoff.md",
    homeVar: "CLAUDE_CONFIG_DIR",
  },
  {
    agent: "codex",
    settings: ".codex/hooks.json",
    event: "UserPromptSubmit",
    own: ".codex/skills/handoff/SKILL.md",
    homeVar: "CODEX_HOME",
  },
] as const;

const STATES: [string, (event: string) => string | undefined][] = [
  ["no file", () => undefined],
  ["an empty file", () => ""],
  ["blank lines", () => "\n\n"],
  ["{}", () => "{}\n"],
  ["other hooks of the same event", OTHER],
  ["one line", (event) => JSON.stringify({ hooks: { [event]: [] }, theme: "dark" })],
  // Text decoding drops a byte-order mark; it must come back on write, or --uninstall cannot give back the bytes.
  ["a byte-order mark first", (event) => `\uFEFF${OTHER(event)}`],
  // Made on Windows: the lines we insert end as the file's own do.
  ["CRLF line ends", (event) => OTHER(event).replaceAll("\n", "\r\n")],
  ["CRLF and a byte-order mark", (event) => `\uFEFF${OTHER(event).replaceAll("\n", "\r\n")}`],
  ["no final line break", (event) => OTHER(event).trimEnd()],
];

describe.each(AGENTS)("agent integrate $agent", ({ agent, settings, event, own, homeVar }) => {
  test.each(STATES)("%s: installs once, a second run changes nothing, --uninstall gives back the same bytes", async (_, make) => {
    const { home, env } = freshHome();
    const start = make(event);
    // A config file of the agent's own, with comments: never touched.
    const toml = join(home, agent === "codex" ? ".codex/config.toml" : ".claude/keep.toml");
    mkdirSync(dirname(toml), { recursive: true });
    writeFileSync(toml, '# my settings\nmodel = "x" # trailing\n\n[tui]\n# nothing\n');
    if (start !== undefined) {
      mkdirSync(dirname(join(home, settings)), { recursive: true });
      writeFileSync(join(home, settings), start);
    }
    const before = files(home);

    const first = await integrate([agent], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `${agent}:\n  ${start === undefined ? "wrote" : "changed"} ${join(home, settings)}\n  wrote ${join(home, own)}\n`,
    );
    const written = readFileSync(join(home, settings), "utf8");
    expect(written.startsWith("\uFEFF")).toBe(start?.startsWith("\uFEFF") ?? false);
    const merged = JSON.parse(written.replace(/^\uFEFF/, ""));
    const entries = merged.hooks[event] as { hooks: { command: string; timeout: number }[] }[];
    const ours = entries.filter((e) => e.hooks.some((h) => h.command.includes(`'${AGENT}' hook ${agent};`)));
    expect(ours).toHaveLength(1);
    expect(ours[0]?.hooks[0]?.timeout).toBe(600);
    expect(readFileSync(toml, "utf8")).toBe(before[toml.slice(home.length)] ?? "");
    if (start?.includes("\r\n")) expect(written.replaceAll("\r\n", "")).not.toContain("\n");
    const installed = files(home);

    const second = await integrate([agent], env);
    expect(second).toMatchObject({ code: 0, stderr: "" });
    expect(second.stdout).toStartWith(`${agent}: nothing to change (installed, current)\n`);
    expect(files(home)).toEqual(installed);

    const status = await integrate(["--status"], env);
    expect(status.stdout).toContain(`${agent}: installed, current\n  current: ${join(home, settings)}\n  current: ${join(home, own)}\n`);

    const removed = await integrate([agent, "--uninstall"], env);
    expect(removed.code).toBe(0);
    expect(files(home)).toEqual(before);
    const again = await integrate([agent, "--uninstall"], env);
    expect(again.stdout).toBe(`${agent}: nothing to change (not installed)\n`);
  });

  test("no home folder yet: --uninstall removes the folders integrate made, not one the user has filled since", async () => {
    const { home, env } = freshHome();
    const before = files(home);
    await integrate([agent], env);
    await integrate([agent, "--uninstall"], env);
    expect(files(home)).toEqual(before);
    await integrate([agent], env);
    const mine = join(dirname(join(home, own)), "mine.md");
    writeFileSync(mine, "mine\n");
    await integrate([agent, "--uninstall"], env);
    expect(Object.keys(files(home)).filter((name) => !name.endsWith("/") && !name.startsWith("/.local"))).toEqual([
      mine.slice(home.length),
    ]);
  });

  test("settings kept elsewhere behind a symbolic link: changed there, the link stays a link, --uninstall gives back the bytes", async () => {
    const { home, env } = freshHome();
    const dotfiles = join(home, "dotfiles", "settings.json");
    mkdirSync(dirname(dotfiles), { recursive: true });
    writeFileSync(dotfiles, OTHER(event));
    mkdirSync(dirname(join(home, settings)), { recursive: true });
    symlinkSync(dotfiles, join(home, settings));
    const result = await integrate([agent], env);
    expect(result.stdout).toContain(`  changed ${dotfiles}\n`);
    expect(lstatSync(join(home, settings)).isSymbolicLink()).toBe(true);
    expect(readFileSync(dotfiles, "utf8")).toContain(` hook ${agent};`);
    await integrate([agent, "--uninstall"], env);
    expect(lstatSync(join(home, settings)).isSymbolicLink()).toBe(true);
    expect(readFileSync(dotfiles, "utf8")).toBe(OTHER(event));
  });

  test("an edit made since: --uninstall takes out our entry only, the edit stays", async () => {
    const { home, env } = freshHome();
    await integrate([agent], env);
    const path = join(home, settings);
    writeFileSync(path, readFileSync(path, "utf8").replace("{\n", '{\n  "theme": "dark",\n'));
    await integrate([agent, "--uninstall"], env);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ theme: "dark", hooks: { [event]: [] } });
    expect(existsSync(join(home, own))).toBe(false);
  });

  test(`${homeVar} is where it installs`, async () => {
    const { home, env } = freshHome();
    const elsewhere = join(home, "elsewhere");
    const result = await integrate([agent], { ...env, [homeVar]: elsewhere });
    expect(result.code).toBe(0);
    expect(
      Object.keys(files(home))
        .filter((name) => !name.endsWith("/"))
        .sort(),
    ).toEqual(
      [
        `/elsewhere/${settings.split("/").slice(1).join("/")}`,
        `/elsewhere/${own.split("/").slice(1).join("/")}`,
        "/.local/state/agent/integrations.json",
      ].sort(),
    );
  });

  test.each<[string, (path: string) => void, RegExp]>([
    [
      "a read-only settings file",
      (path) => (writeFileSync(path, "{}\n"), chmodSync(path, 0o444)),
      /: cannot be changed: it is read-only; nothing was changed\n$/,
    ],
    [
      "settings that are not JSON",
      (path) => writeFileSync(path, '{\n  "a": 1,\n  oops\n}\n'),
      /:3: is not JSON: a key that is not a string; nothing was changed\n$/,
    ],
    [
      "hooks that are not an object",
      (path) => writeFileSync(path, '{\n  "hooks": []\n}\n'),
      /:2: "hooks" is not an object; nothing was changed\n$/,
    ],
    [
      "hooks twice (the agent reads only the last)",
      (path) => writeFileSync(path, '{\n  "hooks": {},\n  "hooks": {}\n}\n'),
      /:3: has "hooks" twice in one object \(the agent reads only the last\); nothing was changed\n$/,
    ],
  ])("%s: one error naming the file, nothing written", async (_, prepare, message) => {
    const { home, env } = freshHome();
    const path = join(home, settings);
    mkdirSync(dirname(path), { recursive: true });
    prepare(path);
    const before = files(home);
    const result = await integrate([agent], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toHaveLength(2);
    expect(result.stderr).toStartWith(`error: ${path}`);
    expect(result.stderr).toMatch(message);
    expect(files(home)).toEqual(before);
    chmodSync(path, 0o644);
  });

  test.each<[string, (text: string) => string]>([
    ["made not JSON by an edit", (text) => text.replace("{", "{ oops")],
    ["hooks twice after an edit", (text) => text.replace("{", '{ "hooks": {},')],
    ["binary data", () => "\u0000\u0001"],
  ])("--status on settings that are %s: says it cannot tell, not that nothing is installed", async (_, edit) => {
    const { home, env } = freshHome();
    await integrate([agent], env);
    const path = join(home, settings);
    writeFileSync(path, edit(readFileSync(path, "utf8")));
    const status = await integrate(["--status", agent], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(
      `${agent}: cannot tell: run agent integrate to see why\n  cannot be read: ${path}\n  current: ${join(home, own)}\n`,
    );
  });

  test.each(["--uninstall", "again"])("a hook of the user's put in our entry: %s refuses, the user's hook stays", async (how) => {
    const { home, env } = freshHome();
    await integrate([agent], env);
    const path = join(home, settings);
    const settingsText = readFileSync(path, "utf8").replace(
      '"timeout": 600\n',
      '"timeout": 600\n          },\n          { "type": "command", "command": "echo mine"\n',
    );
    writeFileSync(path, settingsText);
    const result = await integrate(how === "again" ? [agent] : [agent, how], env);
    expect(result.stderr).toMatch(
      /:\d+: "hooks"\."\w+" has an entry with our hook and another in it; move the other to an entry of its own; nothing was changed\n$/,
    );
    expect(result.code).toBe(2);
    expect(readFileSync(path, "utf8")).toBe(settingsText);
  });

  test("a file of the user's where ours would go is refused, nothing written", async () => {
    const { home, env } = freshHome();
    mkdirSync(dirname(join(home, own)), { recursive: true });
    writeFileSync(join(home, own), "my own handoff\n");
    const before = files(home);
    const result = await integrate([agent], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${join(home, own)}: is not ours (not written by agent integrate); move it away first; nothing was changed\n`,
    );
    expect(files(home)).toEqual(before);
  });

  test("an agent moved since: the entry is outdated, then brought up to date in place", async () => {
    const { home, env } = freshHome();
    await integrate([agent], env);
    const io = { ...memoryIo(env, REPO), host: { ...HOST, program: { executable: "/usr/local/bin/agent", script: undefined } } };
    const status = await runCli(["integrate", "--status", agent], io);
    expect(status).toBe(0);
    expect(io.stdout.text()).toStartWith(`${agent}: installed, outdated: run agent integrate again\n  outdated: ${join(home, settings)}\n`);
    const io2 = { ...memoryIo(env, REPO), host: io.host };
    await runCli(["integrate", agent], io2);
    const text = readFileSync(join(home, settings), "utf8");
    expect(text).toContain("'/usr/local/bin/agent' hook");
    expect(text).not.toContain(AGENT);
  });
});

const IN_TEMP = [realpathSync(tmpdir()), "/tmp"].some((dir) => REPO.startsWith(`${dir}/`));

describe("agent integrate: where the agent the hook runs lives", () => {
  test.each<[string, { executable: string; script: string | undefined }, string | undefined]>([
    ["an installed binary: nothing to say", { executable: AGENT, script: undefined }, undefined],
    [
      "a script in a checkout",
      { executable: process.execPath, script: join(REPO, "cli/index.ts") },
      // A checkout cloned into the temp folder (as CI may) is a temporary copy first.
      IN_TEMP
        ? `the hook runs agent from ${join(REPO, "cli/index.ts")}, a temporary copy`
        : `the hook runs agent from the checkout ${REPO}`,
    ],
    [
      "a copy in the temp folder (bunx, npx)",
      { executable: "/tmp/bunx-0-agent/agent", script: undefined },
      "the hook runs agent from /tmp/bunx-0-agent/agent, a temporary copy",
    ],
  ])("%s", async (_, program, notice) => {
    const { env } = freshHome();
    const io = { ...memoryIo(env, REPO), host: { ...HOST, program } };
    expect(await runCli(["integrate", "codex"], io)).toBe(0);
    if (notice === undefined) expect(io.stderr.text()).toBe("");
    else expect(io.stderr.text()).toStartWith(notice);
  });
});

describe("agent integrate: which agents", () => {
  test("--all: every agent whose home exists (none on PATH here)", async () => {
    const { home, env } = freshHome();
    mkdirSync(join(home, ".codex"));
    const result = await integrate(["--all"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toStartWith(`codex:\n  wrote ${join(home, ".codex/hooks.json")}\n`);
    expect(result.stdout).not.toContain("claude-code");
    expect(result.stdout).toContain('Codex asks at its next start to trust the hook, which it has not trusted yet ("Hooks need review")');
  });

  test.each<[string[], string]>([
    [[], "error: an agent is needed (claude-code, codex, pi, omp), or --all (see agent integrate --help)\n"],
    [["vim"], 'error: "vim" has no /handoff integration; agents: claude-code, codex, pi, omp (see agent integrate --help)\n'],
    [["codex", "--all"], "error: give an agent or --all, not both (see agent integrate --help)\n"],
    [["codex", "--status", "--uninstall"], "error: give --status or --uninstall, not both (see agent integrate --help)\n"],
  ])("%p: a usage error", async (args, stderr) => {
    const { env } = freshHome();
    expect(await integrate(args, env)).toEqual({ code: 2, stdout: "", stderr });
  });

  test("claude is Claude Code", async () => {
    const { home, env } = freshHome();
    expect((await integrate(["claude"], env)).code).toBe(0);
    expect(statSync(join(home, ".claude/settings.json")).isFile()).toBe(true);
  });
});
