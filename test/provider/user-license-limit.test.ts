/**
 * User through Pulumi's real dynamic-provider host against the emulator, under a Per Named User
 * license whose seats run out: the create that needs one seat too many fails with an error about
 * the license's seats, not about the API key's permissions, and leaves nothing half-created.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

const NAMED_USER_KEY = "-----BEGIN ACTIVATION KEY-----\nNAMED-USER-SEATS-418\n-----END ACTIVATION KEY-----";
const PASSWORD = "pw-over-the-seats-6d2e";
/** Every permission name family a misleading permission error could mention. */
const PERMISSION_NAME = /\b(Users|Groups|Licenses|Sessions) (View|Modify|Create|Delete|Auth Session|Modify Admin)\b|Global Admin/;

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    users: [{ username: "existing" }],
    activationKeys: [{ activation_key: NAMED_USER_KEY, seats: 2, license_type: "Per Named User" }],
  });
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

describe("User under a Per Named User license", () => {
  it("a user beyond the license's seats fails with an error about the license, naming no permission", async () => {
    // Two named-user seats: the seeded user takes one, so one more user fits.
    const activation = new Driven(host, "LicenseActivation", "named");
    await activation.create({ activationKey: NAMED_USER_KEY });
    expect(activation.state).toMatchObject({ licenseType: "Per Named User", limit: 2 });

    const fits = new Driven(host, "User", "fits");
    await fits.create({ username: "fits", password: PASSWORD });
    expect(fits.id).toMatch(/^[0-9a-f]{32}$/);

    const beyond = new Driven(host, "User", "beyond");
    const error = await beyond.create({ username: "beyond", password: PASSWORD }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(/license's named-user seats are all used/);
    expect(message).toMatch(/Activate more seats.*delete users/s);
    expect(message).toContain('HTTP 403 "License limit exceeded. Unable to create user"');
    expect(message).not.toMatch(PERMISSION_NAME);
    expect(message).not.toMatch(/grant/i);
    expect(message).not.toContain(PASSWORD);
    // Nothing half-created: no id in the state, no user in Kasm.
    expect(beyond.id).toBe("");
    expect((await emulator.specCall("get_user", { target_user: { username: "beyond" } })).status).toBe(400);

    // Freeing a seat lets the same program through.
    await fits.delete();
    await beyond.create({ username: "beyond", password: PASSWORD });
    expect(beyond.id).toMatch(/^[0-9a-f]{32}$/);
    expect(host.stderr.join("")).not.toContain(PASSWORD);
    expect(host.stderr.join("")).not.toContain("NAMED-USER-SEATS-418");
  });
});
