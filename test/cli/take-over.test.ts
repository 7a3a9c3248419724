/**
 * A take-over of objects changed in Kasm since the program was written, through the `pulumi` CLI:
 * `pulumi preview` prints, for each, a warning naming the field the `up` will change, with Kasm's
 * value and the program's; with `kasm:takeOverChanges refuse` the `up` fails naming them and
 * Kasm is left as it is. The test engine's side is test/e2e/take-over-preview.test.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { writeProgram } from "../helpers/options-programs";
import { PASSPHRASE, SLOW } from "../e2e/helpers";
import { hasPulumi, stackOn } from "./pulumi-cli";

const ZONE = "0d2f2c0a6c8e4f4e9a0b1c2d3e4f5a6b";
const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const PROGRAM = `new kasm.StagingConfig("chrome", { zoneId: "${ZONE}", imageId: "${IMAGE}", numSessions: 3, expiration: 2, adopt: true });`;

describe.skipIf(!hasPulumi)("a take-over through the pulumi CLI", () => {
  let dir: string;
  let emulator: TestEmulator;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "cli-take-over-"));
    // Raised from 3 to 5 by hand since the program was written.
    emulator = await startTestEmulator({
      zones: [{ zone_id: ZONE, zone_name: "default" }],
      images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
      stagingConfigs: [{ zone_name: "default", image_name: "kasmweb/chrome:1.16.0", num_sessions: 5, expiration: 2 }],
    });
  });
  afterAll(async () => {
    await emulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sessionsInKasm = async () => ((await emulator.call("get_staging_configs")).body.staging_configs as { num_sessions: number }[])[0].num_sessions;

  it("pulumi preview warns, naming the field, Kasm's value and the program's; with refuse the up fails and Kasm is unchanged", { timeout: SLOW }, async () => {
    const caseDir = path.join(dir, "case");
    const cli = await stackOn(emulator.url, ADMIN, writeProgram(caseDir, PROGRAM), path.join(caseDir, "work"), PASSPHRASE);
    const preview = await cli.preview();
    const text = preview.stdout + preview.stderr;
    expect(preview.code).toBe(0);
    expect(text).toMatch(
      /warning: StagingConfig chrome \(for zone .* and image .*\): the take-over \(adopt\) will change numSessions from 5 to 3 in Kasm, to the program's values\./,
    );

    await cli.ok(["config", "set", "--stack", "dev", "kasm:takeOverChanges", "refuse"]);
    const up = await cli.up();
    const refused = up.stdout + up.stderr;
    expect(up.code).not.toBe(0);
    expect(refused).toContain("numSessions from 5 to 3");
    expect(refused).toContain('kasm:takeOverChanges is "refuse"');
    expect(await sessionsInKasm()).toBe(5);
  });
});
