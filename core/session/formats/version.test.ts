import { describe, expect, test } from "bun:test";
import { chain, user } from "../../../fixtures/sessions/builders.ts";
import { parseSession } from "./pi/parse.ts";
import { pi } from "./pi/index.ts";
import type { SessionFormat } from "./types.ts";
import { isNewerVersion, newerVersionNotice } from "./version.ts";

describe("isNewerVersion: by the numbers", () => {
  test.each<[string, string, boolean]>([
    ["2.1.329", "2.1.328", true],
    ["2.2.0", "2.1.328", true],
    ["3.0.0", "2.1.328", true],
    ["2.1.328", "2.1.328", false],
    ["2.1.327", "2.1.328", false],
    ["2.1.1000", "2.1.328", true], // numbers, not text: 1000 > 328
    ["2.10.0", "2.9.9", true],
    ["2.1", "2.1.0", false],
    ["2.1.0.1", "2.1.0", true],
    ["v0.170.0", "0.169.0", true],
    ["0.169.0-alpha.3", "0.169.0", false], // a pre-release of the tested version is not newer
    ["0.170.0-alpha.3", "0.169.0", true],
    ["2.1.400 (Claude Code)", "2.1.328", true],
    ["", "2.1.328", false],
    ["latest", "2.1.328", false],
    ["2.1.400", "unknown", false],
  ])("%p after %p: %p", (version, tested, newer) => {
    expect(isNewerVersion(version, tested)).toBe(newer);
  });
});

describe("newerVersionNotice: one line when the agent that wrote the file is newer than the one we tested", () => {
  // A format like Claude Code's or Codex's, whose files name the agent's version.
  const AGENT: SessionFormat = { ...pi, label: "Some Agent", testedVersion: "2.1.328" };
  const written = (agentVersion: string | undefined) => {
    const session = parseSession(chain([user(1, "hi")]));
    return { ...session, header: { ...session.header, agentVersion } };
  };

  test("newer: names the agent, both versions, and what may go wrong", () => {
    expect(newerVersionNotice(written("2.1.400"), AGENT)).toBe(
      "written by Some Agent 2.1.400, newer than 2.1.328, the version we tested: its format may have changed, and parts of it may be misread",
    );
  });

  test.each([["2.1.328"], ["1.0.0"], [undefined]])("version %p: nothing to say", (version) => {
    expect(newerVersionNotice(written(version), AGENT)).toBeUndefined();
  });

  test("a format without a tested version: nothing to say", () => {
    expect(newerVersionNotice(written("9.9.9"), { ...AGENT, testedVersion: undefined })).toBeUndefined();
  });

  test("the version is printed as the caller shows it (core cuts nothing: the CLI cuts once secrets are out)", () => {
    const long = `9.${"9".repeat(10_000)}`;
    expect(newerVersionNotice(written(long), AGENT)).toContain(long);
    expect(newerVersionNotice(written(long), AGENT, (version) => `<${version.length}>`)).toStartWith(
      "written by Some Agent <10002>, newer",
    );
  });

  test("a version with line breaks stays on the notice's one line", () => {
    expect(newerVersionNotice(written("3.0.0\nerror: fake"), AGENT)).toStartWith("written by Some Agent 3.0.0 error: fake, newer");
  });

  test("pi and omp files name no agent version: never a notice", () => {
    expect(newerVersionNotice(parseSession(chain([user(1, "hi")])), pi)).toBeUndefined();
  });
});
