import { describe, expect, test } from "bun:test";
import { AgentError } from "../core/index.ts";
import { fileError, fsReason } from "./fs-errors.ts";

function systemError(code: string, message = `${code}: the system's words`): Error {
  return Object.assign(new Error(message), { code });
}

describe("one wording for every file-system failure, read or write", () => {
  test.each([
    ["ENOENT", "no such file or folder"],
    ["EACCES", "permission denied"],
    ["EPERM", "operation not permitted"],
    ["EISDIR", "it is a directory"],
    ["ENXIO", "nothing can be read from it (a socket?)"],
    ["ENOSPC", "no space left on the device"],
    ["EROFS", "read-only file system"],
    ["EEXIST", "already exists; refusing to overwrite it"],
  ])("%s: %s", (code, words) => {
    expect(fsReason(systemError(code))).toBe(words);
    expect(fileError("a/b.jsonl", systemError(code)).message).toBe(`a/b.jsonl: ${words}`);
  });

  test("a code we do not list keeps the system's own words", () => {
    expect(fsReason(systemError("ELOOP", "ELOOP: too many symbolic links"))).toBe("ELOOP: too many symbolic links");
    expect(fsReason("thrown as a string")).toBe("thrown as a string");
  });

  test("an error of ours passes through unchanged", () => {
    const ours = new AgentError("FILE", "x: said already");
    expect(fileError("y", ours)).toBe(ours);
  });
});
