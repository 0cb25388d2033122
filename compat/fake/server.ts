/**
 * One fake model server for the real agents: real HTTP on 127.0.0.1 (port 0), speaking the
 * four wires they use — Chat Completions (pi, omp), Anthropic Messages (Claude Code), OpenAI
 * Responses (Codex) and the Gemini API (Gemini CLI) — each streamed as server-sent events. A script decides every
 * answer; every request is logged, so checks can read what reached the model.
 */
import type { Server } from "bun";
import { anthropicResponse } from "./anthropic.ts";
import { chatResponse } from "./chat.ts";
import { geminiCall, geminiCountTokens, geminiRefusal, geminiResponse } from "./gemini.ts";
import { responsesResponse } from "./responses.ts";
import type { Reply, Wire } from "./reply.ts";
import { errorMessage } from "../../core/errors.ts";

export interface LoggedRequest {
  method: string;
  path: string;
  wire: Wire | undefined;
  body: unknown;
}

/** Decides the answer to one model request; `index` counts the model requests of this wire so far. */
export type Script = (request: LoggedRequest, index: number) => Reply;

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>` (no path: each agent adds its own, e.g. `/v1`). */
  origin: string;
  requests: LoggedRequest[];
  /** Model requests only, in order. */
  modelRequests(wire?: Wire): LoggedRequest[];
  setScript(script: Script): void;
  stop(): Promise<void>;
}

function wireOf(method: string, path: string): Wire | undefined {
  if (method !== "POST") return undefined;
  const gemini = geminiCall(path);
  if (gemini) return gemini.method === "countTokens" ? undefined : "gemini";
  if (path.endsWith("/chat/completions")) return "chat";
  if (path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/responses")) return "responses";
  return undefined;
}

/** Answers for the side requests agents make besides the conversation (model lists, token counts). */
function sideResponse(method: string, path: string, models: readonly string[]): Response {
  if (path.endsWith("/models"))
    return Response.json({ object: "list", data: models.map((id) => ({ id, object: "model", owned_by: "compat" })) });
  if (path.endsWith("/messages/count_tokens")) return Response.json({ input_tokens: 100 });
  if (geminiCall(path)?.method === "countTokens") return geminiCountTokens();
  return Response.json({ error: { type: "not_found_error", message: `the fake has no ${method} ${path}` } }, { status: 404 });
}

/** A refused request, as the wire's API says so (Anthropic names the kind of error; OpenAI a type and a code). */
function refusal(wire: Wire, status: number, message: string): Response {
  const type =
    status === 401 ? "authentication_error" : status === 403 ? "permission_error" : status >= 500 ? "api_error" : "invalid_request_error";
  if (wire === "anthropic") return Response.json({ type: "error", error: { type, message } }, { status });
  if (wire === "gemini") return geminiRefusal(status, message);
  return Response.json({ error: { message, type, code: status === 401 ? "invalid_api_key" : null } }, { status });
}

/** `listedModels` is what `GET …/models` lists (agents that discover models ask for it). */
export function startFakeModelServer(initial: Script, listedModels: readonly string[] = []): FakeModelServer {
  let script = initial;
  const requests: LoggedRequest[] = [];
  const counts = new Map<Wire, number>();
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      let body: unknown = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: logged as text.
      }
      const wire = wireOf(req.method, url.pathname);
      const logged: LoggedRequest = { method: req.method, path: url.pathname + url.search, wire, body };
      requests.push(logged);
      if (!wire) return sideResponse(req.method, url.pathname, listedModels);
      const index = counts.get(wire) ?? 0;
      counts.set(wire, index + 1);
      let reply: Reply;
      try {
        reply = script(logged, index);
      } catch (error) {
        const message = errorMessage(error);
        return Response.json({ error: { type: "api_error", message: `fake script failed: ${message}` } }, { status: 500 });
      }
      if (reply.delayMs) await Bun.sleep(reply.delayMs);
      if (reply.refuse) return refusal(wire, reply.refuse.status, reply.refuse.message);
      if (wire === "gemini") {
        const call = geminiCall(url.pathname);
        return geminiResponse(reply, call?.model ?? "fake-model", call?.method === "streamGenerateContent");
      }
      const stream = !(typeof body === "object" && body !== null && "stream" in body && body.stream === false);
      if (wire === "chat") return chatResponse(reply, body, stream);
      if (wire === "anthropic") return anthropicResponse(reply, body, stream);
      return responsesResponse(reply, body, stream);
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    requests,
    modelRequests: (wire) => requests.filter((r) => r.wire !== undefined && (wire === undefined || r.wire === wire)),
    setScript(next) {
      script = next;
    },
    stop: () => server.stop(true),
  };
}
