import { HTTP_WHITESPACE } from "./secrets.ts";

/**
 * The OpenAI organization and project a request is billed to, read as OpenAI's own clients read
 * them (`OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`) and sent as `OpenAI-Organization` and
 * `OpenAI-Project`: a key that belongs to several organizations or projects otherwise bills the
 * default one. Unset or blank: the header is not sent.
 */
export interface Account {
  organization?: string;
  project?: string;
}

/** The account the environment names; undefined when it names none. */
export function accountFrom(env: Record<string, string | undefined>): Account | undefined {
  const organization = trimmed(env.OPENAI_ORG_ID);
  const project = trimmed(env.OPENAI_PROJECT_ID);
  if (organization === undefined && project === undefined) return undefined;
  return { ...(organization === undefined ? {} : { organization }), ...(project === undefined ? {} : { project }) };
}

/** The headers an account adds to every request. */
export function accountHeaders(account: Account | undefined): Record<string, string> {
  return {
    ...(account?.organization === undefined ? {} : { "openai-organization": account.organization }),
    ...(account?.project === undefined ? {} : { "openai-project": account.project }),
  };
}

// As the header would carry it: fetch drops the whitespace at either end (`$(cat id.txt)` ends in a newline).
function trimmed(value: string | undefined): string | undefined {
  const text = value?.replace(HTTP_WHITESPACE, "");
  return text === "" ? undefined : text;
}
