import { parseJsonOrUndefined } from "../../core/index.ts";
import type { PrintedFilter } from "../output/printed.ts";

/** Longest error text from outside (an endpoint, a proxy, the network) that we print. */
const MAX_CHARS = 300;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
};

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
  const chosen =
    [pick("title"), pick("h1")].find((text) => text !== undefined && text.replace(/<[^>]*>/g, "").trim() !== "") ?? withoutCode;
  return decodeEntities(chosen.replace(/<!--[\s\S]*?-->/g, " ").replace(/<[^>]*>/g, " "));
}

/**
 * Error text from outside, as one short line: a proxy's HTML error page (a 502 from nginx or a
 * load balancer) becomes its title, markup is dropped, whitespace and line breaks collapse, and
 * the rest is cut at 300 characters, once what it holds of secrets is gone (`shortForPeople`). A leading HTTP status ("502 ") is kept as it was, and said
 * once: a text that starts with it already (nginx's "502 Bad Gateway") is not given it twice.
 */
export function shapeErrorText(text: string, printed: PrintedFilter): string {
  const [, status = "", body = text] = /^(\d{3} )([\s\S]*)$/.exec(text) ?? [];
  const looksLikeHtml = /<(!doctype\s+html|html|head|body|title|h1)\b/i.test(body);
  const short = printed.shortForPeople(looksLikeHtml ? summarizeHtml(body) : body, MAX_CHARS);
  const saysStatus = status !== "" && (short === status.trim() || short.startsWith(status));
  return `${saysStatus ? "" : status}${short === "" ? "(no text)" : short}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return undefined;
  return JSON.stringify(value);
}

/** The error object a body carries: `error` (an object or a string), or the body itself (`{"object":"error",…}`), first of Google's array. */
function errorOf(body: unknown): Record<string, unknown> | string | undefined {
  if (Array.isArray(body)) return errorOf(body[0]); // Google: [{"error":{…}}]
  if (!isRecord(body)) return undefined;
  const { error } = body;
  if (typeof error === "string" || isRecord(error)) return error; // LM Studio: {"error":"…"}; most: {"error":{…}}
  return body.object === "error" || "message" in body || "detail" in body ? body : undefined; // vLLM, Mistral
}

/**
 * What a gateway passed on from the provider behind it: OpenRouter wraps that provider's own
 * error as a string in `metadata.raw`, with its name in `metadata.provider_name`, under a message
 * of its own such as "Provider returned error" (https://openrouter.ai/docs/api/reference/errors-and-debugging;
 * charmbracelet/crush#279 shows one).
 */
function upstreamOf(error: Record<string, unknown>): { raw: string; message: string; provider: string | undefined } | undefined {
  const metadata = error.metadata;
  if (!isRecord(metadata) || typeof metadata.raw !== "string" || metadata.raw.trim() === "") return undefined;
  const provider = typeof metadata.provider_name === "string" && metadata.provider_name !== "" ? metadata.provider_name : undefined;
  const inner = errorOf(parseJsonOrUndefined(metadata.raw));
  const message = (inner === undefined ? undefined : messageOf(inner)) ?? metadata.raw;
  return { raw: metadata.raw, message, provider };
}

/** The message inside one error object, in the shapes providers send. */
function messageOf(error: Record<string, unknown> | string): string | undefined {
  if (typeof error === "string") return error;
  const upstream = upstreamOf(error);
  if (upstream) return upstream.provider ? `${upstream.provider}: ${upstream.message}` : upstream.message;
  // Mistral's message is an object: shown as JSON. An object without one is shown whole.
  return asText(error.message) ?? asText(error.detail) ?? JSON.stringify(error);
}

/** An error response's body, read once for everything we do with it. */
export interface ErrorBody {
  /** The body is an error in one of the shapes providers use (also when sent with status 200). */
  isError: boolean;
  /** The message in it, the upstream provider's own when a gateway wrapped one (named first). */
  message: string | undefined;
  /** The HTTP-like code inside (OpenRouter's and Google's `error.code`, vLLM's `code`), when a number. */
  code: number | undefined;
  /** The text a refusal is recognised in: the body, and the upstream body a gateway wrapped, unescaped. */
  classifiable: string;
}

/**
 * The one reading of an error body: whether it is one, its message (whatever shape the provider
 * wraps it in: an `error` object or string, a top-level `message`, Google's array, OpenRouter's
 * `metadata.raw`), its code, and the text to classify it by.
 */
export function readErrorBody(body: string): ErrorBody {
  const parsed = parseJsonOrUndefined(body);
  const error = errorOf(parsed);
  if (error === undefined) return { isError: false, message: undefined, code: undefined, classifiable: body };
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  // A body with a `message` is an error only when it says so: a 200 may carry anything else.
  const isError = isRecord(first) && (first.error !== undefined || first.object === "error");
  const upstream = typeof error === "string" ? undefined : upstreamOf(error);
  const code = typeof error !== "string" && typeof error.code === "number" && Number.isInteger(error.code) ? error.code : undefined;
  return { isError, message: messageOf(error), code, classifiable: upstream ? `${body}\n${upstream.raw}` : body };
}

/**
 * An error response body as one short line: the message the provider put in it, whatever its
 * shape (see `readErrorBody`), else the text itself (a proxy's HTML page becomes its title),
 * prefixed with the HTTP status.
 */
export function summarizeErrorBody(status: number, body: string, printed: PrintedFilter): string {
  return shapeErrorText(`${status} ${readErrorBody(body).message ?? body}`, printed);
}
