/**
 * Every kind's provider as Pulumi serializes it into the state (`__provider`): no secret, small,
 * and loadable in a fresh process the way the dynamic-provider host loads it.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { providers, type KindName } from "../../provider";
import { kindProvider } from "../../sdk/provider";

const REPO = path.resolve(__dirname, "..", "..");
const KINDS = Object.keys(providers) as KindName[];
const CONFIGURED_SECRET = "configured-secret-5d1e9b";

/** Load a serialized provider as the host does (require-from-string, resolving from the program's folder) and call its check. */
function loadAndCheck(text: string, kind: KindName): { failures: unknown[] } {
  const script = `
    const requireFromString = require(require.resolve("require-from-string", { paths: [require.resolve("@pulumi/pulumi")] }));
    const provider = requireFromString(process.env.PROVIDER_TEXT).handler();
    Promise.resolve(provider.configure({ config: { get: (k) => ({ "kasm:baseUrl": "http://127.0.0.1:9", "kasm:apiKey": "k", "kasm:apiKeySecret": process.env.SECRET })[k] } }))
      .then(() => provider.check({}, {}))
      .then((result) => process.stdout.write(JSON.stringify(result)), (error) => { process.stderr.write(String(error)); process.exit(1); });
  `;
  const out = execFileSync(process.execPath, ["-e", script], {
    cwd: REPO,
    env: { ...process.env, PROVIDER_TEXT: text, SECRET: CONFIGURED_SECRET, KIND: kind },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

describe.each(KINDS)("the serialized %s provider", (kind) => {
  it("holds no secret, stays under 4 KB, and loads and runs in a fresh process", async () => {
    // Configure a secret in this process first: a provider that captured configuration would carry it.
    await kindProvider(kind).configure?.({
      config: { get: (key: string) => ({ "kasm:apiKeySecret": CONFIGURED_SECRET })[key] },
    } as never);
    const provider = kindProvider(kind);
    const serialized = await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true });
    expect(serialized.containsSecrets).toBe(false);
    expect(serialized.text).not.toContain(CONFIGURED_SECRET);
    expect(Buffer.byteLength(serialized.text)).toBeLessThan(4096);
    expect(serialized.text).toContain('require("pulumi-kasm/provider")');

    // An empty resource fails validation, which proves the loaded provider reached the implementation.
    const result = loadAndCheck(serialized.text, kind);
    expect(result.failures.length).toBeGreaterThan(0);
  });
});
