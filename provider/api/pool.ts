/**
 * The connection side of the transport: the undici pool of one base URL (keep-alive connections,
 * timeouts, the most connections at once, the TLS trust the settings give), and the TLS errors
 * whose message suggests `caCert`.
 */
import { rootCertificates } from "node:tls";
import { Pool } from "undici";
import type { ResolvedConfig } from "./config";

/** TLS certificate errors, for which the error message suggests `caCert`. */
export const TLS_TRUST_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** The undici Pool for one base URL: keep-alive connections, timeouts and TLS trust. */
export function createPool(config: ResolvedConfig): Pool {
  const tls = config.baseUrl.protocol === "https:";
  return new Pool(config.baseUrl.origin, {
    connect: {
      timeout: config.connectTimeoutMs,
      ...(tls && config.caCert !== undefined ? { ca: [...rootCertificates, config.caCert] } : {}),
      ...(tls && config.insecureSkipVerify ? { rejectUnauthorized: false } : {}),
    },
    // Requests beyond this many wait in the pool's queue instead of opening more connections.
    connections: config.maxConnections,
    // Per attempt: the wait for the answer's headers, and the longest pause inside its body.
    headersTimeout: config.requestTimeoutMs,
    bodyTimeout: config.requestTimeoutMs,
  });
}
