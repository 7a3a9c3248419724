/**
 * examples/native-yaml through the `pulumi` CLI, as its README runs it: two emulators seeded with
 * the two-installations example's seeds (production speaking the released product's names, with
 * `productionApiNames: product`), one explicit provider each. `up` creates the team and the staging
 * config in both installations; a preview without change sends no request to either; `destroy`
 * removes everything from both.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedInput } from "../../emulator/seed";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { EXAMPLES, PASSPHRASE, SLOW } from "../e2e/helpers";
import { hasPulumi, PulumiCli } from "./pulumi-cli";

const seedOf = (file: string) =>
  JSON.parse(readFileSync(path.join(EXAMPLES, "two-installations", file), "utf8")) as Required<Pick<SeedInput, "apiKeys" | "zones" | "images">>;
const STAGING = seedOf("seed.json");
const PRODUCTION = seedOf("seed-production.json");

describe.skipIf(!hasPulumi)("examples/native-yaml through the pulumi CLI: two installations, one explicit provider each", () => {
  let dir: string;
  let staging: TestEmulator;
  let production: TestEmulator;
  let cli: PulumiCli;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-native-yaml-example-"));
    staging = await startTestEmulator(STAGING, { apiNames: "spec" });
    production = await startTestEmulator(PRODUCTION, { apiNames: "product" });
    const programDir = path.join(dir, "program");
    cpSync(path.join(EXAMPLES, "native-yaml"), programDir, { recursive: true });
    // The README's settings, with the emulators' addresses and the seeds' keys and ids.
    cli = new PulumiCli({
      programDir,
      stack: "dev",
      workDir: path.join(dir, "work"),
      passphrase: PASSPHRASE,
      config: {
        stagingUrl: staging.url,
        stagingApiKey: STAGING.apiKeys[0].key,
        stagingApiKeySecret: STAGING.apiKeys[0].secret,
        productionUrl: production.url,
        productionApiKey: PRODUCTION.apiKeys[0].key,
        productionApiKeySecret: PRODUCTION.apiKeys[0].secret,
        productionApiNames: "product",
        stagingZoneId: STAGING.zones[0].zone_id!,
        stagingImageId: STAGING.images[0].image_id!,
        productionZoneId: PRODUCTION.zones[0].zone_id!,
        productionImageId: PRODUCTION.images[0].image_id!,
      },
      secretKeys: ["stagingApiKeySecret", "productionApiKeySecret"],
    });
    await cli.init();
  });
  afterAll(async () => {
    await staging?.close();
    await production?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What an installation holds: the team's usernames and the staging configs' image ids. */
  async function holdings(emulator: TestEmulator): Promise<{ users: string[]; staging: string[] }> {
    const users = ((await emulator.specCall("get_users")).body.users as { username: string }[])
      .map((u) => u.username)
      .filter((name) => name === "ada" || name === "grace");
    const configs = ((await emulator.specCall("get_staging_configs")).body.staging_configs as { image_id: string }[]).map((c) => c.image_id.replace(/-/g, ""));
    return { users: users.sort(), staging: configs };
  }

  it("creates the team and the staging config in both, previews no change without a request, and destroys both", { timeout: SLOW }, async () => {
    const up = await cli.steps("up");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.ops).toMatchObject({ teamStaging: "create", teamProduction: "create", chromeStaging: "create", chromeProduction: "create" });
    expect(await holdings(staging)).toEqual({ users: ["ada", "grace"], staging: [STAGING.images[0].image_id] });
    expect(await holdings(production)).toEqual({ users: ["ada", "grace"], staging: [PRODUCTION.images[0].image_id] });
    const outputs = await cli.outputs();
    expect(Object.keys(outputs.productionUserIds as object).sort()).toEqual(["ada", "grace"]);

    const sent = { staging: staging.requests.length, production: production.requests.length };
    const same = await cli.steps("preview");
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.ops).toMatchObject({ teamStaging: "same", teamProduction: "same", chromeStaging: "same", chromeProduction: "same" });
    expect({ staging: staging.requests.slice(sent.staging), production: production.requests.slice(sent.production) }).toEqual({ staging: [], production: [] });

    const destroy = await cli.steps("destroy");
    expect(destroy.code, destroy.stdout + destroy.stderr).toBe(0);
    expect(await holdings(staging)).toEqual({ users: [], staging: [] });
    expect(await holdings(production)).toEqual({ users: [], staging: [] });
  });
});
