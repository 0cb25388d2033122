import { describe, expect, test } from "bun:test";
import { agentEngine } from "./table.ts";

/** omp's refused request as it prints it (`--mode json`), its message ending in the line that names the saved copy. */
function refused(errorMessage: string) {
  const message = { role: "assistant", content: [], stopReason: "error", errorStatus: 400, errorMessage };
  return { stdout: `${JSON.stringify({ type: "message_end", message })}\n`, stderr: "", exitCode: 1 };
}

const MESSAGE = "400 this model is not available to you\nthis model is not available to you (type=invalid_request_error param=400)";

describe("the copy of a refused request omp saved: its path is the rest of its line", () => {
  test.each([
    ["a plain HOME", "/home/dev/.omp/logs/http-400-requests/1796052159556-2xjdvms163mg6.json"],
    ["a HOME with a space", "/home/Jane Doe/.omp/logs/http-400-requests/1796052159556-2xjdvms163mg6.json"],
    ["spaces in a row and at the start of a name", "/tmp/a  b/ c/.omp/logs/http-400-requests/1-a.json"],
    ["non-ASCII letters", "/home/Zoë Müller/日本/.omp/logs/http-400-requests/1-a.json"],
    ["a tab", "/home/a\tb/.omp/logs/http-400-requests/1-a.json"],
    ["a profile's logs", "/home/dev/.omp/profiles/work/logs/http-400-requests/1-a.json"],
  ])("%s: the whole path is to be removed, and the message shown does not hold it", (_, path) => {
    for (const ending of ["", "\n", "\r\n", "  ", "\nmore the agent said"]) {
      const read = agentEngine("omp").read(refused(`${MESSAGE}\nraw-http-request=${path}${ending}`));
      expect(read).toMatchObject({ failure: "failed", remove: [path] });
      expect("failure" in read && read.message).toBe(
        `exit 1: 400 this model is not available to you this model is not available to you (type=invalid_request_error param=400)${ending.includes("more") ? " more the agent said" : ""}`,
      );
    }
  });

  test("a message that only mentions the words, inside a line, names nothing to remove", () => {
    const read = agentEngine("omp").read(refused(`${MESSAGE} raw-http-request=/etc/passwd`));
    expect(read).not.toHaveProperty("remove");
  });

  test("a copy omp could not save names nothing to remove", () => {
    const read = agentEngine("omp").read(refused(`${MESSAGE}\nraw-http-request-save-failed=EACCES: permission denied`));
    expect(read).not.toHaveProperty("remove");
  });
});
