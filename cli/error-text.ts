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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return undefined;
  return JSON.stringify(value);
}

/** The message inside one error object, in the shapes providers send. */
function messageOf(body: unknown): string | undefined {
  if (Array.isArray(body)) return messageOf(body[0]); // Google: [{"error":{…}}]
  if (!isRecord(body)) return undefined;
  const { error } = body;
  if (typeof error === "string") return error; // LM Studio: {"error":"…"}
  if (isRecord(error)) return asText(error.message) ?? JSON.stringify(error); // OpenAI and most: {"error":{"message":…}}
  return asText(body.message) ?? asText(body.detail); // vLLM {"object":"error","message":…}; Mistral's message is an object
}

/**
 * An error response body as one short line: the message the provider put in it, whatever its
 * shape (an `error` object or string, a top-level `message`, Google's array), else the text
 * itself (a proxy's HTML page becomes its title), prefixed with the HTTP status.
 */
export function summarizeErrorBody(status: number, body: string): string {
  let message: string | undefined;
  try {
    message = messageOf(JSON.parse(body));
  } catch {
    message = undefined;
  }
  return shapeErrorText(`${status} ${message ?? body}`);
}
