import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const TRAILER = "The above is a handoff document from a previous session. Use this context to continue the work seamlessly.";
/** A document that talks about the wrapper itself, before five of its six sections. */
const MENTIONING = CANNED_DOCUMENT.replace("## Goal\n", "## Goal\nTeach src/wrap.ts to stop at `</handoff-context>` only at the end.\n");

describe("a document that mentions </handoff-context>", () => {
  test.each([
    ["as it is", MENTIONING],
    ["echoed inside the whole wrapper", `<handoff-context>\n${MENTIONING}\n</handoff-context>`],
    ["echoed inside the whole wrapper and its sentence", `<handoff-context>\n${MENTIONING}\n</handoff-context>\n\n${TRAILER}`],
  ])("answered %s: kept whole on stdout and in the source; escaped only inside the new session's wrapper", async (_, answer) => {
    const s = sandbox.serve(() => ({ text: answer }));
    const src = sandbox.source();
    const run = await runAgent(["handoff", src, "--no-facts"], sandbox.env(s.url));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${MENTIONING}\n`);
    expect(run.stderr).not.toContain("missing");

    const created = readdirSync(sandbox.dir).filter((f) => f !== "source.jsonl");
    const entry = JSON.parse(readFileSync(join(sandbox.dir, created[0] ?? ""), "utf8").split("\n")[1] ?? "{}");
    const escaped = MENTIONING.replace("`</handoff-context>`", "`<\\/handoff-context>`");
    expect(entry.content).toBe(`<handoff-context>\n${escaped}\n</handoff-context>\n\n${TRAILER}`);
    expect(entry.content.split("</handoff-context>")).toHaveLength(2);

    // The recorded answer is the last message line (a model entry follows it).
    const lines = readFileSync(src, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const recorded = lines.filter((l) => l.type === "message").at(-1);
    expect(recorded.message.content[0].text).toBe(MENTIONING);
  });
});
