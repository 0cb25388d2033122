import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, HAS_SCRIPT, REPO, runAgent, runOnTerminal } from "../../fixtures/run-agent.ts";
import { ALL_ESCAPES, RAW_CONTROL } from "../../fixtures/terminal-escapes.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");

/** The example session with escapes in its cwd, model names, last request and an entry type. */
function hostileSession(): string {
  const lines = readFileSync(EXAMPLE, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  for (const value of lines) {
    if (value.type === "session") value.cwd = `/home/me/app${ALL_ESCAPES}`;
    if (value.type === "model_change") value.modelId = `gpt-5${ALL_ESCAPES}`;
  }
  const lastUser = lines.findLast((v) => v.type === "message" && v.message.role === "user");
  lastUser.message.content = `Quote the fields ${ALL_ESCAPES} please.`;
  const last = lines.at(-1);
  lines.push({ type: `weird${ALL_ESCAPES}`, id: "ffff0001", parentId: last.id, timestamp: last.timestamp });
  const path = join(sandbox.dir, "source.jsonl");
  writeFileSync(path, `${lines.map((v) => JSON.stringify(v)).join("\n")}\n`);
  return path;
}

describe("on a terminal, nothing from a session reaches the screen raw", () => {
  test.skipIf(!HAS_SCRIPT)("inspect: the summary and the warnings", async () => {
    const src = hostileSession();
    const out = await runOnTerminal(["inspect", src], cleanEnv(sandbox.home));
    // Escape sequences go whole: nothing of their bodies (`]0;pwned`) is left as text.
    // A carriage return in a field is shown as `\r`: it can neither rewrite the line nor start one.
    expect(out).toContain("cwd       /home/me/appclick\\rall good");
    expect(out).not.toContain("pwned");
    expect(out).toContain("last ask");
    expect(out).toContain('unknown entry type "weird');
    expect(out).not.toMatch(RAW_CONTROL);
  });

  test.skipIf(!HAS_SCRIPT)("handoff: the document and every message", async () => {
    const src = hostileSession();
    const out = await runOnTerminal(
      ["handoff", src, "--engine", "offline", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      cleanEnv(sandbox.home),
    );
    expect(out).toContain("## Session Facts");
    expect(out).toContain("Quote the fields clickall good");
    // The command to paste names the real folder, its controls written as $'…' escapes (text, not
    // acted on); everywhere else an escape sequence goes whole, nothing of its body left as text.
    const lines = out.split("\n");
    const resume = lines.find((line) => line.startsWith("Continue with: ")) ?? "";
    const others = lines.filter((line) => line !== resume);
    expect(resume).toStartWith("Continue with: cd $'/home/me/app\\x1b]0;pwned\\x07");
    expect(others.join("\n")).not.toContain("pwned");
    expect(out).not.toMatch(RAW_CONTROL);
    // The file keeps what the session said.
    expect(JSON.parse(readFileSync(join(sandbox.dir, "new.jsonl"), "utf8").split("\n")[1] ?? "").content).toContain(
      `Quote the fields ${ALL_ESCAPES} please.`,
    );
  });
});

describe("off a terminal, the product is unchanged and stderr is still clean", () => {
  test("inspect: the summary, one field a line, is as on a terminal (a pipe's reader is often one); so is the warning", async () => {
    const run = await runAgent(["inspect", hostileSession()], cleanEnv(sandbox.home));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("cwd       /home/me/appclick\\rall good");
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain('unknown entry type "weird');
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });

  test("inspect --json: every such character is a \\u escape, and the values are intact", async () => {
    const run = await runAgent(["inspect", hostileSession(), "--json"], cleanEnv(sandbox.home));
    expect(run.stdout).not.toMatch(RAW_CONTROL);
    const report = JSON.parse(run.stdout);
    expect(report.cwd).toBe(`/home/me/app${ALL_ESCAPES}`);
    expect(report.models.join(" ")).toContain(`gpt-5${ALL_ESCAPES}`);
  });

  test("handoff: the document on stdout is exactly the document", async () => {
    const run = await runAgent(
      ["handoff", hostileSession(), "--engine", "offline", "--no-record", "-o", join(sandbox.dir, "new.jsonl")],
      cleanEnv(sandbox.home),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Quote the fields ${ALL_ESCAPES} please.`);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe("every message for people is free of terminal controls", () => {
  const cases: { name: string; args: (dir: string, url: string) => string[]; status?: number; message?: string }[] = [
    {
      name: "an endpoint's error message",
      args: (dir) => ["handoff", join(dir, "source.jsonl"), "--retries", "0"],
      status: 400,
      message: `model ${ALL_ESCAPES} does not exist`,
    },
    {
      name: "an endpoint's 500 body",
      args: (dir) => ["handoff", join(dir, "source.jsonl"), "--retries", "0"],
      status: 500,
      message: `overloaded ${ALL_ESCAPES}`,
    },
    { name: "a missing file's name", args: (dir) => ["inspect", join(dir, `missing${ALL_ESCAPES}.jsonl`)] },
    { name: "an unknown command", args: () => [`inspect${ALL_ESCAPES}`] },
    { name: "an unknown flag", args: (dir) => ["inspect", join(dir, "source.jsonl"), `--json${ALL_ESCAPES}`] },
    { name: "a base URL that is not one", args: (dir) => ["handoff", join(dir, "source.jsonl"), "--base-url", `ftp://x${ALL_ESCAPES}`] },
    { name: "a --leaf that is not in the session", args: (dir) => ["inspect", join(dir, "source.jsonl"), "--leaf", `nope${ALL_ESCAPES}`] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      sandbox.source(EXAMPLE);
      const s = sandbox.serve(() => ({ status: c.status ?? 200, error: { message: c.message ?? "" }, text: "" }));
      const run = await runAgent([...c.args(sandbox.dir, s.url), "--verbose"], sandbox.env(s.url));
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/^error: |^Handoff failed: /m);
      expect(run.stderr).not.toMatch(RAW_CONTROL);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
  }
});
