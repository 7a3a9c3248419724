/**
 * A UserSet's destroy under heavy faults, through Pulumi's real dynamic-provider host: the
 * emulator fails half of all requests (before or after they commit), each destroy redoes only
 * what is left in Kasm, and repeated destroys converge with no user left.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

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
