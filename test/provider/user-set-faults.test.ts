/**
 * A UserSet under faults, through Pulumi's real dynamic-provider host:
 * - an import whose answer is lost after Kasm committed it (a 429, a 500, a dropped connection) is
 *   followed by the look-up that finds what committed: every user is in the state, none outside
 *   it, and the import was sent once; one refused before it ran is sent again by the retry settings;
 * - a destroy when the emulator fails half of all requests (before or after they commit): each
 *   destroy redoes only what is left in Kasm, and repeated destroys converge with no user left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, FAST_RETRIES, hostFor } from "../helpers/provider";

const USERS = Array.from({ length: 40 }, (_, i) => ({ username: `fault-user-${String(i).padStart(2, "0")}` }));

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({});
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The number of requests of `operation` the emulator served since `from`. */
function served(operation: string, from: number): number {
  return emulator.requests.slice(from).filter((line) => line.startsWith(`${operation} `)).length;
}

/** The ids of the users in Kasm whose username starts so, by username. */
async function usersInKasm(prefix: string): Promise<Record<string, string>> {
  const users = Object.values<any>((await emulator.state()).users ?? {}).filter((u) => String(u.username).startsWith(prefix));
  return Object.fromEntries(users.map((u) => [u.username, String(u.user_id).replace(/-/g, "")]));
}

/** Create a set while every import fails so; the error, if any. */
async function createFailing(set: Driven, users: object[], faults: Record<string, unknown>): Promise<unknown> {
  await emulator.faults({ rate: 1, operations: ["batch_create_user"], seed: 1, ...faults });
  try {
    return await set.create({ users }).then(
      () => undefined,
      (e: unknown) => e,
    );
  } finally {
    await emulator.faults(null);
  }
}

describe("UserSet import whose answer is lost", () => {
  it("300 users imported, then answered 429: every user is in the state, none outside it, and the import was sent once", async () => {
    const users = Array.from({ length: 300 }, (_, i) => ({ username: `limited-${String(i).padStart(3, "0")}` }));
    const set = new Driven(host, "UserSet", "rate-limited");
    const from = emulator.requests.length;
    expect(await createFailing(set, users, { kinds: ["429"], phase: "after" })).toBeUndefined();
    expect(emulator.requests.slice(from).filter((line) => /^batch_create_user \d{3} /.test(line))).toHaveLength(1);
    const inKasm = await usersInKasm("limited-");
    expect(Object.keys(inKasm)).toHaveLength(300);
    expect(set.state.userIds).toEqual(inKasm);
    await set.delete();
    expect(await usersInKasm("limited-")).toEqual({});
  });

  for (const kind of ["500", "reset"] as const) {
    it(`an import answered ${kind === "reset" ? "with a dropped connection" : `HTTP ${kind}`} after it committed is found, not sent again`, async () => {
      const prefix = `lost-${kind}-`;
      const set = new Driven(host, "UserSet", prefix);
      const from = emulator.requests.length;
      expect(await createFailing(set, [{ username: `${prefix}a` }, { username: `${prefix}b` }], { kinds: [kind], phase: "after" })).toBeUndefined();
      expect(emulator.requests.slice(from).filter((line) => /^batch_create_user \d{3} /.test(line))).toHaveLength(1);
      expect(set.state.userIds).toEqual(await usersInKasm(prefix));
      await set.delete();
    });
  }

  it("an import refused with 429 before it ran is sent again by the retry settings, each time after a look-up that found nothing", async () => {
    const set = new Driven(host, "UserSet", "refused");
    const from = emulator.requests.length;
    const error = await createFailing(set, [{ username: "refused-a" }], { kinds: ["429"], phase: "before" });
    expect((error as Error).message).toMatch(/batch_create_user: the server is rate limiting \(HTTP 429\)/);
    expect(set.id).toBe("");
    const attempts = Number(FAST_RETRIES["kasm:maxRetries"]) + 1;
    const sent = emulator.requests.slice(from).map((line) => line.split(" ")[0]);
    expect(sent.filter((op) => op === "batch_create_user")).toHaveLength(attempts);
    // The existence read, then after each attempt the look-up of what it may have made.
    expect(sent.filter((op) => op === "get_users")).toHaveLength(1 + attempts);
    expect(await usersInKasm("refused-")).toEqual({});
  });
});

describe("UserSet destroy at a 50% fault rate", () => {
  it("each retry deletes only the users still in Kasm, and the destroys converge", async () => {
    const set = new Driven(host, "UserSet", "faulty");
    await set.create({ users: USERS });
    const setFaults = await emulator.raw("POST", "/__emulator/faults", {
      body: JSON.stringify({ rate: 0.5, phase: "either", seed: 7, kinds: ["500", "503", "reset"] }),
      headers: { "content-type": "application/json" },
    });
    expect(setFaults.status).toBe(200);

    const deletesPerRun: number[] = [];
    let converged = false;
    for (let run = 0; run < 8 && !converged; run++) {
      const from = emulator.requests.length;
      converged = await set.delete().then(
        () => true,
        (error: Error) => {
          // A failed run says how far it got.
          if (/users left were deleted/.test(error.message)) expect(error.message).toMatch(/\d+ of the \d+ users left were deleted, \d+ could not be/);
          return false;
        },
      );
      deletesPerRun.push(served("delete_user", from));
    }
    await emulator.raw("DELETE", "/__emulator/faults");
    expect(converged).toBe(true);
    // Later runs send fewer deletes than the first: they skip the users already gone.
    if (deletesPerRun.length > 1) expect(deletesPerRun.at(-1)!).toBeLessThan(deletesPerRun[0]);
    const state = await emulator.state();
    const left = JSON.stringify(state).match(/fault-user-\d\d/g) ?? [];
    expect(left).toEqual([]);
  });
});
