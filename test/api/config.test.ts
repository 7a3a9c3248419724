/**
 * Client configuration: options, environment fallbacks, defaults, the configuration error, and
 * that a client never shows its secret when printed or serialised.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { describe, expect, it, onTestFinished } from "vitest";
import { DEFAULTS, KasmClient, KasmConfigurationError, createKasmClient } from "../../provider/api";
import { CONFIG_KEYS, optionsFromConfig, resolveConfig } from "../../provider/api/config";

const SECRET = "cfg-secret-Vb81";
const PEM = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";

describe("configuration", () => {
  it("names every missing setting, with its option and environment variable", () => {
    const error = (() => {
      try {
        createKasmClient({}, {});
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(KasmConfigurationError);
    const config = error as KasmConfigurationError;
    expect(config.kind).toBe("configuration");
    expect(config.missing).toHaveLength(3);
    for (const text of ["baseUrl", "KASM_BASE_URL", "apiKey", "KASM_API_KEY", "apiKeySecret", "KASM_API_KEY_SECRET"]) expect(config.message).toContain(text);
  });

  it("names only what is missing", () => {
    expect(() => createKasmClient({ baseUrl: "https://kasm.example.com", apiKey: "k" }, {})).toThrow(
      /missing: apiKeySecret \(configuration `kasm:apiKeySecret`, option `apiKeySecret` or environment variable KASM_API_KEY_SECRET\)\.$/,
    );
  });

  it("falls back to the environment, and options win over it", () => {
    const env = { KASM_BASE_URL: "https://env.example.com/", KASM_API_KEY: "env-key", KASM_API_KEY_SECRET: SECRET, KASM_MAX_RETRIES: "2" };
    const fromEnv = resolveConfig({}, env);
    expect(fromEnv).toMatchObject({ apiKey: "env-key", apiKeySecret: SECRET, maxRetries: 2 });
    expect(fromEnv.baseUrl.href).toBe("https://env.example.com/");
    expect(resolveConfig({ apiKey: "option-key", maxRetries: 0 }, env)).toMatchObject({ apiKey: "option-key", maxRetries: 0 });
  });

  it("applies the documented defaults", () => {
    const config = resolveConfig({ baseUrl: "https://kasm.example.com", apiKey: "k", apiKeySecret: SECRET }, {});
    expect(config).toMatchObject({ ...DEFAULTS, insecureSkipVerify: false, caCert: undefined });
  });

  it("keeps a path prefix of the base URL and drops a trailing slash", async () => {
    const client = createKasmClient({ baseUrl: "https://kasm.example.com/kasm/", apiKey: "k", apiKeySecret: SECRET }, {});
    expect(client.baseUrl).toBe("https://kasm.example.com/kasm");
    await client.close();
  });

  it.each([
    ["https://kasm.example.com/api", "https://kasm.example.com"],
    ["https://kasm.example.com/api/", "https://kasm.example.com"],
    ["https://kasm.example.com/api/public", "https://kasm.example.com"],
    ["https://kasm.example.com/API/Public/", "https://kasm.example.com"],
    ["https://kasm.example.com/kasm/api/public", "https://kasm.example.com/kasm"],
  ])("refuses a base URL ending in the API path (%s), naming the address to give instead", (given, instead) => {
    const attempt = () => resolveConfig({ baseUrl: given, apiKey: "k", apiKeySecret: SECRET }, {});
    expect(attempt).toThrow(KasmConfigurationError);
    expect(attempt).toThrow(`baseUrl must be the address of the Kasm installation, without the API path: ${instead} rather than`);
    expect(attempt).toThrow("(the client adds /api/public/... itself; configuration `kasm:baseUrl`, option `baseUrl` or KASM_BASE_URL)");
    expect(() => resolveConfig({}, { KASM_BASE_URL: given, KASM_API_KEY: "k", KASM_API_KEY_SECRET: SECRET })).toThrow(/without the API path/);
  });

  it("keeps a path prefix that only looks like the API path", () => {
    for (const prefix of ["/apis", "/api-gateway", "/public", "/api/public/kasm"])
      expect(resolveConfig({ baseUrl: `https://kasm.example.com${prefix}`, apiKey: "k", apiKeySecret: SECRET }, {}).baseUrl.pathname).toBe(prefix);
  });

  it("refuses invalid values, naming each", () => {
    const attempt = () =>
      resolveConfig({ baseUrl: "ftp://kasm.example.com", apiKey: "k", apiKeySecret: SECRET, requestTimeoutMs: -1 }, { KASM_MAX_RETRIES: "many" });
    expect(attempt).toThrow(KasmConfigurationError);
    expect(attempt).toThrow(/baseUrl must be an http:\/\/ or https:\/\/ address/);
    expect(attempt).toThrow(/requestTimeoutMs must be a whole number of at least 1/);
    expect(attempt).toThrow(/maxRetries must be a whole number of at least 0 \(configuration `kasm:maxRetries`, option `maxRetries` or KASM_MAX_RETRIES\)/);
  });

  it("reads the CA certificate as PEM text, or from a file named by the option or KASM_CA_CERT", () => {
    const dir = mkdtempSync(join(tmpdir(), "kasm-ca-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "ca.pem");
    writeFileSync(file, PEM);
    const base = { baseUrl: "https://kasm.example.com", apiKey: "k", apiKeySecret: SECRET };
    expect(resolveConfig({ ...base, caCert: PEM }, {}).caCert).toBe(PEM);
    expect(resolveConfig({ ...base, caCert: file }, {}).caCert).toBe(PEM);
    expect(resolveConfig(base, { KASM_CA_CERT: file }).caCert).toBe(PEM);
    expect(() => resolveConfig({ ...base, caCert: join(dir, "missing.pem") }, {})).toThrow(/caCert: neither PEM text nor a readable file \(ENOENT/);
  });

  it("takes insecureSkipVerify only from the option, never from the environment", () => {
    const base = { baseUrl: "https://kasm.example.com", apiKey: "k", apiKeySecret: SECRET };
    expect(resolveConfig(base, { KASM_INSECURE_SKIP_VERIFY: "true" }).insecureSkipVerify).toBe(false);
    expect(resolveConfig({ ...base, insecureSkipVerify: true }, {}).insecureSkipVerify).toBe(true);
  });
});

describe("the stack configuration", () => {
  const read = (config: Record<string, string>) => optionsFromConfig((key) => config[key]);

  it("maps each kasm: key to its option", () => {
    const config = {
      "kasm:baseUrl": "https://kasm.example.com",
      "kasm:apiKey": "k",
      "kasm:apiKeySecret": SECRET,
      "kasm:caCert": PEM,
      "kasm:insecureSkipVerify": "true",
      "kasm:connectTimeoutMs": "1001",
      "kasm:requestTimeoutMs": "1002",
      "kasm:maxRetries": "3",
      "kasm:retryBaseDelayMs": "1004",
      "kasm:retryMaxDelayMs": "1005",
      "kasm:waitForHealthySeconds": "30",
      "kasm:maxConnections": "4",
      "kasm:apiNames": "product",
    };
    expect(Object.values(CONFIG_KEYS).sort()).toEqual(Object.keys(config).sort());
    expect(read(config)).toEqual({
      baseUrl: "https://kasm.example.com",
      apiKey: "k",
      apiKeySecret: SECRET,
      caCert: PEM,
      insecureSkipVerify: true,
      connectTimeoutMs: 1001,
      requestTimeoutMs: 1002,
      maxRetries: 3,
      retryBaseDelayMs: 1004,
      retryMaxDelayMs: 1005,
      waitForHealthySeconds: 30,
      maxConnections: 4,
      apiNames: "product",
    });
  });

  it("leaves out unset and empty keys, so that the environment and the defaults apply", () => {
    expect(read({ "kasm:baseUrl": "", "kasm:maxRetries": "  " })).toEqual({});
    const env = { KASM_BASE_URL: "https://env.example.com", KASM_API_KEY_SECRET: SECRET, KASM_MAX_RETRIES: "2" };
    const resolved = resolveConfig(read({ "kasm:apiKey": "from-config" }), env);
    expect(resolved).toMatchObject({ apiKey: "from-config", apiKeySecret: SECRET, maxRetries: 2, retryBaseDelayMs: DEFAULTS.retryBaseDelayMs });
  });

  it("turns insecureSkipVerify on only for true", () => {
    expect(read({ "kasm:insecureSkipVerify": "TRUE" }).insecureSkipVerify).toBe(true);
    expect(read({ "kasm:insecureSkipVerify": "false" }).insecureSkipVerify).toBe(false);
    expect(read({ "kasm:insecureSkipVerify": "yes" }).insecureSkipVerify).toBe(false);
  });

  it("passes a number that is not one on, so that the client names the setting", () => {
    const options = { ...read({ "kasm:retryMaxDelayMs": "soon" }), baseUrl: "https://kasm.example.com", apiKey: "k", apiKeySecret: SECRET };
    expect(() => resolveConfig(options, {})).toThrow(/retryMaxDelayMs must be a whole number of at least 0 \(configuration `kasm:retryMaxDelayMs`/);
  });
});

describe("a client", () => {
  it("never shows its secret when printed, serialised or enumerated", async () => {
    const client = new KasmClient({ baseUrl: "https://kasm.example.com", apiKey: "the-key", apiKeySecret: SECRET }, {});
    try {
      expect(JSON.stringify(client)).toBe('{"baseUrl":"https://kasm.example.com","apiKey":"the-key"}');
      expect(inspect(client, { showHidden: true, depth: 10 })).not.toContain(SECRET);
      expect(inspect(client.transport, { showHidden: true, depth: 10 })).not.toContain(SECRET);
      expect(JSON.stringify(client.transport)).not.toContain(SECRET);
      expect(`${inspect(client)}`).toContain("https://kasm.example.com");
      expect(JSON.stringify(Object.entries(client))).not.toContain(SECRET);
      expect(Object.keys(client)).not.toContain("apiKeySecret");
    } finally {
      await client.close();
    }
  });
});
