import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { generatedPages, REPO } from "./docs.ts";

const MAX_LINE = 400;

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
function pages(): string[] {
  const found = ["README.md"];
  const walk = (folder: string) => {
    for (const name of readdirSync(join(REPO, folder)).sort()) {
      const path = join(folder, name);
      if (statSync(join(REPO, path)).isDirectory()) walk(path);
      else if (name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = (heading[1] ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of inline Markdown links outside code, `[text](target)`. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? "");
}

describe("generated pages are what `bun run docs` writes", () => {
  for (const [path, text] of Object.entries(generatedPages()))
    test(path, () => {
      const committed = existsSync(join(REPO, path)) ? readFileSync(join(REPO, path), "utf8") : "(missing)";
      if (committed !== text) throw new Error(`${path} is stale: run \`bun run docs\` and commit it`);
      expect(committed).toBe(text);
    });
});

describe("README and docs/", () => {
  const all = pages();

  test("docs/ holds the guides the README links to", () => {
    expect(all.length).toBeGreaterThan(5);
  });

  test.each(all)(`%s: no line longer than ${MAX_LINE} characters`, (path) => {
    const long = readFileSync(join(REPO, path), "utf8")
      .split("\n")
      .flatMap((line, i) => (line.length > MAX_LINE ? [`${path}:${i + 1} is ${line.length} characters`] : []));
    expect(long).toEqual([]);
  });

  test.each(all)("%s: every relative link and #anchor resolves", (path) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(join(REPO, path), "utf8"))) {
      if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // https:, mailto:: not ours to check offline
      const [file = "", anchor] = link.split("#", 2);
      const target = file === "" ? join(REPO, path) : join(REPO, dirname(path), decodeURIComponent(file));
      if (!existsSync(target)) {
        broken.push(`${path}: ${link}: no file ${relative(REPO, target)}`);
        continue;
      }
      if (anchor !== undefined && anchor !== "") {
        if (statSync(target).isDirectory() || !target.endsWith(".md"))
          broken.push(`${path}: ${link}: an anchor into a file that is not Markdown`);
        else if (!anchorsOf(readFileSync(target, "utf8")).has(anchor)) broken.push(`${path}: ${link}: no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("the link checker", () => {
  test.each([
    ["## `agent handoff [session]`", "agent-handoff-session"],
    ["### Exit codes", "exit-codes"],
    ["## An installed agent as the engine", "an-installed-agent-as-the-engine"],
    ["## pi / oh-my-pi (omp)", "pi--oh-my-pi-omp"],
  ])("heading %p has the anchor %p", (heading, anchor) => {
    expect(anchorsOf(`${heading}\n`).has(anchor)).toBe(true);
  });

  test("a repeated heading is numbered, a heading in a code fence is not one", () => {
    expect([...anchorsOf("## A\n## A\n```\n## B\n```\n")]).toEqual(["a", "a-1"]);
  });

  test("links in code are not links", () => {
    expect(linksOf("[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n")).toEqual(["x.md"]);
  });
});
