import { REQUIRED_SECTIONS } from "./prompt.ts";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The required `## ` sections a document lacks, in spec order. Matching ignores case and trailing text like `:`. */
export function findMissingSections(document: string): string[] {
  return REQUIRED_SECTIONS.filter((name) => !new RegExp(`^##[ \\t]+${escapeRegExp(name)}[ \\t:]*$`, "im").test(document));
}
