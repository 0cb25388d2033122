/**
 * An endpoint whose TLS certificate is refused: one line naming the endpoint and why, exit 1, not
 * tried again (a certificate does not change between attempts), nothing written; and a private CA
 * trusted through NODE_EXTRA_CA_CERTS, which Bun reads at start-up. Spawned, since that variable
 * is read once when the process starts. The certificates are made here with openssl, a real TLS
 * server on 127.0.0.1 serves each.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CANNED_DOCUMENT } from "../../fixtures/fake-openai.ts";
import { REPO } from "../../fixtures/run-agent.ts";
import { CLI_ARGV } from "../../fixtures/built-cli.ts";
import { useHandoffSandbox } from "../commands/handoff/handoff.testing.ts";

const OPENSSL = Bun.which("openssl");
const sandbox = useHandoffSandbox();
const EXAMPLE = join(REPO, "fixtures", "example.jsonl");
let certs = "";

function openssl(args: string[]): void {
  const made = Bun.spawnSync([OPENSSL ?? "openssl", ...args], { stdout: "ignore", stderr: "pipe" });
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
}

/** A self-signed certificate `<name>.pem` and its key `<name>.key` (EC: quick to make). */
function makeCertificate(name: string, subject: string[], days: number): void {
  const key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", join(certs, `${name}.key`)];
  const pem = join(certs, `${name}.pem`);
  if (days > 0) {
    openssl(["req", "-x509", ...key, "-out", pem, "-days", String(days), ...subject]);
  } else {
    // Already expired: `req -x509` takes no negative -days; signing a request with `x509` does.
    openssl(["req", "-new", ...key, "-out", join(certs, `${name}.csr`), ...subject]);
    openssl([
      "x509",
      "-req",
      "-in",
      join(certs, `${name}.csr`),
      "-signkey",
      join(certs, `${name}.key`),
      "-out",
      pem,
      "-days",
      String(days),
    ]);
  }
}

beforeAll(() => {
  if (!OPENSSL) return;
  certs = mkdtempSync(join(tmpdir(), "agent-certs-"));
  const local = ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"];
  makeCertificate("local", local, 1);
  makeCertificate("elsewhere", ["-subj", "/CN=example.com", "-addext", "subjectAltName=DNS:example.com"], 1);
  makeCertificate("expired", ["-subj", "/CN=127.0.0.1"], -1);
});
afterAll(() => {
  if (certs) rmSync(certs, { recursive: true, force: true });
});

async function handoffOverTls(name: string, trust: boolean) {
  const s = sandbox.serve(() => ({ text: CANNED_DOCUMENT }), {
    tls: { cert: readFileSync(join(certs, `${name}.pem`), "utf8"), key: readFileSync(join(certs, `${name}.key`), "utf8") },
  });
  const src = sandbox.source(EXAMPLE);
  const original = readFileSync(src);
  const env = sandbox.env(s.url, trust ? { NODE_EXTRA_CA_CERTS: join(certs, `${name}.pem`) } : {});
  const proc = Bun.spawn([...CLI_ARGV, "handoff", src, "--model", "fake-model", "--retries", "2"], {
    env,
    cwd: sandbox.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr: stderr.split(s.url).join("URL"), src, original, requests: s.requests.length };
}

const withOpenssl = OPENSSL ? "" : " (skipped: openssl is not on the PATH)";

describe(`a certificate the endpoint's TLS presents${withOpenssl}`, () => {
  test.skipIf(!OPENSSL).each([
    [
      "self-signed, not trusted",
      "local",
      false,
      "it is self-signed, DEPTH_ZERO_SELF_SIGNED_CERT); to trust the CA that signed it, set NODE_EXTRA_CA_CERTS to its PEM file",
    ],
    [
      "for another host, its CA trusted",
      "elsewhere",
      true,
      "it is for another host, ERR_TLS_CERT_ALTNAME_INVALID); use a URL with a host the certificate names",
    ],
    ["expired, its CA trusted", "expired", true, "it has expired, CERT_HAS_EXPIRED); the server needs a current one"],
  ])("%s: exit 1, one line, not tried again, nothing written", async (_, name, trust, why) => {
    const run = await handoffOverTls(name, trust);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    // The last line, whole: no "(gave up after 3 attempts)", since it was tried once.
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(`Handoff failed: could not reach URL: its TLS certificate was refused (${why}`);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.requests).toBe(0);
    sandbox.expectNothingWritten(run.src, run.original);
  });

  test.skipIf(!OPENSSL)("self-signed, trusted through NODE_EXTRA_CA_CERTS: the handoff goes through", async () => {
    const run = await handoffOverTls("local", true);
    expect(run.stderr).toContain("New session started with handoff context: ");
    expect(run.code).toBe(0);
    expect(run.requests).toBe(1);
  });
});
