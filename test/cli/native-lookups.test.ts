/**
 * The lookups before creates on the native provider plugin, through the real `pulumi` CLI with a
 * YAML program: an `up` of N users, N staging configs and N egress providers sends the 3N creates,
 * one listing per kind (usernames, staging configs, egress providers) and the installation's one
 * read, where a lookup per create sent 6N + 1. Counted from the emulator's request log. The same
 * kinds in a dynamic-resource program are counted through Pulumi's dynamic-provider host by
 * test/provider/lookups-before-create.test.ts (and users through the test engine by
 * test/e2e/user-refresh.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { explicitProvider, pluginFromCheckout } from "./native-yaml-programs";
import { hasPulumi, PulumiCli } from "./pulumi-cli";

const N = 10;
const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGES = Array.from({ length: N }, (_, i) => `1a2b3c4d5e6f47a8b9c0d1e2f3a4b5${String(i).padStart(2, "0")}`);

/** N of each kind, each a resource of its own (YAML has no loop). */
function program(url: string): string {
  const each = (make: (i: number) => string) => Array.from({ length: N }, (_, i) => make(i)).join("");
  const onProvider = `    options:\n      provider: \${prov}\n`;
  return `name: native-lookups
runtime: yaml
${pluginFromCheckout()}resources:
${explicitProvider("prov", url)}${each((i) => `  u${i}:\n    type: kasm:index:User\n    properties:\n      username: person-${i}\n${onProvider}`)}${each(
  (i) =>
    `  s${i}:\n    type: kasm:index:StagingConfig\n    properties:\n      zoneId: "${ZONE}"\n      imageId: "${IMAGES[i]}"\n      numSessions: 1\n      expiration: 1\n${onProvider}`,
)}${each((i) => `  e${i}:\n    type: kasm:index:EgressProvider\n    properties:\n      name: VPN ${i}\n      egressProviderType: wireguard\n${onProvider}`)}`;
}

describe.skipIf(!hasPulumi)("lookups before creates, native provider, through the pulumi CLI", () => {
  let dir: string;
  let emulator: TestEmulator;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-native-lookups-"));
    emulator = await startTestEmulator({
      zones: [{ zone_id: ZONE, zone_name: "default" }],
      images: IMAGES.map((image_id, i) => ({ image_id, name: `kasmweb/app-${i}:1.16.0`, friendly_name: `App ${i}` })),
    });
  });
  afterAll(async () => {
    await emulator?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`an up of ${N} users, ${N} staging configs and ${N} egress providers sends the creates, one listing per kind and the installation's read`, {
    timeout: SLOW,
  }, async () => {
    const programDir = path.join(dir, "program");
    mkdirSync(programDir, { recursive: true });
    writeFileSync(path.join(programDir, "Pulumi.yaml"), program(emulator.url));
    const cli = new PulumiCli({ programDir, stack: "dev", workDir: path.join(dir, "work"), passphrase: PASSPHRASE, config: {}, secretKeys: [] });
    await cli.init();

    const from = emulator.requests.length;
    const up = await cli.steps("up");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    const counts: Record<string, number> = {};
    for (const line of emulator.requests.slice(from).filter((entry) => !entry.includes(" fault "))) {
      const operation = line.split(" ")[0];
      counts[operation] = (counts[operation] ?? 0) + 1;
    }
    console.log(`native provider, ${3 * N} creates: ${JSON.stringify(counts)}`);
    expect(counts).toEqual({
      get_ws_status: 1,
      get_users: 1,
      get_staging_configs: 1,
      get_egress_providers: 1,
      create_user: N,
      create_staging_config: N,
      create_egress_provider: N,
    });
  });
});
