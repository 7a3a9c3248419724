/**
 * The README's Resources table is the one `npm run docs` generates from the kinds' manifests
 * (scripts/docs/resources-table.ts): a kind, an input, an output or a limit added to a kind shows
 * there without being written a second time, and a hand edit of the table is caught.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resourcesTable, TABLE_MARKERS, withTable } from "../scripts/docs/resources-table";

const README = readFileSync(path.resolve(__dirname, "..", "README.md"), "utf8");

describe("the README's Resources table", () => {
  it("is the table generated from the kinds (run `npm run docs` after changing a kind's docs or schema)", () => {
    const start = README.indexOf(TABLE_MARKERS.start);
    const end = README.indexOf(TABLE_MARKERS.end) + TABLE_MARKERS.end.length;
    expect(start, "README.md has lost the table's markers").toBeGreaterThan(0);
    expect(README.slice(start, end)).toBe(resourcesTable());
  });

  it("marks required inputs in bold, secret ones as secret, and lists what replaces", () => {
    const table = resourcesTable();
    expect(table).toContain("| `User` | **username**, password (secret), firstName,");
    expect(table).toContain(
      "| `EgressProvider` | **name**, **egressProviderType** (`wireguard`, `openvpn`, `custom`), enabled, adopt | egressProviderId, created | nothing |",
    );
    expect(table).toContain("| `GroupMembership` | **userId**, **groupId**, adopt | | userId, groupId |");
    expect(table).toContain("| every input but adopt |");
  });

  it("is refused, naming the markers, by a README without them", () => {
    expect(() => withTable("# no table here\n", resourcesTable())).toThrow(TABLE_MARKERS.start);
  });
});
