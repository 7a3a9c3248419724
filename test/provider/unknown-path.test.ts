/**
 * An address that answers HTTP 404 for the API's operations (a wrong `baseUrl`, a proxy path, a
 * web server that is not Kasm's), through Pulumi's real dynamic-provider host. Kasm answers an
 * unknown object with 400 and a message, never with 404, so a 404 must not read as "the object is
 * gone": a refresh that did so would drop every resource from the state, and a destroy would
 * report success, while the objects stay in Kasm.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { startLocalServer, type LocalServer } from "../api/local-server";

let emulator: TestEmulator;
let elsewhere: LocalServer;
let kasmHost: ProviderHost;
let wrongHost: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({});
  // Any path: 404, with a web server's page rather than Kasm's JSON.
  elsewhere = await startLocalServer();
  elsewhere.fallback = () => ({ status: 404, raw: "<html><body>Not Found</body></html>", headers: { "content-type": "text/html" } });
  kasmHost = await hostFor(emulator);
  wrongHost = await hostFor({ url: elsewhere.url } as TestEmulator);
});
afterAll(async () => {
  await kasmHost?.stop();
  await wrongHost?.stop();
  await elsewhere?.close();
  await emulator?.close();
});

describe("an address that answers 404", () => {
  it("fails the refresh and the delete of a resource, naming the address setting, and keeps it in the state", async () => {
    const created = new Driven(kasmHost, "User", "ada");
    await created.create({ username: "ada", firstName: "Ada" });

    // The same resource, its stack now configured with an address that is not Kasm's API.
    const moved = new Driven(wrongHost, "User", "ada");
    moved.id = created.id;
    moved.state = created.state;
    const refresh = moved.read();
    await expect(refresh).rejects.toThrow(/HTTP 404/);
    await expect(refresh).rejects.toThrow(/Check kasm:baseUrl \(or KASM_BASE_URL\)/);
    await expect(moved.delete()).rejects.toThrow(/nothing at the configured address answers it, and nothing was changed/);
    expect(elsewhere.operations()).toEqual(expect.arrayContaining(["get_user", "delete_user"]));

    // Kasm still has the user, and its resource reads it as before.
    expect((await created.read()).id).toBe(created.id);
  });
});
