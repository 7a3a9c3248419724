/**
 * The examples through the real `pulumi` CLI, when one is on PATH (a local file backend and the
 * passphrase secrets provider, see pulumi-cli.ts): preview changes nothing in Kasm, up, a second
 * up with `--expect-no-changes`, refresh, destroy back to the seeded emulator; for licensing, a
 * third stack refused by Kasm without showing the activation key. The test engine's files
 * (<example>.test.ts) cover each scenario in depth; these check that the CLI agrees.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../helpers/emulator";
import {
  PASSPHRASE,
  SLOW,
  comparable,
  copyExample,
  projectOf,
  seedOf,
  startExampleEmulator,
  tempDir,
  type ExampleName,
} from "../e2e/helpers";
import { PulumiCli, hasPulumi } from "./pulumi-cli";

if (!hasPulumi) console.warn("pulumi CLI not on PATH: skipping the CLI scenarios");

const ACTIVATION_KEY: string = seedOf("licensing").activationKeys![0].activation_key;

interface Case {
  readonly example: ExampleName;
  /** Project configuration (without the project prefix), and which of it is secret. */
  readonly config?: Record<string, string>;
  readonly secret?: readonly string[];
  /** What the stack outputs after the first up, given the emulator's state. */
  readonly outputs: (state: any) => Record<string, unknown>;
  /** What destroy cannot remove from Kasm. */
  readonly leaves?: { licences?: boolean; egressCredentials?: boolean };
}

const byName = (state: any, area: string, key: string, value: string) => Object.values<any>(state[area]).find((o) => o[key] === value);

const CASES: readonly Case[] = [
  {
    example: "quickstart",
    config: { alicePassword: "wonderland-cli-password-1", bobPassword: "builder-cli-password-2" },
    secret: ["alicePassword", "bobPassword"],
    outputs: (s) => ({
      aliceId: byName(s, "users", "username", "alice").user_id,
      bobId: byName(s, "users", "username", "bob").user_id,
      terminalImage: "kasmweb/terminal:1.16.0",
      zoneId: byName(s, "zones", "zone_name", "default").zone_id,
    }),
  },
  { example: "casting-kiosk", outputs: () => ({ castKey: "lobby-kiosk", stagedSessions: 3 }) },
  {
    example: "egress-vpn",
    config: { wireguardPrivateKey: "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=" },
    secret: ["wireguardPrivateKey"],
    outputs: (s) => ({ providerId: byName(s, "egressProviders", "name", "Corporate VPN").egress_provider_id, gateways: ["Frankfurt", "Amsterdam"] }),
    leaves: { egressCredentials: true },
  },
  {
    example: "licensing",
    config: { activationKey: ACTIVATION_KEY, seats: "60", issuedTo: "Branch A" },
    secret: ["activationKey"],
    outputs: (s) => ({ licenseId: byName(s, "licenses", "issued_to", "Branch A").license_id, seatLimit: 60, licenseType: "Per Concurrent Session" }),
    leaves: { licences: true },
  },
  { example: "bulk-users", outputs: () => ({ userCount: 1000 }) },
];

describe.skipIf(!hasPulumi)("the examples through the pulumi CLI", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeAll(() => {
    tmp = tempDir("cli");
  });
  afterAll(() => tmp?.remove());

  for (const c of CASES) {
    describe(c.example, () => {
      let emulator: TestEmulator;
      afterAll(async () => emulator?.close());

      /** A stack of a copy of the example, configured with the seed's key and the emulator's address. */
      async function cliStack(stack: string, config: Record<string, string> = c.config ?? {}): Promise<PulumiCli> {
        const project = projectOf(c.example);
        const key = seedOf(c.example).apiKeys[0];
        const full: Record<string, string> = { "kasm:baseUrl": emulator.url, "kasm:apiKey": key.key, "kasm:apiKeySecret": key.secret, "kasm:maxRetries": "1" };
        for (const [k, v] of Object.entries(config)) full[`${project}:${k}`] = v;
        const cli = new PulumiCli({
          programDir: copyExample(c.example, tmp.dir, `${c.example}-${stack}`),
          stack,
          workDir: path.join(tmp.dir, `${c.example}-${stack}-work`),
          passphrase: PASSPHRASE,
          config: full,
          secretKeys: ["kasm:apiKeySecret", ...(c.secret ?? []).map((k) => `${project}:${k}`)],
        });
        await cli.init();
        return cli;
      }

      it("preview, up, a second up without changes, refresh, destroy back to the seed", { timeout: SLOW }, async () => {
        await emulator?.close();
        emulator = await startExampleEmulator(c.example);
        const seeded = await emulator.state();
        const cli = await cliStack("dev");

        const preview = await cli.preview();
        expect(preview.code, preview.stdout + preview.stderr).toBe(0);
        expect(await emulator.state()).toEqual(seeded);

        const up = await cli.up();
        expect(up.code, up.stdout + up.stderr).toBe(0);
        expect(await cli.outputs()).toEqual(c.outputs(await emulator.state()));

        const second = await cli.up(["--expect-no-changes"]);
        expect(second.code, second.stdout + second.stderr).toBe(0);

        const refresh = await cli.refresh();
        expect(refresh.code, refresh.stdout + refresh.stderr).toBe(0);
        expect((await cli.preview(["--expect-no-changes"])).code).toBe(0);

        const destroy = await cli.destroy();
        expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
        expect(comparable(await emulator.state(), c.leaves)).toEqual(comparable(seeded, c.leaves));
      });

      if (c.example === "licensing") {
        it("two stacks take the 100 seats; a third asking for 1 more is refused, and the key shows nowhere", { timeout: SLOW }, async () => {
          await emulator?.close();
          emulator = await startExampleEmulator("licensing");
          const a = await cliStack("branch-a");
          const b = await cliStack("branch-b", { activationKey: ACTIVATION_KEY, seats: "40", issuedTo: "Branch B" });
          const third = await cliStack("branch-c", { activationKey: ACTIVATION_KEY, seats: "1", issuedTo: "Branch C" });
          expect((await a.up()).code).toBe(0);
          expect((await b.up()).code).toBe(0);
          const refused = await third.up();
          expect(refused.code).not.toBe(0);
          expect(refused.stdout + refused.stderr).toContain("Error during activation");
          expect(refused.stdout + refused.stderr).not.toContain("PARTNER-ENTITLEMENT-100");
          const exported = await third.ok(["stack", "export", "--stack", "branch-c"]);
          expect(exported.stdout).not.toContain("PARTNER-ENTITLEMENT-100");
        });
      }
    });
  }
});
