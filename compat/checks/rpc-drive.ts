/**
 * Drives an agent's RPC mode (`omp --mode rpc`, pi's too) as a front end does: one JSON command
 * per line on stdin, events and responses as JSON lines on stdout. A script sends commands and
 * waits for events; the process runs in a group of its own and is ended with it, whatever happens.
 */
import { errorMessage } from "../../core/errors.ts";
import { isObject, type JsonObject } from "../../core/json.ts";
import { outsideNames, type DnsLog } from "../isolate.ts";

export interface RpcSession {
  /** Sends `command` with an id of its own and waits for the response with that id (a failed one throws). */
  request(command: JsonObject, timeoutMs?: number): Promise<JsonObject>;
  /** The first event since the last request that `predicate` accepts, waiting up to `timeoutMs`. */
  waitFor(predicate: (event: JsonObject) => boolean, timeoutMs: number): Promise<JsonObject>;
}

export interface RpcRun<T> {
  result: T;
  /** Every JSON line the agent printed, in order. */
  events: JsonObject[];
  outside: string[];
  /** How it ended, for failure details. */
  detail: string;
}

function endGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

export async function driveRpc<T>(
  argv: string[],
  options: { cwd: string; env: Record<string, string> },
  dns: DnsLog,
  script: (session: RpcSession) => Promise<T>,
): Promise<RpcRun<T>> {
  const before = dns.queries.length;
  const proc = Bun.spawn(argv, { cwd: options.cwd, env: options.env, stdin: "pipe", stdout: "pipe", stderr: "pipe", detached: true });
  const events: JsonObject[] = [];
  let wake: (() => void) | undefined;
  let stderr = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of proc.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf("\n");
      while (end !== -1) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        end = pending.indexOf("\n");
        if (line === "") continue;
        try {
          const value: unknown = JSON.parse(line);
          if (isObject(value)) events.push(value);
        } catch {
          // Not a protocol line (a log line): left out.
        }
        wake?.();
      }
    }
  })();
  const errors = (async () => {
    stderr = await new Response(proc.stderr).text();
  })();
  let mark = 0;
  let next = 0;
  const waitFor = async (predicate: (event: JsonObject) => boolean, timeoutMs: number): Promise<JsonObject> => {
    const deadline = Date.now() + timeoutMs;
    for (let i = mark; ; ) {
      for (; i < events.length; i++) {
        const event = events[i];
        if (event !== undefined && predicate(event)) return event;
      }
      if (proc.exitCode !== null) throw new Error(`the agent ended (exit ${proc.exitCode}) before the event came`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${timeoutMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const session: RpcSession = {
    async request(command, timeoutMs = 60_000) {
      const id = `compat-${++next}`;
      mark = events.length;
      proc.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
      await proc.stdin.flush();
      const response = await waitFor((event) => event.type === "response" && event.id === id, timeoutMs);
      if (response.success !== true) throw new Error(`${String(command.type)} failed: ${JSON.stringify(response).slice(0, 300)}`);
      return response;
    },
    waitFor,
  };
  const tail = () => `stderr: ${stderr.trim().split("\n").slice(-6).join("\n") || "(none)"}`;
  try {
    const result = await script(session);
    await proc.stdin.end();
    const ended = await Promise.race([proc.exited, Bun.sleep(15_000).then(() => undefined)]);
    if (ended === undefined) endGroup(proc.pid);
    await Promise.all([reading, errors]);
    return { result, events, outside: outsideNames(dns.queries.slice(before)), detail: `exit ${proc.exitCode}; ${tail()}` };
  } catch (error) {
    endGroup(proc.pid);
    await Promise.all([reading, errors]);
    throw new Error(`${errorMessage(error)}; ${tail()}`);
  }
}
