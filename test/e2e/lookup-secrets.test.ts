/**
 * Lookups in a real Pulumi program, through the test engine: a program that exports the results
 * of `getServerOutput`, `getImagesOutput` and the plain `getServer`, run against the emulator
 * seeded with a server and an image, behind a stand-in for a Kasm that sends the server's
 * connection password, private key, passphrase and registration token and the image's registry
 * token in plain (the emulator itself masks some of them). The state file never holds those
 * values in plain text: the Output twins' secret fields are encrypted, the plain lookup has none.
 * Needs a current dist/ (`npm run build`): the program loads `pulumi-kasm` from it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestEngine } from "../../testing/engine";
import { isSecret } from "../../testing/values";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PLAIN_SECRETS, PLAIN_SECRET_VALUES, startUnmaskedKasm, type UnmaskedKasm } from "../sdk/unmasked-kasm";
import { PASSPHRASE, SLOW, expectOk, tempDir } from "./helpers";

const SERVER_ID = "5e1f0c2d3b4a49588776655443322110";
const IMAGE = "kasmweb/chrome:1.16.0";

let emulator: TestEmulator;
let unmasked: UnmaskedKasm;
let tmp: ReturnType<typeof tempDir>;

beforeAll(async () => {
  tmp = tempDir("lookup-secrets");
  emulator = await startTestEmulator({
    zones: [{ zone_name: "default" }],
    images: [
      { name: IMAGE, friendly_name: "Chrome" },
      { name: "kasmweb/terminal:1.16.0", friendly_name: "Terminal" },
    ],
    servers: [{ server_id: SERVER_ID, hostname: "ws1.example.org", zone_name: "default" }],
  });
  unmasked = await startUnmaskedKasm(emulator.url, { serverId: SERVER_ID, imageName: IMAGE, zoneName: "default" });
});

afterAll(async () => {
  await unmasked?.close();
  await emulator?.close();
  tmp?.remove();
});

/** The program: what a user would write to export what Kasm has. */
function program(): string {
  const dir = path.join(tmp.dir, "program");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "lookup-secrets", main: "index.ts" }));
  writeFileSync(
    path.join(dir, "index.ts"),
    [
      `import * as kasm from "pulumi-kasm";`,
      `export const server = kasm.getServerOutput({ serverId: "${SERVER_ID}" });`,
      `export const images = kasm.getImagesOutput();`,
      `export const plainServer = kasm.getServer({ serverId: "${SERVER_ID}" });`,
      `export const hostname = server.apply((s) => s.hostname);`,
      ``,
    ].join("\n"),
  );
  return dir;
}

/** A copy of a state value with every secret's value left out: what remains is in plain text in the state. */
function withoutSecretValues(value: unknown): unknown {
  if (isSecret(value)) return "[secret]";
  if (Array.isArray(value)) return value.map(withoutSecretValues);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecretValues(v)]));
  return value;
}

describe("lookup results exported from a program", () => {
  it("keep the secrets of a Kasm that sends them in plain out of the state file", { timeout: SLOW }, async () => {
    const engine = new TestEngine({
      programDir: program(),
      project: "lookup-secrets",
      stack: "dev",
      stateFile: path.join(tmp.dir, "dev.json"),
      passphrase: PASSPHRASE,
      config: { "kasm:baseUrl": unmasked.url, "kasm:apiKey": ADMIN.key, "kasm:apiKeySecret": ADMIN.secret, "kasm:maxRetries": "1" },
      secretKeys: ["kasm:apiKeySecret"],
    });
    const up = await engine.up();
    expectOk(up);

    // The run read the secrets: the stand-in sent them, and the Output twins carry them.
    const outputs = up.outputs as Record<string, any>;
    expect(outputs.hostname).toBe("ws1.example.org");
    expect(outputs.server).toMatchObject({ hostname: "ws1.example.org", connectionPassword: PLAIN_SECRETS.connection_password });
    expect(outputs.images.find((i: any) => i.name === IMAGE).ctrToken).toBe(PLAIN_SECRETS.ctr_token);

    // The file, as written: none of them in plain text.
    const file = readFileSync(engine.options.stateFile, "utf8");
    for (const secret of [...PLAIN_SECRET_VALUES, ADMIN.secret]) expect(file).not.toContain(secret);

    // Decrypted: each secret field of the Output twins is a secret of its own, the rest of the record is plain.
    const stack = engine.readState().find((r) => r.type === "pulumi:pulumi:Stack")!;
    const state = stack.outputs as Record<string, any>;
    for (const field of ["connectionPassword", "connectionPrivateKey", "connectionPassphrase", "connectionInfo", "registrationJwt"])
      expect(isSecret(state.server[field]), field).toBe(true);
    expect(state.server.connectionPassword.value).toBe(PLAIN_SECRETS.connection_password);
    expect(state.server.hostname).toBe("ws1.example.org");
    const chrome = state.images.find((i: any) => i.name === IMAGE);
    expect(isSecret(chrome.ctrToken)).toBe(true);
    expect(chrome.ctrToken.value).toBe(PLAIN_SECRETS.ctr_token);
    expect(chrome.friendlyName).toBe("Chrome");
    // The plain lookup has none of the secret fields.
    expect(state.plainServer).toMatchObject({ serverId: SERVER_ID, hostname: "ws1.example.org" });
    expect(Object.keys(state.plainServer)).not.toContain("connectionPassword");
    const plainText = JSON.stringify(withoutSecretValues(state));
    for (const secret of PLAIN_SECRET_VALUES) expect(plainText).not.toContain(secret);
  });
});
