/**
 * An explicit native provider's messages name its own properties, through the real `pulumi` CLI
 * with a YAML program: a provider resource named `staging` reads its settings from its properties,
 * so a message that sent its reader to `pulumi config set kasm:apiKeySecret` (the default
 * provider's keys) would send them to a setting it does not read. Three mistakes a preview meets
 * at the read before changes: a wrong API key secret, an address nothing answers, and the wrong
 * vocabulary (a released Kasm, the provider left on the documentation's names). Each message names
 * provider `staging`, the property to change and, where the read reached it, the installation's
 * address; none names a `kasm:` key.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, PulumiCli } from "./pulumi-cli";

/** A stack configuration key of the default provider (`kasm:apiNames`), which the type token `kasm:index:User` is not. */
const NAMES_A_STACK_KEY = /kasm:(?!index:)/;

/** A program of one user on provider `staging`, whose properties are `settings` (YAML lines, indented). */
function program(settings: string): string {
  return `name: explicit-provider-messages
runtime: yaml
${pluginFromCheckout()}resources:
  staging:
    type: pulumi:providers:kasm
    properties:
${settings}      maxRetries: 0
  ada:
    type: kasm:index:User
    properties:
      username: ada
      firstName: Ada
    options:
      provider: \${staging}
`;
}

describe.skipIf(!hasPulumi)("an explicit native provider's messages, through the pulumi CLI (YAML)", () => {
  let dir: string;
  let emulator: TestEmulator;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-explicit-messages-"));
    emulator = await startTestEmulator({}, { apiNames: "product" });
  });
  afterAll(async () => {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The output of `pulumi preview` of the program with `settings` on provider `staging`, in a stack of its own. */
  async function preview(name: string, settings: string): Promise<string> {
    const programDir = path.join(dir, name);
    mkdirSync(programDir, { recursive: true });
    writeFileSync(path.join(programDir, "Pulumi.yaml"), program(settings));
    const cli = new PulumiCli({ programDir, stack: "dev", workDir: path.join(dir, `${name}-work`), passphrase: PASSPHRASE, config: {}, secretKeys: [] });
    await cli.init();
    const result = await cli.preview();
    expect(result.code, result.stdout).not.toBe(0);
    return result.stdout + result.stderr;
  }

  const lines = (url: string, extra = "") => `      baseUrl: ${url}\n      apiKey: ${ADMIN.key}\n${extra}`;

  it("a wrong API key secret names apiKey and apiKeySecret of provider staging and the address, never kasm:", { timeout: SLOW }, async () => {
    const output = await preview("secret", lines(emulator.url, "      apiKeySecret: not-the-secret\n      apiNames: product\n"));
    expect(output).toContain(`the server at ${emulator.url} (provider \`staging\`) refused the API credentials`);
    expect(output).toContain("Check the API key and secret (`apiKey` and `apiKeySecret` of provider `staging`");
    expect(output).not.toMatch(NAMES_A_STACK_KEY);
    expect(output).not.toContain(ADMIN.secret);
  });

  it("an address nothing answers names baseUrl of provider staging", { timeout: SLOW }, async () => {
    const output = await preview("address", lines("http://127.0.0.1:9", `      apiKeySecret: ${ADMIN.secret}\n      apiNames: product\n`));
    expect(output).toContain("The address is http://127.0.0.1:9, set by `baseUrl` of provider `staging`");
    expect(output).not.toMatch(NAMES_A_STACK_KEY);
    expect(output).not.toContain(ADMIN.secret);
  });

  it("the wrong vocabulary names apiNames of provider staging and the value to set on it", { timeout: SLOW }, async () => {
    const output = await preview("vocabulary", lines(emulator.url, `      apiKeySecret: ${ADMIN.secret}\n`));
    expect(output).toContain('`apiNames` of provider `staging` is "spec"');
    expect(output).toContain("Set `apiNames: product` on provider `staging`");
    expect(output).toContain("one read of the installation of provider `staging` failed");
    expect(output).toContain("`checkBeforeChanges: false` on provider `staging` turns it off");
    expect(output).not.toMatch(NAMES_A_STACK_KEY);
    expect(output).not.toContain(ADMIN.secret);
  });
});
