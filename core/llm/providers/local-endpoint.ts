import type { ProviderProfile } from "./profile.ts";

/**
 * Whether a base URL names a server on this machine or its private network, where the model is
 * whatever the user runs (never our default `gpt-4.1-mini`): so, with no model given, the
 * endpoint is asked for its models instead.
 */

/** A host name as compared: lower case, without the dot that ends a fully qualified name (`localhost.`). */
function bare(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, "");
}

/** The first two numbers of a dotted IPv4 address (all the ranges here need), as the URL parser writes it (`127.1` becomes `127.0.0.1`). */
function ipv4Of(host: string): [number, number] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (match) return [Number(match[1]), Number(match[2])];
  // An IPv4 address mapped into IPv6 (`[::ffff:127.0.0.1]`, which the URL parser writes `[::ffff:7f00:1]`).
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}\]$/.exec(host);
  if (!mapped?.[1]) return undefined;
  const high = Number.parseInt(mapped[1], 16);
  return [high >> 8, high & 0xff];
}

/** This machine: `localhost` (and its subdomains, RFC 6761), 127.0.0.0/8, `::1`, the unspecified address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = bare(hostname);
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || host === "[::]") return true;
  const v4 = ipv4Of(host);
  return v4 !== undefined && (v4[0] === 127 || v4[0] === 0);
}

/**
 * A private network: RFC 1918 (10/8, 172.16/12, 192.168/16), link-local (169.254/16, fe80::/10),
 * shared address space (100.64/10, RFC 6598: carrier NAT and Tailscale), unique local IPv6
 * (fc00::/7), and names no public DNS answers: `.local` (mDNS, RFC 6762), `.internal` (reserved
 * for private use by ICANN in 2024; Docker's `host.docker.internal`), `.home.arpa` (RFC 8375),
 * and a name without a dot (a LAN or container name such as `gpu-box` or `ollama`).
 */
function isPrivateHost(hostname: string): boolean {
  const host = bare(hostname);
  const v4 = ipv4Of(host);
  if (v4) {
    const [a, b] = v4;
    return (
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (host.startsWith("[")) return /^\[f[cd][0-9a-f]{0,2}:/.test(host) || /^\[fe[89ab][0-9a-f]?:/.test(host);
  return host.endsWith(".local") || host.endsWith(".internal") || host.endsWith(".home.arpa") || (host !== "" && !host.includes("."));
}

/**
 * A local endpoint: a base URL on a loopback or private host, or one whose profile is a server
 * people run themselves (Ollama, vLLM, llama.cpp, LM Studio, by name, port or `--provider`).
 * Without a base URL the endpoint is OpenAI's: never local.
 */
export function isLocalEndpoint(baseUrl: string | undefined, profile: ProviderProfile): boolean {
  if (baseUrl === undefined) return false;
  if (profile.local) return true;
  if (!URL.canParse(baseUrl)) return false;
  const { hostname } = new URL(baseUrl);
  return isLoopbackHost(hostname) || isPrivateHost(hostname);
}
