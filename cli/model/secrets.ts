type Env = Record<string, string | undefined>;

/** What fetch strips from both ends of a header value (HTTP whitespace: tab, line feed, carriage return, space). */
export const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * The API key as the HTTP client sends it: `OPENAI_API_KEY` without the whitespace around it
 * (a trailing newline from `$(cat key.txt)`, a stray space), which the header would lose anyway.
 * Withholding this form withholds every form the key was given in.
 */
export function apiKeyFrom(env: Env): string | undefined {
  const key = env.OPENAI_API_KEY?.replace(HTTP_WHITESPACE, "");
  return key === "" ? undefined : key;
}

/**
 * Everything withheld from every output (requests, files, printed lines): the API key as it is
 * sent, and the user name, password and query values of the base URL (`baseUrl`, else
 * `OPENAI_BASE_URL`), as written and decoded.
 */
export function configuredSecrets(env: Env, baseUrl: string | undefined = env.OPENAI_BASE_URL): string[] {
  const key = apiKeyFrom(env);
  return [...(key === undefined ? [] : [key]), ...urlSecrets(baseUrl)];
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
