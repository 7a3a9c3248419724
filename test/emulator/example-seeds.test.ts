/**
 * The example seeds pin the id of every group they declare, so that a program's group ids (which
 * the API cannot list) stay valid across emulator restarts. examples/seed.json, the one the
 * README starts `npx kasm-emulator` with, pins the system groups too.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { storeFromSeed } from "../../emulator/seed";

const EXAMPLES = resolve(__dirname, "../../examples");
const SEEDS = [
  "seed.json",
  ...readdirSync(EXAMPLES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(EXAMPLES, d.name, "seed.json")))
    .map((d) => `${d.name}/seed.json`),
];

const groupIds = (file: string) =>
  Object.fromEntries(Object.values(storeFromSeed(JSON.parse(readFileSync(join(EXAMPLES, file), "utf8"))).state.groups).map((g) => [g.name, g.group_id]));

describe("example seeds", () => {
  it.each(SEEDS)("%s pins every group it declares, and two starts give the same ids", (file) => {
    const seed = JSON.parse(readFileSync(join(EXAMPLES, file), "utf8")) as { groups?: { name: string; group_id?: string }[] };
    expect((seed.groups ?? []).filter((g) => !g.group_id).map((g) => g.name)).toEqual([]);
    const first = groupIds(file);
    const second = groupIds(file);
    for (const g of seed.groups ?? []) expect(second[g.name]).toBe(first[g.name]);
  });

  it("examples/seed.json pins All Users and Administrators too", () => {
    expect(groupIds("seed.json")).toEqual(groupIds("seed.json"));
    expect(Object.keys(groupIds("seed.json")).sort()).toEqual(["Administrators", "All Users", "Contractors", "Engineering"]);
  });
});
