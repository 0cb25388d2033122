import { describe, expect, test } from "bun:test";
import { AgentError } from "../../core/index.ts";
import { errorCode, fileError, fsReason, isMissing } from "./fs-errors.ts";

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
    ["ELOOP", "too many symbolic links"],
    ["EIO", "input/output error"],
    ["ENOEXEC", "not a program this system can run (a script without a #! line?)"],
  ])("%s: %s", (code, words) => {
    expect(fsReason(systemError(code))).toBe(words);
    expect(fileError("a/b.jsonl", systemError(code)).message).toBe(`a/b.jsonl: ${words}`);
  });

  test("a code we do not list keeps the system's own words", () => {
    expect(fsReason(systemError("EMFILE", "EMFILE: too many open files"))).toBe("EMFILE: too many open files");
    expect(fsReason("thrown as a string")).toBe("thrown as a string");
  });

  test.each([
    ["a system error", systemError("ENOENT"), "ENOENT", true],
    ["a folder on the way that is a file", systemError("ENOTDIR"), "ENOTDIR", true],
    ["one we may not read", systemError("EACCES"), "EACCES", false],
    ["a numeric code", Object.assign(new Error("x"), { code: 5 }), "5", false],
    ["an error without a code", new Error("plain"), "", false],
    ["a string thrown", "ENOENT", "", false],
    ["an object that only looks like one", { code: "ENOENT" }, "", false],
  ])("the code of %s, and whether it says the path is missing", (_, error, code, missing) => {
    expect(errorCode(error)).toBe(code);
    expect(isMissing(error)).toBe(missing);
  });

  test("an error of ours passes through unchanged", () => {
    const ours = new AgentError("FILE", "x: said already");
    expect(fileError("y", ours)).toBe(ours);
  });
});
