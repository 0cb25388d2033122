import { describe, expect, test } from "bun:test";
import { call, message, text, toolResult, user } from "../../fixtures/sessions/builders.ts";
import { answer, ask, compaction, contextOf, shape, shapeOf } from "../../fixtures/sessions/context.ts";
import { loadFixture, textOf } from "../../fixtures/sessions/load.ts";
import type { ResolveBlob } from "./convert.ts";

describe("omp entries", () => {
  const blobHash = "ab".repeat(32);
  const blobImage = { type: "image", data: `blob:sha256:${blobHash}`, mimeType: "image/png" };

  test("the context restarts after the newest reset boundary, even past a compaction", () => {
    const entries = [
      ask(1),
      compaction("e01"),
      answer(3),
      { type: "reset_boundary" },
      ask(5),
      { type: "reset_boundary" },
      ask(7),
      answer(8),
    ];
    expect(shapeOf(entries)).toEqual(["e07:user", "e08:assistant"]);
  });

  test("a compaction after the boundary cannot keep entries from before it", () => {
    const entries = [ask(1), { type: "reset_boundary" }, ask(3), compaction("e01"), ask(5)];
    expect(shapeOf(entries)).toEqual(["e04:compactionSummary", "e05:user"]);
  });

  test("developer messages are user-side messages of their own kind", () => {
    const [developer] = contextOf([message({ role: "developer", content: "harness note" })]);
    expect(developer).toEqual({ role: "user", kind: "developer", content: [text("harness note")], entryId: "e01" });
  });

  test("a python run is wrapped like a shell run", () => {
    const [python] = contextOf([
      message({ role: "pythonExecution", code: "print(2)", output: "2\n", exitCode: 1, cancelled: false, truncated: false }),
    ]);
    expect(python).toMatchObject({ role: "user", kind: "pythonExecution" });
    expect(textOf(python)).toBe(
      "The user ran this Python code themselves:\n\n```python\nprint(2)\n```\n\nOutput:\n```\n2\n```\n\nExit code: 1",
    );
  });

  test("a file mention lists each file with its content, or says it was not recorded", () => {
    const [mention] = contextOf([message({ role: "fileMention", files: [{ path: "a.ts", content: "let a = 1;" }, { path: "b.bin" }] })]);
    expect(textOf(mention)).toBe("The user attached these files:\n\na.ts\n```\nlet a = 1;\n```\n\nb.bin (content not recorded)");
  });

  test("a file mention without files adds nothing", () => {
    expect(shapeOf([message({ role: "fileMention", files: [] })])).toEqual([]);
  });

  test("a blob reference is restored from the blob store when it is there", () => {
    const asked: string[] = [];
    const resolve: ResolveBlob = (hash) => {
      asked.push(hash);
      return "UE5H";
    };
    const [withImage] = contextOf([user(1, [text("look"), blobImage])], resolve);
    expect(withImage?.content).toEqual([text("look"), { type: "image", data: "UE5H", mimeType: "image/png" }]);
    expect(asked).toEqual([blobHash]);
  });

  test.each([
    { name: "the blob is not on this machine", resolve: () => undefined },
    { name: "no blob store was given", resolve: undefined },
  ])("a blob reference becomes a short placeholder when $name, never the reference", ({ resolve }) => {
    const context = contextOf([user(1, [blobImage]), toolResult(2, "c", "read", [blobImage])], resolve);
    expect(context[0]?.content).toEqual([text(`[image not available: image/png blob ${blobHash.slice(0, 12)} is not on this machine]`)]);
    expect(JSON.stringify(context)).not.toContain("blob:sha256:");
  });

  test("a malformed blob reference is never passed to the blob store", () => {
    let asked = false;
    const context = contextOf([user(1, [{ type: "image", data: "blob:sha256:../../etc/passwd", mimeType: "image/png" }])], () => {
      asked = true;
      return "x";
    });
    expect(asked).toBe(false);
    expect(context[0]?.content[0]).toMatchObject({ type: "text" });
  });

  test("the omp fixture: only what follows the reset boundary, private python left out", () => {
    const { analysis } = loadFixture("omp.jsonl");
    expect(shape(analysis.context)).toEqual([
      "d0000008:developer",
      "d0000009:user",
      "d000000a:fileMention",
      "d000000b:pythonExecution",
      "d000000f:assistant",
      "d0000010:toolResult",
      "d0000012:custom",
      "d0000013:assistant",
    ]);
    expect(JSON.stringify(analysis.context)).not.toContain(".netrc");
    // omp's redactedThinking is not something another model can read.
    expect(analysis.context[4]?.content).toEqual([call("call_2", "bash", { command: "bun test test/upload.test.ts" })]);
  });
});
