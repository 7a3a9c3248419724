/**
 * Every `kasm:` setting of the README's settings table is honoured both by the provider (its
 * `configure`, as the dynamic-provider host calls it) and by the lookups (which read the program's
 * stack configuration): each case changes one setting from a working configuration and shows its
 * effect, through the provider's client and through `getImages`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { CONFIG_KEYS } from "../../provider/api/config";
import { PROVIDER_SETTINGS } from "../../provider/runtime";
import { configure, kasmClient } from "../../provider/runtime";
import * as kasm from "../../sdk";
import { startLocalServer, type LocalServer } from "../api/local-server";
import { ADMIN, startTestEmulator, seedWithAdmin, type TestEmulator } from "../helpers/emulator";

const README = readFileSync(path.resolve(__dirname, "..", "..", "README.md"), "utf8");

/** The `kasm:` keys in the first column of the README's provider settings table. */
function documentedKeys(): string[] {
  const rows = README.split("\n").filter((line) => line.startsWith("| `kasm:"));
  return rows.flatMap((row) => [...row.split("|")[1].matchAll(/`(kasm:\w+)`/g)].map((m) => m[1]));
}

let emulator: TestEmulator;
let tlsEmulator: RunningEmulator;
let scripted: LocalServer;

/** A configuration that works: the emulator and its admin key, no retries. */
function working(): Record<string, string> {
  return { "kasm:baseUrl": emulator.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "0" };
}

/** What one setting changes, and how its effect shows in the outcome of reading the images. */
interface Case {
  readonly config: () => Record<string, string>;
  /** `ok`: the images were read; otherwise the error's message matches. */
  readonly shows: "ok" | RegExp;
  /** Before each run (through the provider, then through the lookups). */
  readonly before?: () => void;
  /** After each run: what the run must have done. */
  readonly after?: () => void;
}

const CASES: Record<string, Case> = {
  "kasm:baseUrl": { config: () => ({ ...working(), "kasm:baseUrl": "ftp://kasm.example.com" }), shows: /baseUrl must be an http:\/\/ or https:\/\/ address/ },
  "kasm:apiKey": { config: () => ({ ...working(), "kasm:apiKey": "no-such-key" }), shows: /refused the API credentials \(HTTP 401/ },
  "kasm:apiKeySecret": { config: () => ({ ...working(), "kasm:apiKeySecret": "not-the-secret" }), shows: /refused the API credentials \(HTTP 401/ },
  // The TLS emulator's certificate is self-signed: refused without the setting (see "the baseline").
  "kasm:caCert": { config: () => ({ ...working(), "kasm:baseUrl": tlsEmulator.url, "kasm:caCert": certPem }), shows: "ok" },
  "kasm:insecureSkipVerify": { config: () => ({ ...working(), "kasm:baseUrl": tlsEmulator.url, "kasm:insecureSkipVerify": "true" }), shows: "ok" },
  "kasm:connectTimeoutMs": { config: () => ({ ...working(), "kasm:connectTimeoutMs": "0" }), shows: /connectTimeoutMs must be a whole number of at least 1/ },
  // A server that never answers: without the setting the call would wait 60 s, past the test's timeout.
  "kasm:requestTimeoutMs": {
    config: () => ({ ...working(), "kasm:baseUrl": scripted.url, "kasm:requestTimeoutMs": "300" }),
    before: () => scripted.script("get_images", { hang: true }),
    shows: /get_images: timed out \(.*\) after 1 attempt/,
  },
  "kasm:maxRetries": {
    config: () => ({ ...working(), "kasm:baseUrl": scripted.url, "kasm:maxRetries": "2", "kasm:retryBaseDelayMs": "0" }),
    before: () => {
      scripted.requests.length = 0;
      scripted.script("get_images", { status: 503, body: {} }, { status: 503, body: {} }, { status: 503, body: {} });
    },
    shows: /get_images: the server failed \(HTTP 503.*\) after 3 attempt/,
    after: () => expect(scripted.operations()).toEqual(["get_images", "get_images", "get_images"]),
  },
  "kasm:retryBaseDelayMs": { config: () => ({ ...working(), "kasm:retryBaseDelayMs": "-1" }), shows: /retryBaseDelayMs must be a whole number of at least 0/ },
  "kasm:retryMaxDelayMs": { config: () => ({ ...working(), "kasm:retryMaxDelayMs": "later" }), shows: /retryMaxDelayMs must be a whole number of at least 0/ },
  // The cap itself, through the host: test/provider/calls.test.ts.
  "kasm:maxConnections": { config: () => ({ ...working(), "kasm:maxConnections": "0" }), shows: /maxConnections must be a whole number of at least 1/ },
  // The wait itself, through the host and the sdk's waitForHealthy: test/provider/health-gate.test.ts, test/sdk/health.test.ts.
  "kasm:waitForHealthySeconds": {
    config: () => ({ ...working(), "kasm:waitForHealthySeconds": "-5" }),
    shows: /waitForHealthySeconds must be a whole number of at least 0/,
  },
  // This emulator speaks the documentation's names: the images it answers (ctr_*) show the mismatch.
  // Both vocabularies end to end: test/vocabulary/host.test.ts and the product project of the suite.
  "kasm:apiNames": {
    config: () => ({ ...working(), "kasm:apiNames": "product" }),
    shows: /get_images: the installation answered with the API documentation's names \(ctr_.*kasm:apiNames is "product".*kasm:apiNames spec/,
  },
};

let certPem: string;

beforeAll(async () => {
  // The settings must come from the configuration, not from a KASM_* variable of the test's environment.
  for (const name of Object.keys(process.env)) if (name.startsWith("KASM_")) delete process.env[name];
  const pems = await generate([{ name: "commonName", value: "localhost" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
    ],
  });
  certPem = pems.cert;
  const seed = { images: [{ name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }] };
  emulator = await startTestEmulator(seed);
  tlsEmulator = await startEmulator({ port: 0, seed: seedWithAdmin(seed), tls: { key: pems.private, cert: pems.cert } });
  scripted = await startLocalServer();
}, 60_000);

afterAll(async () => {
  await Promise.all([emulator?.close(), tlsEmulator?.close(), scripted?.close()]);
});

type Outcome = "ok" | string;

/** Read the images through the provider's client, configured as the dynamic-provider host configures it. */
async function throughProvider(config: Record<string, string>): Promise<Outcome> {
  configure({ config: { get: (key) => config[key] } });
  try {
    const client = kasmClient();
    try {
      return (await client.images.getImages()).length === 1 ? "ok" : "wrong images";
    } finally {
      await client.close();
    }
  } catch (error) {
    return (error as Error).message;
  }
}

/** Read the images through the lookups, with the program's stack configuration. */
async function throughLookups(config: Record<string, string>): Promise<Outcome> {
  pulumi.runtime.setAllConfig(config);
  try {
    return (await kasm.getImages()).length === 1 ? "ok" : "wrong images";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("provider settings", () => {
  it("the README documents exactly the keys the provider reads, and each has a case here", () => {
    // The provider's own settings (no client option, so the lookups do not read them) are tested
    // where they act: test/provider/installation-check.test.ts, test/e2e/take-over-preview.test.ts.
    const providerOnly: string[] = Object.values(PROVIDER_SETTINGS);
    expect(documentedKeys().sort()).toEqual([...Object.values(CONFIG_KEYS), ...providerOnly].sort());
    expect(Object.keys(CASES).sort()).toEqual(
      documentedKeys()
        .filter((key) => !providerOnly.includes(key))
        .sort(),
    );
  });

  it("the baseline: the working configuration reads the images, and the TLS emulator is refused without a setting", async () => {
    for (const run of [throughProvider, throughLookups]) {
      expect(await run(working())).toBe("ok");
      expect(await run({ ...working(), "kasm:baseUrl": tlsEmulator.url })).toMatch(/could not reach the server \(.*(SELF_SIGNED|UNABLE_TO_VERIFY)/);
    }
  });

  for (const [key, c] of Object.entries(CASES)) {
    it(`${key} is honoured by the provider and by the lookups`, async () => {
      for (const [where, run] of [
        ["provider", throughProvider],
        ["lookups", throughLookups],
      ] as const) {
        c.before?.();
        const outcome = await run(c.config());
        if (c.shows === "ok") expect(outcome, where).toBe("ok");
        else expect(outcome, where).toMatch(c.shows);
        c.after?.();
      }
    });
  }
});
