/**
 * The username lookups that the checks before `User` creates share (`UsernameLookups` in provider/api/client.ts),
 * against the emulator over HTTP: what each lookup answers, and the requests it costs, from the
 * emulator's request log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKasmClient, type KasmClient } from "../../provider/api";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

/** 2,100 users: three pages of get_users (1,000 a page). */
const USERS = Array.from({ length: 2_100 }, (_, i) => ({ username: `person${String(i).padStart(5, "0")}` }));

let emulator: TestEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator({ users: USERS });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
});

/** A client of its own (its own listing), and what the emulator served during `fn`. */
async function served<T>(fn: (client: KasmClient) => Promise<T>): Promise<{ value: T; operations: string[] }> {
  const client = createKasmClient({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret }, {});
  const before = emulator.requests.length;
  try {
    const value = await fn(client);
    return { value, operations: emulator.requests.slice(before).map((line) => line.split(" ")[0]) };
  } finally {
    await client.close();
  }
}

describe("username lookups", () => {
  it("answer from the first page, then look a missing name up until as many were missing as pages are left, then read the rest once", async () => {
    const { value, operations } = await served(async (client) => [
      // On the first page (sorted by username), in another case and with spaces.
      (await client.usernames.find(" PERSON00003 "))?.username,
      // Not on the first page: get_user.
      (await client.usernames.find("person02050"))?.username,
      // A second miss: as many as the pages left (two), so the rest is read, and answers from now on.
      (await client.usernames.find("nobody-1"))?.username,
      (await client.usernames.find("nobody-2"))?.username,
      (await client.usernames.find("person01500"))?.username,
    ]);
    expect(value).toEqual(["person00003", "person02050", undefined, undefined, "person01500"]);
    expect(operations).toEqual(["get_users", "get_user", "get_users", "get_users"]);
  });

  it("N lookups of new names cost the pages and no get_user each: the check before N creates", async () => {
    const { value, operations } = await served((client) => Promise.all(Array.from({ length: 50 }, (_, i) => client.usernames.find(`newcomer${i}`))));
    expect(value.every((user) => user === undefined)).toBe(true);
    expect(operations.filter((op) => op === "get_users")).toHaveLength(3);
    expect(operations.length).toBeLessThanOrEqual(5);
  });

  it("a small installation is one page: every lookup answered from it", async () => {
    const small = await startTestEmulator({ users: USERS.slice(0, 10) });
    try {
      const client = createKasmClient({ baseUrl: small.url, apiKey: ADMIN.key, apiKeySecret: ADMIN.secret }, {});
      const before = small.requests.length;
      const found = await Promise.all(["person00001", "someone-new", "PERSON00009"].map((name) => client.usernames.find(name)));
      expect(found.map((user) => user?.username)).toEqual(["person00001", undefined, "person00009"]);
      expect(small.requests.slice(before).map((line) => line.split(" ")[0])).toEqual(["get_users"]);
      await client.close();
    } finally {
      await small.close();
    }
  });
});
