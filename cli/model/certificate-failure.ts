/**
 * The endpoint's TLS certificate was refused: the runtime's codes (Bun uses Node's, from
 * BoringSSL's verify results) and what each means in plain words. No retry changes a certificate,
 * so such a failure is final; the hint says how to trust a private CA (Bun reads
 * NODE_EXTRA_CA_CERTS at start-up, as Node does; docs/engines.md).
 */

/** Trusting the CA is the way on, for a certificate signed by one this machine does not know. */
const TRUST = "to trust the CA that signed it, set NODE_EXTRA_CA_CERTS to its PEM file";
/** A certificate for another name: no CA trusted helps, the URL must name a host it is for. */
const OTHER_HOST = "use a URL with a host the certificate names";

/** Why the certificate was refused, by the runtime's code, and what may help (nothing, for a revoked one). */
const REFUSALS: Readonly<Record<string, { why: string; hint?: string }>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: { why: "it is self-signed", hint: TRUST },
  SELF_SIGNED_CERT_IN_CHAIN: { why: "its chain ends in a self-signed CA that is not trusted", hint: TRUST },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { why: "it is signed by a CA that is not trusted", hint: TRUST },
  UNABLE_TO_GET_ISSUER_CERT: { why: "it is signed by a CA that is not trusted", hint: TRUST },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { why: "it is signed by a CA that is not trusted", hint: TRUST },
  CERT_UNTRUSTED: { why: "it is signed by a CA that is not trusted", hint: TRUST },
  CERT_HAS_EXPIRED: { why: "it has expired", hint: "the server needs a current one" },
  CERT_NOT_YET_VALID: { why: "it is not valid yet", hint: "is this machine's clock right?" },
  ERR_TLS_CERT_ALTNAME_INVALID: { why: "it is for another host", hint: OTHER_HOST },
  HOSTNAME_MISMATCH: { why: "it is for another host", hint: OTHER_HOST },
  CERT_REVOKED: { why: "it has been revoked" },
  CERT_REJECTED: { why: "it is marked as not to be trusted" },
  CERT_SIGNATURE_FAILURE: { why: "its signature does not verify" },
  INVALID_CA: { why: "its CA certificate is not valid" },
  PATH_LENGTH_EXCEEDED: { why: "its chain is longer than its CA allows" },
  INVALID_PURPOSE: { why: "it is not for a TLS server" },
};

/** The one line for a refused certificate, or undefined when `code` is not about a certificate. */
export function certificateRefusal(where: string, code: string): string | undefined {
  const refusal = REFUSALS[code];
  if (refusal === undefined) return undefined;
  return `could not reach ${where}: its TLS certificate was refused (${refusal.why}, ${code})${refusal.hint ? `; ${refusal.hint}` : ""}`;
}
