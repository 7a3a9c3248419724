/**
 * policy/README.md's policy tables are derived from the packs' registries: one row per registered
 * policy, in the pack's order, with the registry's words. A test failure names the row that
 * differs and shows the row the registry gives.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as hardening from "../../policy/hardening/policies";
import * as permissions from "../../policy/permissions/policies";
import { readmeTableLines, type PolicyEntry, type ReadmeTable } from "../../policy/shared/registry";

const README = readFileSync(join(__dirname, "../../policy/README.md"), "utf8").split("\n");

/** The table under `header` in the README, header and separator included. */
function tableInReadme(header: string): string[] {
  const start = README.indexOf(header);
  expect(start, `policy/README.md has no table with the header ${header}`).toBeGreaterThanOrEqual(0);
  const end = README.findIndex((line, i) => i > start && !line.startsWith("|"));
  return README.slice(start, end === -1 ? README.length : end);
}

/** The policy a table row is about (its first cell), for the failure message. */
const rowName = (line: string | undefined) => line?.split("|")[1]?.trim() ?? "(no row)";

describe.each([
  { pack: hardening.PACK_NAME, registry: hardening.REGISTRY, table: hardening.README_TABLE },
  { pack: permissions.PACK_NAME, registry: permissions.REGISTRY, table: permissions.README_TABLE },
] satisfies { pack: string; registry: readonly PolicyEntry[]; table: ReadmeTable }[])("the README table of $pack", ({ registry, table }) => {
  it("has one row per registered policy, in the registry's order, with the registry's words", () => {
    const expected = readmeTableLines(table, registry);
    const actual = tableInReadme(table.header);
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const name = i < expected.length ? rowName(expected[i]) : rowName(actual[i]);
      expect(actual[i], `README row ${i - 1} (${name}) differs from the registry's; the registry gives:\n${expected[i] ?? "(no row)"}\n`).toBe(expected[i]);
    }
  });
});

describe("the hardening table's Tuning column", () => {
  it("names every config property of each rule's own (beyond exemptResources), as the rule declares it", () => {
    const unnamed = hardening.REGISTRY.flatMap((entry) =>
      hardening
        .ownSettings(entry.policy)
        .filter((name) => !entry.settings.includes(`\`${name}\``))
        .map((name) => `${entry.name}: ${name}`),
    );
    expect(unnamed).toEqual([]);
    expect(hardening.REGISTRY.find((entry) => entry.name === "cast-anonymous-expiry")?.settings).toBe("`maxValidDays`");
  });
});

describe("the permissions table's last column", () => {
  it("says 'the key' for every policy, then names each config property of its own, as the policy declares it", () => {
    const unnamed = permissions.REGISTRY.flatMap((entry) => [
      ...(entry.settings.startsWith("the key") ? [] : [`${entry.name}: the key`]),
      ...permissions
        .ownSettings(entry.policy)
        .filter((name) => !entry.settings.includes(`\`${name}\``))
        .map((name) => `${entry.name}: ${name}`),
    ]);
    expect(unnamed).toEqual([]);
    expect(permissions.REGISTRY.find((entry) => entry.name === "least-privilege")?.settings).toBe("the key; `reportWhenMinimal`; `lookups`");
  });
});
