/**
 * Every message about a connection's settings names that connection's own keys: a program with
 * a staging (`kasm:`) and a production (`kasm-production:`) installation must be sent to the
 * production settings when production is wrong, never to the staging ones.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KasmClient } from "../../provider/api";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { connectionSettings, resolveConfig, settingNamesOf, ENV_VARS, envVar, DEFAULT_SETTING_NAMES } from "../../provider/api/config";
import { explicitProviderName } from "../../provider/native/instance";
import { startTestEmulator, ADMIN, type TestEmulator } from "../helpers/emulator";

const PRODUCTION = settingNamesOf("production");

describe("messages about a named connection's settings", () => {
  let spec: TestEmulator;
  let product: TestEmulator;
  beforeAll(async () => {
    spec = await startTestEmulator({}, { apiNames: "spec" });
    // A user with a session: its record shows the product's session names (kasms, kasm_id).
    product = await startTestEmulator(
      {
        images: [{ name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" }],
        users: [{ username: "bob" }],
        sessions: [{ username: "bob", image_name: "kasmweb/terminal:1.16.0" }],
      },
      { apiNames: "product" },
    );
  });
  afterAll(async () => {
    await spec?.close();
    await product?.close();
  });

  /** A client of connection `production`, built as the provider builds it: from its own keys and variables. */
  function productionClient(config: Record<string, string>, env: NodeJS.ProcessEnv = {}): KasmClient {
    const settings = connectionSettings("production", (key) => config[key], env);
    return new KasmClient({ ...settings.options, maxRetries: 0 }, settings.env, settings.names);
  }

  it("a missing setting names kasm-production: keys and KASM_PRODUCTION_ variables, read under those names", () => {
    const settings = connectionSettings("production", () => undefined, { KASM_BASE_URL: "http://staging.example", KASM_PRODUCTION_API_KEY: "k" });
    let message = "";
    try {
      resolveConfig(settings.options, settings.env, settings.names);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('The Kasm connection "production" is not configured');
    // The default connection's variable is not taken for it; its own is.
    expect(message).toContain("baseUrl (configuration `kasm-production:baseUrl`, option `baseUrl` or environment variable KASM_PRODUCTION_BASE_URL)");
    expect(message).not.toContain("apiKey (");
    expect(message).not.toMatch(/`kasm:|\bKASM_(?!PRODUCTION_)[A-Z]/);
  });

  it("wrong credentials name the connection's key and secret settings", async () => {
    const client = productionClient({
      "kasm-production:baseUrl": spec.url,
      "kasm-production:apiKey": ADMIN.key,
      "kasm-production:apiKeySecret": "not-the-secret",
    });
    const error = await client.users.getUsers({ page_size: 1 }).then(
      () => new Error("no error"),
      (e: unknown) => e as Error,
    );
    await client.close();
    expect(error.message).toContain(
      "`kasm-production:apiKey` and `kasm-production:apiKeySecret`, or KASM_PRODUCTION_API_KEY and KASM_PRODUCTION_API_KEY_SECRET",
    );
    expect(error.message).not.toContain("not-the-secret");
  });

  it("an unreachable address names the address and the connection's baseUrl setting", async () => {
    const port = await closedPort();
    const client = productionClient({
      "kasm-production:baseUrl": `http://127.0.0.1:${port}`,
      "kasm-production:apiKey": ADMIN.key,
      "kasm-production:apiKeySecret": ADMIN.secret,
    });
    const error = await client.users.getUsers({ page_size: 1 }).then(
      () => new Error("no error"),
      (e: unknown) => e as Error,
    );
    await client.close();
    expect(error.message).toContain(`The address is http://127.0.0.1:${port}, set by \`kasm-production:baseUrl\` (or KASM_PRODUCTION_BASE_URL)`);
  });

  it("a vocabulary mismatch names the connection's apiNames setting, not kasm:apiNames", async () => {
    // A product installation, configured as spec: a released Kasm's names show in its answers.
    const client = productionClient({
      "kasm-production:baseUrl": product.url,
      "kasm-production:apiKey": ADMIN.key,
      "kasm-production:apiKeySecret": ADMIN.secret,
    });
    const error = await client.users.getUsers({ page_size: 1 }).then(
      () => new Error("no error"),
      (e: unknown) => e as Error,
    );
    await client.close();
    expect(error.message).toContain('but kasm-production:apiNames is "spec"');
    expect(error.message).toContain(
      'Set kasm-production:apiNames to "product" (`pulumi config set kasm-production:apiNames product`, or KASM_PRODUCTION_API_NAMES=product',
    );
    expect(error.message).not.toContain("kasm:apiNames");
  });

  it("a product operation refused in spec mode names the connection's apiNames setting", async () => {
    const client = productionClient({ "kasm-production:baseUrl": spec.url, "kasm-production:apiKey": ADMIN.key, "kasm-production:apiKeySecret": ADMIN.secret });
    const error = await client.groups.getGroups().then(
      () => new Error("no error"),
      (e: unknown) => e as Error,
    );
    await client.close();
    expect(error.message).toContain('kasm-production:apiNames is "spec", so it was not sent');
    expect(error.message).not.toContain("kasm:apiNames");
  });

  it("the default connection's names are the documented variables", () => {
    for (const [option, variable] of Object.entries(ENV_VARS)) expect(envVar(DEFAULT_SETTING_NAMES, option)).toBe(variable);
    expect(envVar(PRODUCTION, "apiKeySecret")).toBe("KASM_PRODUCTION_API_KEY_SECRET");
  });
});

describe("messages about an explicit native provider's settings", () => {
  it("a missing setting names the provider's property and the variable that stands in, never a kasm: key", () => {
    const settings = connectionSettings(undefined, (key) => ({ "kasm:apiKey": "k" })[key], {}, "staging");
    let message = "";
    try {
      resolveConfig(settings.options, settings.env, settings.names);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("baseUrl (`baseUrl` of provider `staging`, or environment variable KASM_BASE_URL where the provider leaves it out)");
    expect(message).toContain("apiKeySecret (`apiKeySecret` of provider `staging`");
    expect(message).not.toMatch(/kasm:/);
  });

  it("Configure tells an explicit provider (its name, or its URN's) from a default one", () => {
    const request = (name: string, urn = "") => new provproto.ConfigureRequest().setName(name).setUrn(urn);
    expect(explicitProviderName(request("staging"))).toBe("staging");
    expect(explicitProviderName(request("", "urn:pulumi:dev::fleet::pulumi:providers:kasm::production"))).toBe("production");
    // The engine's default provider, over the stack's `kasm:` keys: named `default` or `default_<version>`.
    expect(explicitProviderName(request("default_0_1_0"))).toBeUndefined();
    expect(explicitProviderName(request("default"))).toBeUndefined();
    expect(explicitProviderName(request(""))).toBeUndefined();
  });
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
