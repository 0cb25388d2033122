/** Longest error text from outside (an endpoint, a proxy, the network) that we print. */
const MAX_CHARS = 300;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", ndash: "–", mdash: "—", hellip: "…" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** An HTML page's own summary: its title, else its first heading, else its text. */
function summarizeHtml(html: string): string {
  const pick = (tag: string) => new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, "i").exec(html)?.[1];
  const withoutCode = html.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ");
  const chosen = [pick("title"), pick("h1")].find((text) => text !== undefined && text.replace(/<[^>]*>/g, "").trim() !== "") ?? withoutCode;
  return decodeEntities(chosen.replace(/<!--[\s\S]*?-->/g, " ").replace(/<[^>]*>/g, " "));
}

/**
 * Error text from outside, as one short line: a proxy's HTML error page (a 502 from nginx or a
 * load balancer) becomes its title, markup is dropped, whitespace and line breaks collapse, and
 * the rest is cut at 300 characters. A leading HTTP status ("502 ") is kept as it was.
 */
export function shapeErrorText(text: string): string {
  const [, status = "", body = text] = /^(\d{3} )([\s\S]*)$/.exec(text) ?? [];
  const looksLikeHtml = /<(!doctype\s+html|html|head|body|title|h1)\b/i.test(body);
  const plain = (looksLikeHtml ? summarizeHtml(body) : body).replace(/\s+/g, " ").trim();
  const short = plain.length > MAX_CHARS ? `${plain.slice(0, MAX_CHARS - 1)}…` : plain;
  return `${status}${short === "" ? "(no text)" : short}`;
}
