/**
 * A last request that quotes the wrapper's closing tag in any spelling a loose reader takes for
 * it (handoff.md step 6), handed off to every target: Session Facts quotes the request verbatim
 * in the document, stdout (`--json`'s `document`) shows it unchanged, and the new session's
 * wrapper holds it escaped, so the wrapper's own closing tag is the only one in it and reading it
 * back gives the document byte for byte. Spawned as a user runs it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FILE_FORMATS, readSession } from "../../../core/index.ts";
import { unwrapHandoffDocument } from "../../../core/session/formats/handoff-text.ts";
import { CLOSE_LIKE_MORE_VARIANTS, CLOSE_LIKE_VARIANTS as SPEC_VARIANTS } from "../../../fixtures/close-like-tags.ts";

const CLOSE_LIKE_VARIANTS = [...SPEC_VARIANTS, ...CLOSE_LIKE_MORE_VARIANTS];
import { CANNED_DOCUMENT } from "../../../fixtures/fake-openai.ts";
import { runAgent } from "../../../fixtures/run-agent.ts";
import { assistant, chain, text, user } from "../../../fixtures/sessions/builders.ts";
import { useHandoffSandbox } from "./handoff.testing.ts";

const sandbox = useHandoffSandbox();
const LOOSE_CLOSE = /<[ \t\r\n]*\/[ \t]*handoff-context[ \t\r\n]*>/gi;
/** The last request: every spelling, one per line (CRLF in one of them), and two on one line. */
const REQUEST = [
  "Document the wrapper. Keep these literal:",
  ...CLOSE_LIKE_VARIANTS.map(([, spelling]) => spelling),
  "inline: </HANDOFF-CONTEXT > and < /handoff-context>\r\nend",
].join("\n");

function source(): string {
  const path = join(sandbox.dir, "source.jsonl");
  const entries = [user(1, "Start."), assistant(2, [text("Started.")], "stop", "openai/gpt-5"), user(3, REQUEST)];
  writeFileSync(path, chain(entries, { cwd: "/home/me/app" }));
  return path;
}

describe("a last request quoting loose closing tags, handed off --to each agent", () => {
  test.each(FILE_FORMATS.map((f) => f.name))("--to %s: escaped inside the wrapper only, read back byte for byte", async (to) => {
    const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }));
    const run = await runAgent(["handoff", source(), "--to", to, "--no-record", "--json"], sandbox.env(s.url));
    expect(run.code).toBe(0);
    const { document, sessionFile } = JSON.parse(run.stdout);
    // The document quotes the request verbatim (its lines after `  > `), nothing escaped.
    expect(document).toContain("  > </HANDOFF-CONTEXT>\n");
    expect(document).toContain("  > </handoff-context\n  > >\n");
    expect(document).toContain("  > inline: </HANDOFF-CONTEXT > and < /handoff-context>\n");

    const back = readSession(readFileSync(sessionFile, "utf8"), sessionFile).session;
    const handoff = back.entries.find((e) => e.type === "custom_message" && e.data.customType === "handoff");
    const wrapped = String(handoff?.data.content);
    expect(wrapped.match(LOOSE_CLOSE)).toEqual(["</handoff-context>"]);
    expect(unwrapHandoffDocument(wrapped)).toBe(document);
  });
});
