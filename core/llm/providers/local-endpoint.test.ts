import { describe, expect, test } from "bun:test";
import { chooseProfile, PROFILES } from "./choose.ts";
import { isLocalEndpoint, isLoopbackHost } from "./local-endpoint.ts";

describe("isLocalEndpoint: a server the user runs, whose models are theirs to name", () => {
  test.each<[string, string | undefined, boolean]>([
    // This machine.
    ["localhost", "http://localhost:9000/v1", true],
    ["a subdomain of localhost", "http://llm.localhost/v1", true],
    ["localhost as a fully qualified name", "http://localhost.:9000/v1", true],
    ["127.0.0.1", "http://127.0.0.1:9000/v1", true],
    ["127.x written short", "http://127.1:9000/v1", true],
    ["IPv6 loopback", "http://[::1]:9000/v1", true],
    ["IPv4 loopback mapped into IPv6", "http://[::ffff:127.0.0.1]:9000/v1", true],
    ["0.0.0.0", "http://0.0.0.0:9000/v1", true],
    // A private network.
    ["10/8", "http://10.1.2.3:9000/v1", true],
    ["172.16/12", "http://172.20.0.5:9000/v1", true],
    ["192.168/16", "http://192.168.1.20:9000/v1", true],
    ["link-local", "http://169.254.10.1:9000/v1", true],
    ["shared address space (Tailscale)", "http://100.101.102.103:9000/v1", true],
    ["IPv6 unique local", "http://[fd12:3456::1]:9000/v1", true],
    ["IPv6 link-local", "http://[fe80::1]:9000/v1", true],
    ["an mDNS name", "http://gpu-box.local:9000/v1", true],
    ["an mDNS name, fully qualified", "http://gpu-box.local.:9000/v1", true],
    ["Docker's name for the host", "http://host.docker.internal:9000/v1", true],
    ["a home network name", "http://nas.home.arpa:9000/v1", true],
    ["a container or LAN name without a dot", "http://llm:9000/v1", true],
    // A local server's profile, wherever it is.
    ["Ollama by its port", "https://llm.example.com:11434/v1", true],
    ["LM Studio by its name", "https://lmstudio.example.com/v1", true],
    // The internet.
    ["OpenAI's own endpoint (no base URL)", undefined, false],
    ["OpenAI", "https://api.openai.com/v1", false],
    ["OpenRouter", "https://openrouter.ai/api/v1", false],
    ["a public proxy", "https://llm.example.com/v1", false],
    ["a public address", "http://8.8.8.8:9000/v1", false],
    ["just outside 172.16/12", "http://172.32.0.1:9000/v1", false],
    ["just outside 100.64/10", "http://100.128.0.1:9000/v1", false],
    ["a public IPv6 address", "http://[2001:db8::1]:9000/v1", false],
    ["a name ending like a private one", "https://evil-localhost.com/v1", false],
    ["not a URL", "not a url", false],
  ])("%s: %s → %p", (_, baseUrl, local) => {
    expect(isLocalEndpoint(baseUrl, chooseProfile(baseUrl))).toBe(local);
  });

  test("--provider naming a local server makes any URL local; without a base URL it is OpenAI's, never local", () => {
    expect(isLocalEndpoint("https://llm.example.com/v1", PROFILES.vllm)).toBe(true);
    expect(isLocalEndpoint(undefined, PROFILES.ollama)).toBe(false);
    expect(isLocalEndpoint("http://127.0.0.1:9/v1", PROFILES.openai)).toBe(true);
  });
});

describe("isLoopbackHost: this machine only", () => {
  test.each<[string, boolean]>([
    ["localhost", true],
    ["LOCALHOST", true],
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["[::1]", true],
    ["0.0.0.0", true],
    ["[::ffff:7f00:1]", true],
    ["192.168.1.2", false],
    ["gpu-box", false],
    ["localhost.example.com", false],
    ["[::ffff:c0a8:102]", false],
  ])("%s → %p", (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
