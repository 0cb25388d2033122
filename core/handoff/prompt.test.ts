import { describe, expect, test } from "bun:test";
import { looksLikeHandoffInstruction } from "../session/facts.ts";
import { REQUIRED_SECTIONS, renderInstruction, renderRepairInstruction } from "./prompt.ts";

/** Asserts that each heading is a line of the text, in the given order. */
function expectHeadingsInOrder(text: string, headings: readonly string[]): void {
  const lines = text.split("\n");
  const positions = headings.map((heading) => lines.indexOf(heading));
  expect(positions.map((p, i) => (p >= 0 ? headings[i] : `missing ${headings[i]}`))).toEqual([...headings]);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}

describe("renderInstruction", () => {
  test("lists the six sections as headings, in spec order", () => {
    expectHeadingsInOrder(
      renderInstruction(),
      REQUIRED_SECTIONS.map((name) => `## ${name}`),
    );
  });

  test("puts Done, In Progress and Pending under Progress, before Key Decisions", () => {
    expectHeadingsInOrder(renderInstruction(), ["## Progress", "### Done", "### In Progress", "### Pending", "## Key Decisions"]);
  });

  test("asks for exact paths and commands and for the document only", () => {
    const instruction = renderInstruction();
    expect(instruction).toMatch(/exact (file )?paths/i);
    expect(instruction).toMatch(/commands/i);
    expect(instruction).toMatch(/document only/i);
  });

  test("appends the focus as the last line", () => {
    const instruction = renderInstruction("finish the migration, skip the docs");
    expect(instruction).toBe(`${renderInstruction()}\n\nAdditional focus: finish the migration, skip the docs`);
  });

  test("trims the focus", () => {
    expect(renderInstruction("  the parser \n")).toEndWith("\n\nAdditional focus: the parser");
  });

  test.each([[undefined], [""], ["   "], ["\n\t"]])("adds no focus line for %p", (focus) => {
    const instruction = renderInstruction(focus);
    expect(instruction).not.toContain("Additional focus");
    expect(instruction).toBe(renderInstruction());
  });

  test("is recognised as a handoff instruction when recorded in a session, with or without focus", () => {
    expect(looksLikeHandoffInstruction(renderInstruction())).toBe(true);
    expect(looksLikeHandoffInstruction(renderInstruction("the parser"))).toBe(true);
  });

  test("an ordinary request is not taken for a handoff instruction", () => {
    expect(looksLikeHandoffInstruction("Add a ## Goal section to the README and hand off the docs to Sam.")).toBe(false);
  });
});

describe("renderRepairInstruction", () => {
  test("names the missing sections and all six required ones", () => {
    const repair = renderRepairInstruction(["Key Decisions", "Next Steps"]);
    expect(repair).toContain("missing these sections: ## Key Decisions, ## Next Steps.");
    for (const name of REQUIRED_SECTIONS) expect(repair).toContain(`## ${name}`);
  });
});
