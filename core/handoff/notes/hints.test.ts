import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeBranch } from "../../session/analyze.ts";
import { readSession } from "../../session/formats/read.ts";
import { type ContextMessage, messageText } from "../../session/messages.ts";
import { isUserRequest, rulesIn, type StatedRules, userConstraints } from "./constraints.ts";
import { ANY_WORD_SOURCE, allWords, hints, hintsIn, hintsOf, wordsOf } from "./hints.ts";
import { isForeignRule, LOOSE_RULE_WORD, mayHoldForeignRule, readsAsForeignRule } from "./language.ts";
import { stripFillers, userProse } from "./prose.ts";
import { isConstraint, isConstraintUnhinted, isCorrection, isCorrectionRule, ruleHints } from "./rules.ts";
import { capText, splitSentences } from "./text.ts";
import { isWithdrawal, mayWithdraw, type Placed, standingRules } from "./withdrawn.ts";

/** Whether a text holds the words of a rule, or of a correction's rule. */
function mayStateRules(text: string): boolean {
  return hintsIn(text.toLowerCase(), ruleHints() | hints("correction")) !== 0;
}

// The hints turn sentences down before the patterns run: they may let through what the patterns
// turn down, never turn down what the patterns would take. Held here to the patterns themselves.
const repo = join(import.meta.dir, "..", "..", "..");
const sessions = [
  ...[...new Glob("fixtures/**/*.jsonl").scanSync(repo)].sort(),
  ...["large-session.jsonl", "before-compaction.jsonl"].map((name) => join("..", "shared", "sessions", name)),
].filter((file) => existsSync(join(repo, file)));

function sessionSentences(file: string): string[] {
  try {
    const { context } = analyzeBranch(readSession(readFileSync(join(repo, file), "utf8"), file).session);
    return context.flatMap((message) => splitSentences(messageText(message)));
  } catch {
    return []; // a fixture that is not a readable session has no sentences
  }
}

/** Rules and near-rules of every kind the patterns know, in English and the other languages. */
const TABLE = [
  "Never change the public API.",
  "Always run `npm test` first.",
  "Please don't touch the lockfile.",
  "please dont touch the lockfile",
  "Do not add dependencies.",
  "Avoid global state.",
  "Prefer small functions.",
  "preferably in TypeScript",
  "You must not push to main.",
  "Tests mustn't hit the network.",
  "You shouldn't edit generated files.",
  "We should not ship this.",
  "Network access is not allowed.",
  "you can never skip the linter",
  "make sure the build still passes afterwards.",
  "make sure toolText is also used.",
  "no conosle logs!",
  "No external services for this.",
  "no need for linkGray",
  "no\tdebug output",
  "no\u00a0debug output",
  "Only touch files under src/.",
  "E2E tests only.",
  "there's only one file left to fix up",
  "Keep the public API identical (re-export from lib.rs).",
  "keep it simple",
  "keep\tit simple",
  "Keep the bundle under 50 kB.",
  "keep going",
  "Keep an eye on memory use.",
  "Use British spelling throughout.",
  "Name files in kebab-case everywhere.",
  "format code consistently",
  "indent with tabs at all times",
  "From now on, run the tests with bun test.",
  "going forward, commit after each step",
  "henceforth use pnpm",
  "Rules: no semicolons.",
  "ok, so, wait — never use var",
  "i think the component must not be wider",
  "i selected the theme and got a crash, that should never happen.",
  "should we always do that?",
  "should be dimmer, don't modify the theme, look into the footer sources",
  "invalid themes must NEVER explode",
  "NO CONSOLE LOGS!",
  "DON'T TOUCH THE LOCKFILE",
  "Ändere niemals die Signatur von addItem.",
  "Ändere _niemals_ die Signatur von addItem.",
  "Das läuft 2immer so, bitte nicht ändern.",
  "should be dimmer, do it",
  "Ne jamais modifier l’API publique.",
  "Il faut tester avant.",
  "Les tests doivent passer.",
  "Nunca cambies la firma de addItem.",
  "Hay que probar todo.",
  "Os testes devem passar sempre.",
  "I test devono passare.",
  "Mai più console.log.",
  "Je moet altijd testen.",
  "Nooit pushen naar main.",
  "Du musst die Tests laufen lassen.",
  "Wir müssen das behalten.",
  "税込みで表示すること。",
  "不要修改公共接口。",
  "Никогда не меняй публичный API.",
  "НИКОГДА не меняй публичный API.",
  "Ты должен запускать тесты.",
  "절대 푸시하지 마세요.",
  "The nie function is slow.",
  "Use the Deve branch.",
  "Use SQLite for the store.",
];

/** Each sentence as written, shouted, and with its spaces as tabs and no-break spaces (the patterns' `\s`). */
function variants(sentence: string): string[] {
  return [sentence, sentence.toUpperCase(), sentence.replace(/ /g, "\t"), sentence.replace(/ /g, "\u00a0")];
}

describe("the hints before the rule patterns", () => {
  const corpus = [...new Set([...TABLE, ...sessions.flatMap(sessionSentences)].flatMap(variants))];

  test("the corpus holds rules and sentences that are not", () => {
    expect(corpus.filter(isConstraintUnhinted).length).toBeGreaterThan(100);
    expect(corpus.filter((s) => !isConstraintUnhinted(s)).length).toBeGreaterThan(1000);
  });

  test("isConstraint says what the patterns alone say, for every sentence", () => {
    expect(corpus.filter((s) => isConstraint(s) !== isConstraintUnhinted(s))).toEqual([]);
  });

  test("isForeignRule says what its patterns alone say, for every sentence", () => {
    expect(corpus.filter((s) => isForeignRule(s) !== readsAsForeignRule(s))).toEqual([]);
  });

  test("a text that states a rule or a correction's rule always passes mayStateRules", () => {
    expect(corpus.filter((s) => (isConstraintUnhinted(s) || isCorrectionRule(s)) && !mayStateRules(s))).toEqual([]);
  });

  test.each(TABLE)("%p: a rule only where the hints let it through", (sentence) => {
    for (const variant of variants(sentence)) {
      if (isConstraintUnhinted(variant)) expect([variant, isConstraint(variant), mayStateRules(variant)]).toEqual([variant, true, true]);
    }
  });

  test.each([
    ["we still need to port over user-message-selector.ts", true],
    ["the selector is left to port", false],
    ["alright, the tests pass now", false],
    ["it has to be a cron worker", true],
    ["the changelog is not optional", true],
    ["never", true],
  ])("mayStateRules(%p) is %p", (text, expected) => {
    expect(mayStateRules(text)).toBe(expected);
  });
});

describe("the hint before the rule words of other languages", () => {
  // Any letter that the case-blind Latin pattern takes for one of its words' letters is held by the
  // hint, or lower-cases to the ASCII letter itself (K, the Kelvin sign, is a "k"): so no spelling slips by.
  test("every letter the rule words match, in any case, is held by the hint", () => {
    const words =
      "niemals nie immer muss müssen musst darf nicht dürfen nicht auf keinen fall jamais toujours doit doivent il faut interdit nunca siempre debe deben hay que prohibido sempre deve devem proibido mai più devono nooit altijd moet moeten никогда всегда должен должна должно должны нельзя не надо";
    const letters = new RegExp(`[${[...new Set(words.replace(/ /g, ""))].join("")}]`, "iu");
    const missed: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const letter = String.fromCodePoint(code);
      if (!letters.test(letter)) continue;
      const lower = letter.toLowerCase();
      if (!mayHoldForeignRule(lower) && !(/^[a-z]$/.test(lower) && words.includes(lower))) missed.push(letter);
    }
    expect(missed).toEqual([]);
  });

  // The hint's "no ASCII letter either side" stands for the pattern's "no letter either side".
  test("nothing but a letter lower-cases to an ASCII letter", () => {
    const letter = /\p{L}/u;
    const missed: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (!letter.test(char) && /[a-z]/.test(char.toLowerCase())) missed.push(char);
    }
    expect(missed).toEqual([]);
  });

  test.each([
    ...["niemals", "nie", "immer", "muss", "musst", "darf nicht", "auf keinen fall", "jamais", "toujours", "doit", "doivent"],
    ...["il faut", "interdit", "nunca", "siempre", "debe", "deben", "hay que", "prohibido", "sempre", "deve", "devem"],
    ...["proibido", "devono", "nooit", "altijd", "moet", "moeten"],
  ])("the ASCII rule word %p is held by the hint", (word) => {
    expect(mayHoldForeignRule(word)).toBe(true);
  });

  test.each([
    "必ず",
    "絶対",
    "しないで",
    "してはいけない",
    "してはならない",
    "禁止",
    "べき",
    "こと",
    "不要",
    "必须",
    "务必",
    "永远",
    "总是",
    "不能",
    "不得",
    "절대",
    "항상",
    "반드시",
    "하지 마",
    "금지",
  ])("the CJK rule word %p is held by the hint", (word) => {
    expect(mayHoldForeignRule(word)).toBe(true);
  });
});

/** `rulesIn` as it was before the hints: every sentence of the user's prose asked every pattern. */
function rulesInUnhinted(text: string): StatedRules {
  const stated: StatedRules = { constraints: [], specifications: [] };
  const prose = userProse(text).prose;
  const correction = isCorrection(prose);
  for (const paragraph of prose.split(/\n\s*\n/)) {
    const rules = splitSentences(paragraph).filter((s) => isConstraintUnhinted(s) || (correction && isCorrectionRule(s)));
    const first = rules[0];
    const last = rules.at(-1);
    if (rules.length > 12 && first !== undefined && last !== undefined) {
      stated.specifications.push({ count: rules.length, first: capText(first, 90), last: capText(last, 90) });
      continue;
    }
    for (const sentence of rules) stated.constraints.push(capText(stripFillers(sentence), 220));
  }
  return stated;
}

/** `userConstraints` as it was before the hints. */
function userConstraintsUnhinted(context: readonly ContextMessage[]): string[] {
  const found: Placed[] = [];
  const withdrawals: Placed[] = [];
  let at = 0;
  for (const message of context) {
    if (message.role !== "user") continue;
    const requests =
      message.kind === "user"
        ? [messageText(message)]
        : message.kind === "compactionSummary"
          ? (message.replacedRequests ?? []).map(messageText)
          : [];
    for (const text of requests) {
      at += 1;
      if (!isUserRequest(text)) continue;
      found.push(...rulesInUnhinted(text).constraints.map((rule) => ({ text: rule, at })));
      if (isWithdrawal(text))
        withdrawals.push(
          ...splitSentences(userProse(text).prose)
            .filter(isWithdrawal)
            .map((s) => ({ text: capText(stripFillers(s), 220), at })),
        );
    }
  }
  return [...new Set(standingRules(found, withdrawals).standing.map((rule) => rule.text))];
}

describe("the hints of whole messages", () => {
  const contexts = sessions.map((file) => {
    try {
      return analyzeBranch(readSession(readFileSync(join(repo, file), "utf8"), file).session).context;
    } catch {
      return [];
    }
  });
  const texts = contexts.flatMap((context) => context.filter((m) => m.role === "user").map(messageText));
  // Rules, corrections and withdrawals as whole messages: in paragraphs, after pasted lines, in every case.
  const made = [
    TABLE.join(" "),
    TABLE.join("\n\n"),
    `No, that is wrong.\n\n${TABLE.join("\n")}`,
    "No, the changelog is not optional. It has to be a cron worker.",
    "Never touch `src/mail/`.\n\nYou can change src/mail/ after all.",
    "Forget that rule. Keep it simple.",
    "```\nnever run this\n```\nok, no console logs",
    "    indented: never do this\nDon't push.",
  ];
  const corpus = [...new Set([...made, ...texts].flatMap((text) => [text, text.toUpperCase()]))];

  test("rulesIn finds what every pattern asked of every sentence finds", () => {
    expect(corpus.filter((text) => JSON.stringify(rulesIn(text)) !== JSON.stringify(rulesInUnhinted(text)))).toEqual([]);
    expect(corpus.filter((text) => rulesIn(text).constraints.length > 0).length).toBeGreaterThan(20);
  });

  test.each(sessions.map((file, i) => [file, i] as const))("%s: userConstraints is what it was before the hints", (_, i) => {
    const context = contexts[i] ?? [];
    expect(userConstraints(context)).toEqual(userConstraintsUnhinted(context));
  });

  test("userConstraints of made messages (rules, pasted rule words, withdrawals) is what it was before the hints", () => {
    const user = (text: string): ContextMessage => ({
      role: "user",
      kind: "user",
      content: [{ type: "text", text }],
      entryId: text.slice(0, 20),
    });
    const context = [
      ...made,
      "Don't touch src/mail/ for now.",
      "```\nyou can change src/mail/ after all\n```",
      "  You can change src/mail/ now, it no longer applies",
      "Never edit `config.yaml` by hand. Always run the suite.",
      "You may now edit the schema too. Editing config.yaml is fine now.",
      "Forget that rule, the quick tests are enough.",
    ].map(user);
    expect(userConstraints(context)).toEqual(userConstraintsUnhinted(context));
    expect(userConstraints(context).length).toBeGreaterThan(10);
  });

  test("hintsOf many texts at once says what hintsIn says of each", () => {
    const lineBreakBlind = ~hints("noSpace");
    const many = hintsOf(corpus);
    const differ = corpus.filter((text, i) => {
      const one = hintsIn(text.toLowerCase());
      const inLine = /no[^\S\n]/.test(text.toLowerCase()) ? hints("noSpace") : 0;
      return ((many[i] ?? 0) & lineBreakBlind) !== (one & lineBreakBlind) || ((many[i] ?? 0) & hints("noSpace")) !== inLine;
    });
    expect(differ).toEqual([]);
  });

  test("a text or sentence that takes a rule back always has a withdrawal's hints", () => {
    const sentences = corpus.flatMap((text) => [text, ...splitSentences(text)]);
    expect(sentences.filter((s) => isWithdrawal(s) && !mayWithdraw(hintsIn(s.toLowerCase())))).toEqual([]);
    expect(sentences.filter(isWithdrawal).length).toBeGreaterThan(3);
  });
});

describe("the pattern of every hint word", () => {
  test("is every family's words, the longest first (ties as written), then no-before-space and the other scripts' letters", () => {
    const words = allWords().sort((a, b) => b.length - a.length);
    const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    expect(ANY_WORD_SOURCE.split("|").slice(0, words.length)).toEqual(escaped);
    expect(ANY_WORD_SOURCE.split("|").slice(words.length)).toEqual(["no[^\\S\\n]", expect.stringMatching(/^\[.*\]$/)]);
    const letters = new RegExp(ANY_WORD_SOURCE.split("|").at(-1) ?? "");
    expect(["ü", "ù", "ſ", "н", "\u1c80", "し", "必", "절"].filter((letter) => !letters.test(letter))).toEqual([]);
  });

  test("a text whose lower-casing changes its length is read text by text", () => {
    expect(hintsOf(["İstanbul", "Never push."])).toEqual([0, hintsIn("never push.")]);
  });
});

test("the loose pattern of other languages' rule words holds hints.ts's words, and then its letters", () => {
  const parts = LOOSE_RULE_WORD.source.split("|");
  expect(parts.slice(0, -1)).toEqual([...wordsOf("foreignWord")]);
  expect(parts.at(-1)).toBe(ANY_WORD_SOURCE.split("|").at(-1));
});
