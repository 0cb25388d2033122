import type { ConsolaInstance, LogObject } from "consola/core";
import { createWithholder } from "../core/index.ts";

type Env = Record<string, string | undefined>;

/** The strings withheld from everything we print or write: the configured API key. */
export function configuredSecrets(env: Env): string[] {
  const key = env.OPENAI_API_KEY;
  return key ? [key] : [];
}

/**
 * A URL as it may be printed (errors, `-v`): no user name or password, every query value
 * masked, no fragment. The full URL is only ever given to the HTTP client.
 */
export function describeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(a URL that does not parse)";
  }
  const query = [...parsed.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=***`).join("&");
  const host = parsed.host === "" ? "" : `//${parsed.host}`;
  return `${parsed.protocol}${host}${parsed.pathname}${query === "" ? "" : `?${query}`}`;
}

/** The parts of a URL that must not be printed: its user name and password, its query values. */
export function urlSecrets(url: string | undefined): string[] {
  if (url === undefined || !URL.canParse(url)) return [];
  const parsed = new URL(url);
  const parts = [parsed.username, parsed.password, ...parsed.searchParams.values()];
  return [...new Set(parts.flatMap((part) => [part, safeDecode(part)]))].filter((part) => part !== "");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function withheldArg(arg: unknown, withhold: (text: string) => string): unknown {
  if (typeof arg === "string") return withhold(arg);
  if (arg instanceof Error) {
    const copy = new Error(withhold(arg.message));
    copy.stack = withhold(arg.stack ?? arg.message);
    return copy;
  }
  return arg;
}

/**
 * Makes every line the logger prints (errors, warnings, `-v` lines) carry `[withheld]` instead
 * of any of `secrets`, whatever printed it: one rule for all of stderr.
 */
export function withholdFromLogger(logger: ConsolaInstance, secrets: readonly string[]): ConsolaInstance {
  if (secrets.length === 0) return logger;
  const withhold = createWithholder(secrets);
  const reporters = logger.options.reporters.map((reporter) => ({
    log: (entry: LogObject, context: Parameters<typeof reporter.log>[1]) => reporter.log({ ...entry, args: entry.args.map((arg) => withheldArg(arg, withhold)) }, context),
  }));
  return logger.setReporters(reporters);
}
