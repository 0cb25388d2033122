import { describe, expect, test } from "bun:test";
import { sectionOf as section } from "./sections.testing.ts";
import { isForeign, isForeignRule } from "../notes/language.ts";
import { isConstraint } from "../notes/rules.ts";
import { classifyEnding } from "./patterns.ts";
import { offlineDocument } from "../../../fixtures/offline/engine.ts";
import { assistant, offline, session, shell, text, user } from "./session.testing.ts";
import { splitSentences } from "../notes/text.ts";

describe("a text plainly not in English", () => {
  test.each([
    ["Der Test schlägt noch fehl: die Grenze wird erst nach dem Hinzufügen geprüft. Ich korrigiere das als Nächstes.", true],
    ["J’ai corrigé le test, tout passe maintenant.", true],
    ["Listo: el test pasa ahora y la suma es correcta.", true],
    ["Исправил тест, теперь всё проходит.", true],
    ["カートの合計金額の計算も確認してください。", true],
    ["已修复 src/cart.ts 中的 addItem 函数。", true],
    // Terse English, code and names stay English: the patterns still read them.
    ["Renamed parseArgs → parseFlags; 14 passing.", false],
    ["Done.", false],
    ["Wired the SQLite store into src/server.ts; bun test: 3 pass.", false],
    ["Fixed the bug in la función de pago (es/pay.ts).", false],
    ["`cargo test`: 11 passed", false],
    ["", false],
  ])("%p: %p", (value, expected) => {
    expect(isForeign(value)).toBe(expected);
  });

  test.each([
    ["Ändere niemals die Signatur von addItem.", true],
    ["Ne jamais modifier l’API publique.", true],
    ["Nunca cambies la firma de addItem.", true],
    ["税込みで表示すること。", true],
    ["不要修改公共接口。", true],
    ["Никогда не меняй публичный API.", true],
    ["The nie function is slow.", false],
    ["Use the Deve branch.", false],
    ["カートの合計金額の計算も確認してください。", false],
  ])("isForeignRule(%p) is %p", (sentence, expected) => {
    expect(isForeignRule(sentence)).toBe(expected);
    expect(isConstraint(sentence)).toBe(expected);
  });

  test("Chinese and Japanese sentences end at 。！？ without a space", () => {
    expect(splitSentences("カートの計算を確認してください。税込みで表示すること。本当？")).toEqual([
      "カートの計算を確認してください。",
      "税込みで表示すること。",
      "本当？",
    ]);
  });

  test.each([
    ["Der Test schlägt noch fehl. Ich korrigiere das als Nächstes.", "unread"],
    ["Fertig: die Grenze wird jetzt vor dem Hinzufügen geprüft, und der Test ist grün.", "unread"],
    ["Soll ich auch die Summe prüfen?", "question"],
    ["Done: the limit is checked before adding.", "completed"],
  ] as const)("a reply %p ends %p", (reply, ending) => {
    expect(classifyEnding(reply, "stop", splitSentences(reply))).toBe(ending);
  });
});

describe("a long specification is not a list of rules", () => {
  const spec = Array.from({ length: 40 }, (_, i) => `Requirement ${i}: the parser must accept case ${i}.`).join("\n");
  const entries = [user(`Write the parser in src/parse.ts. Never use regular expressions.\n\n${spec}\n\nDon't add dependencies.`)];
  const document = offline(entries);

  test("it is named once, with its size, and the user's own rules are quoted", () => {
    expect(section(document, "## Constraints & Preferences")).toBe(
      '- The user: "Never use regular expressions."\n- The user: "Don\'t add dependencies."\n- The user\'s message also holds a specification of 40 requirements, from "Requirement 0: the parser must accept case 0." to "Requirement 39: the parser must accept case 39.": part of the task, not quoted here; the source session has them all.',
    );
    expect(section(offlineDocument(session(entries), "s.jsonl"), "## Session Facts")).toContain(
      '- Rules the user stated (2, quoted):\n  - "Never use regular expressions."\n  - "Don\'t add dependencies."\n',
    );
  });

  test("a dozen rules in one paragraph are still rules", () => {
    const rules = Array.from({ length: 12 }, (_, i) => `- never touch module ${i}`).join("\n");
    const twelve = offline([user(`Refactor the app.\n\n${rules}`)]);
    expect(section(twelve, "## Constraints & Preferences")).toContain("(5 more rules the user stated not shown)");
  });
});

describe("a session in another language", () => {
  const document = offline([
    user("Bitte füge in src/cart.ts eine Mengenbegrenzung hinzu: maximal 10 Stück pro Artikel. Ändere niemals die Signatur von addItem."),
    ...shell("c1", "npm test", "1 failing\n  cart › caps quantity: expected 10, got 11", 1),
    assistant([text("Fertig: die Grenze wird jetzt geprüft.")]),
  ]);

  test("a reply that is not read is never Done; its request stays open, and the next step is to read it", () => {
    expect(section(document, "### Done")).not.toContain("Fertig");
    expect(section(document, "### In Progress")).toStartWith("- Not known: the assistant's last reply is not in English");
    expect(section(document, "### Pending")).toBe(
      "- Open request: Bitte füge in src/cart.ts eine Mengenbegrenzung hinzu: maximal 10 Stück pro Artikel.",
    );
    expect(section(document, "## Next Steps").split("\n")[0]).toBe(
      '1. Read the assistant\'s last reply (not in English) to see whether the work is finished: "Fertig: die Grenze wird jetzt geprüft."',
    );
  });

  test("its rule is quoted, and the Constraints say what may have been missed", () => {
    expect(section(document, "## Constraints & Preferences")).toBe(
      '- The user: "Ändere niemals die Signatur von addItem."\n- One of the user\'s messages is not in English: rules are read there only by "never/always/must" words of a few languages, so others may be missed; the messages are quoted under Critical Context.',
    );
  });

  test("a message with no rule it can read never gives 'None stated'", () => {
    const plain = offline([user("Bitte füge in src/cart.ts eine Mengenbegrenzung hinzu, und schreib einen Test dafür.")]);
    expect(section(plain, "## Constraints & Preferences")).not.toContain("None stated");
  });
});
