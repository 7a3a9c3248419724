/**
 * TLS: a self-signed installation is trusted only through `caCert` (PEM text or a file), or by
 * the explicitly insecure `insecureSkipVerify`; otherwise the error says what to do.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { KasmTransportError, createKasmClient, type KasmClientOptions } from "../../provider/api";
import { KEYS, SEED } from "./helpers";

let emulator: RunningEmulator;
let certPem: string;
let certFile: string;
let certDir: string | undefined;

beforeAll(async () => {
  const pems = await generate([{ name: "commonName", value: "localhost" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  certPem = pems.cert;
  certDir = mkdtempSync(join(tmpdir(), "kasm-tls-"));
  certFile = join(certDir, "ca.pem");
  writeFileSync(certFile, certPem);
  emulator = await startEmulator({ port: 0, seed: SEED, tls: { key: pems.private, cert: pems.cert } });
}, 60_000);
afterAll(async () => {
  await emulator?.close();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

async function getImages(options: KasmClientOptions) {
  const client = createKasmClient({ baseUrl: emulator.url, apiKey: KEYS.admin.key, apiKeySecret: KEYS.admin.secret, maxRetries: 0, ...options }, {});
  try {
    return await client.images.getImages();
  } finally {
    await client.close();
  }
}

describe("TLS", () => {
  it("serves HTTPS", () => {
    expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it("refuses a self-signed certificate by default, and says to pass its CA", async () => {
    const error = await getImages({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasmTransportError);
    expect((error as KasmTransportError).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    expect((error as Error).message).toContain("pass its CA certificate with the caCert option (KASM_CA_CERT)");
  });

  it("trusts the installation's CA given as PEM text", async () => {
    expect((await getImages({ caCert: certPem })).length).toBe(3);
  });

  it("trusts the installation's CA given as a file path", async () => {
    expect((await getImages({ caCert: certFile })).length).toBe(3);
  });

  it("skips verification only when insecureSkipVerify is set", async () => {
    expect((await getImages({ insecureSkipVerify: true })).length).toBe(3);
  });

  it("waits for health over TLS", async () => {
    const client = createKasmClient({ baseUrl: emulator.url, apiKey: "k", apiKeySecret: "s", caCert: certPem }, {});
    try {
      expect((await client.waitForHealthy({ deadlineMs: 2000 })).attempts).toBe(1);
    } finally {
      await client.close();
    }
  });
});
