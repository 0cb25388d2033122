/**
 * The agents run inside a network namespace of their own that has only loopback: traffic to
 * any other address is impossible, not merely watched. The driver re-executes itself once
 * under `unshare --net --mount` (root only); inside, it brings `lo` up, points the resolver at
 * a logging DNS stub on 127.0.0.1 (bind-mounted over /etc/resolv.conf in the private mount
 * namespace), and refuses to go on if any interface but `lo` exists. Every name an agent
 * tries to resolve is logged, so an attempt to reach the internet is reported, not just
 * blocked.
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";

export const INSIDE_FLAG = "--inside-namespace";

/** Proxy variables would send an agent's traffic elsewhere (and fail): never passed on. */
const PROXY_VARIABLES = /^(https?_proxy|all_proxy|no_proxy|npm_config_.*proxy)$/i;

export function withoutProxies(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && !PROXY_VARIABLES.test(key)) out[key] = value;
  return out;
}

/** Runs this script again inside new network and mount namespaces; resolves to its exit code. */
export async function reexecIsolated(script: string, args: string[]): Promise<number> {
  const proc = Bun.spawn(["unshare", "--net", "--mount", "--", process.execPath, script, INSIDE_FLAG, ...args], {
    env: withoutProxies(process.env),
    stdio: ["ignore", "inherit", "inherit"],
  });
  return await proc.exited;
}

function run(argv: string[]): void {
  const proc = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (proc.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${proc.stderr.toString().trim()}`);
}

export interface DnsLog {
  /** Every name asked for, in order (with the query type), e.g. `A api.example.com`. */
  queries: string[];
  stop(): void;
}

/** The question's name and type from a DNS query packet, or undefined when it is not one. */
function parseQuestion(packet: Uint8Array): { name: string; type: number; end: number } | undefined {
  const labels: string[] = [];
  let offset = 12;
  while (offset < packet.length) {
    const length = packet[offset] ?? 0;
    if (length === 0) break;
    if (length > 63) return undefined;
    labels.push(new TextDecoder().decode(packet.subarray(offset + 1, offset + 1 + length)));
    offset += 1 + length;
  }
  if (offset + 5 > packet.length) return undefined;
  const type = ((packet[offset + 1] ?? 0) << 8) | (packet[offset + 2] ?? 0);
  return { name: labels.join("."), type, end: offset + 5 };
}

const TYPES: Record<number, string> = { 1: "A", 28: "AAAA", 5: "CNAME", 33: "SRV", 65: "HTTPS" };

/** A DNS stub on 127.0.0.1:53 that logs each question and answers NXDOMAIN at once. */
async function startDnsLogger(): Promise<DnsLog> {
  const queries: string[] = [];
  const socket = await Bun.udpSocket({
    hostname: "127.0.0.1",
    port: 53,
    socket: {
      data(sock, data, port, address) {
        const packet = new Uint8Array(data);
        const question = parseQuestion(packet);
        if (!question || packet.length < 12) return;
        queries.push(`${TYPES[question.type] ?? `type${question.type}`} ${question.name}`);
        const answer = new Uint8Array(packet.subarray(0, question.end));
        answer[2] = 0x80 | ((packet[2] ?? 0) & 0x01); // a response, recursion-desired copied
        answer[3] = 0x83; // recursion available, NXDOMAIN
        answer.set([0, 1, 0, 0, 0, 0, 0, 0], 4);
        // A send can fail with the error queued by an earlier answer to an asker that had gone
        // (ECONNREFUSED); the second try sends this one.
        for (let attempt = 0; attempt < 2; attempt++) {
          try {
            sock.send(answer, port, address);
            break;
          } catch {
            // retried once, then given up: the asker times out and fails anyway
          }
        }
      },
      error() {
        // A client that went away before its answer: not our concern.
      },
    },
  });
  return { queries, stop: () => socket.close() };
}

/**
 * Inside the namespaces: loopback up, resolver pointed at the logging stub, and a hard check
 * that loopback is the only interface left. Throws when not isolated.
 */
export async function prepareIsolation(): Promise<DnsLog> {
  run(["ip", "link", "set", "lo", "up"]);
  const others = Object.keys(networkInterfaces()).filter((name) => name !== "lo");
  const links = Bun.spawnSync(["ip", "-o", "link", "show"], { stdout: "pipe" }).stdout.toString();
  const linkNames = [...links.matchAll(/^\d+: ([^:@]+)/gm)].map((m) => m[1]).filter((name) => name !== "lo");
  if (others.length > 0 || linkNames.length > 0)
    throw new Error(`not isolated: interfaces besides lo: ${[...others, ...linkNames].join(", ")}`);
  const resolv = join(mkdtempSync(join(tmpdir(), "compat-dns-")), "resolv.conf");
  writeFileSync(resolv, "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
  run(["mount", "--bind", resolv, realpathSync("/etc/resolv.conf")]);
  return await startDnsLogger();
}

/**
 * Gives this run a scratch folder of its own: an empty tmpfs mounted at `root` in the run's
 * private mount namespace (`unshare --mount` makes mounts private). Two runs at the same time
 * (two checkouts on one machine) no longer remove each other's sandboxes, and the paths the
 * agents see, which the transcripts keep, stay `root/…`. (Not a bind mount of a folder: in a
 * bind-mounted folder Claude Code 2.1.328 resets its shell's cwd after every command and says so
 * in the transcript.) Everything in it is gone when the run ends; `keepScratch` copies it out.
 */
export function privateScratch(root: string): void {
  mkdirSync(root, { recursive: true });
  run(["mount", "-t", "tmpfs", "-o", "mode=0755", "agent-compat", root]);
}

/** Copies the run's scratch folder out of its tmpfs, for a look at what failed; returns the copy's path. */
export function keepScratch(root: string): string {
  const copy = mkdtempSync(`${root}-run-`);
  run(["cp", "-a", `${root}/.`, copy]);
  return copy;
}

/** Names an agent asked for that are not loopback: each one was an attempt to leave the machine. */
export function outsideNames(queries: readonly string[]): string[] {
  const names = new Set<string>();
  for (const query of queries) {
    const name = query.split(" ")[1] ?? "";
    if (name === "" || name === "localhost" || name.endsWith(".localhost")) continue;
    names.add(name);
  }
  return [...names];
}
