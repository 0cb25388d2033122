import { describe, expect, test } from "bun:test";
import { REQUIRED_SECTIONS } from "./prompt.ts";
import { findMissingSections } from "./validate.ts";

/** A document with every required section, each with one line of body. */
function documentWith(headings: readonly string[]): string {
  return headings.map((heading) => `${heading}\nSomething.`).join("\n\n");
}

const ALL = REQUIRED_SECTIONS.map((name) => `## ${name}`);

describe("findMissingSections", () => {
  test("a complete document lacks nothing", () => {
    expect(findMissingSections(documentWith(ALL))).toEqual([]);
  });

  test.each(REQUIRED_SECTIONS.map((name) => [name]))("reports a missing ## %s", (name) => {
    expect(findMissingSections(documentWith(ALL.filter((h) => h !== `## ${name}`)))).toEqual([name]);
  });

  test("reports several missing sections in spec order, whatever order the document uses", () => {
    const document = documentWith(["## Next Steps", "## Progress", "## Goal"]);
    expect(findMissingSections(document)).toEqual(["Constraints & Preferences", "Key Decisions", "Critical Context"]);
  });

  test("an empty document lacks all six", () => {
    expect(findMissingSections("")).toEqual([...REQUIRED_SECTIONS]);
  });

  test.each([
    ["lower case", "## goal"],
    ["upper case", "## GOAL"],
    ["a trailing colon", "## Goal:"],
    ["trailing spaces", "## Goal   "],
    ["a tab after the hashes", "##\tGoal"],
  ])("accepts a heading in %s", (_, heading) => {
    expect(findMissingSections(documentWith([heading, ...ALL.slice(1)]))).toEqual([]);
  });

  test.each([
    ["a level-3 heading", "### Goal"],
    ["a level-1 heading", "# Goal"],
    ["a plural", "## Goals"],
    ["extra words", "## Goal of the session"],
    ["no space after the hashes", "##Goal"],
    ["the name in body text", "The ## Goal is below."],
    ["bold text", "**Goal**"],
  ])("does not count %s as ## Goal", (_, heading) => {
    expect(findMissingSections(documentWith([heading, ...ALL.slice(1)]))).toEqual(["Goal"]);
  });

  test("the & in Constraints & Preferences is matched literally", () => {
    const document = documentWith(ALL.map((h) => h.replace("&", "and")));
    expect(findMissingSections(document)).toEqual(["Constraints & Preferences"]);
  });
});
