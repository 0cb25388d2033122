import { AgentError, chooseServedModel, readModelList } from "../../core/index.ts";
import { openEndpoint, silenceFailure, withRetries, type Endpoint, type EndpointOptions } from "./endpoint.ts";
import { readErrorBody, shapeErrorText } from "./error-text.ts";
import { describeFailure, describeInBandError, type Failure, type FailureContext } from "./model-failure.ts";
import { describeUrl } from "./secrets.ts";
import { endpointUrl, send, StatusError } from "./http.ts";
import { parseJsonOrUndefined } from "../../core/index.ts";

/**
 * A local endpoint and no model named: ask the endpoint which models it serves (`GET /models`,
 * with the key, timeouts, redirect rule, retries and error messages of every request to
 * it), and use the only one. Several, none, or no list at all: one line saying what to do.
 */

/** `<base URL>/models` as messages name it. */
function modelsUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return baseUrl;
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/$/, "")}/models`;
  return url.href;
}

/**
 * A 404 or 405 from a base URL under `/v1` (or any `/vN`): the server answers Chat Completions
 * but does not list its models, so the user must name one. Without `/vN` the failure already
 * says the base URL lacks it (model-failure.ts), which is the likelier mistake.
 */
function unlisted(error: unknown, failure: Failure, ctx: FailureContext): Failure {
  if (!(error instanceof StatusError) || (error.status !== 404 && error.status !== 405)) return failure;
  if (!URL.canParse(ctx.baseUrl) || !/\/v\d/.test(new URL(ctx.baseUrl).pathname)) return failure;
  return { ...failure, error: new AgentError("USAGE", `${failure.error.message}; it lists no models: name one with --model`) };
}

async function listOnce(endpoint: Endpoint, url: string, where: string, options: EndpointOptions, signal: AbortSignal): Promise<string[]> {
  const ctx: FailureContext = {
    where,
    baseUrl: endpoint.baseUrl,
    model: "",
    listing: true,
    profile: options.profile,
    scrub: endpoint.scrub,
    printed: endpoint.printed,
  };
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(), endpoint.silenceMs);
  let contentType: string;
  let text: string;
  try {
    const response = await send({
      method: "GET",
      url,
      apiKey: endpoint.apiKey,
      account: endpoint.account,
      signal: AbortSignal.any([signal, idle.signal]),
    });
    contentType = response.headers.get("content-type") ?? "";
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw new AgentError("CANCELLED", "Handoff cancelled");
    if (idle.signal.aborted) throw silenceFailure(where, endpoint.silenceMs, options.timeoutMs);
    throw unlisted(error, describeFailure(error, ctx), ctx);
  } finally {
    clearTimeout(timer);
  }
  const ids = readModelList(parseJsonOrUndefined(text));
  if (ids !== undefined) return ids;
  if (readErrorBody(text).isError) throw describeInBandError(text, ctx, false);
  const kind = contentType === "" ? "no content type" : shapeErrorText(endpoint.scrub(contentType), endpoint.printed);
  const notAList: Failure = {
    error: new AgentError("HANDOFF_FAILED", `${where} answered 200 with ${kind}, not a list of models; name the model with --model`),
    cause: { kind: "final" },
    headers: undefined,
  };
  throw notAList;
}

/**
 * The model to use at a local endpoint when none was named: the only one it serves (said on
 * `-v`). Several: a usage error listing them; none: a failure saying how its server gets one.
 */
export async function askEndpointForModel(options: EndpointOptions, signal: AbortSignal): Promise<string> {
  const endpoint = openEndpoint(options);
  const where = describeUrl(modelsUrl(endpoint.baseUrl));
  const ids = await withRetries(
    () => listOnce(endpoint, endpointUrl(endpoint.baseUrl, "/models"), where, options, signal),
    options,
    signal,
  );
  const chosen = chooseServedModel(ids, endpoint.where, options.profile);
  options.logger.debug(chosen.reason);
  return chosen.model;
}
