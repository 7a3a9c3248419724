/**
 * A team's workspace catalogue, kept the same in two installations: three workspaces, two groups,
 * and who may launch what. Staging is the default connection (`kasm:`), production is
 * `kasm.Connection("production")` (`kasm-production:` settings, or `KASM_PRODUCTION_*`). Both are
 * released Kasm installations (`apiNames: product` on each): image and group management are
 * operations the API documentation leaves out.
 *
 * Changing the catalogue below (a workspace's memory, who may launch it) changes both
 * installations in one `up`; a workspace deleted by hand in either comes back on the next `up`
 * after a refresh.
 */
import * as pulumi from "@pulumi/pulumi";
import * as kasm from "pulumi-kasm";

const production = new kasm.Connection("production");

/** The catalogue: each workspace, and the groups that may launch it. */
const catalogue: { key: string; args: Omit<kasm.WorkspaceArgs, "connection">; launchedBy: string[] }[] = [
  {
    key: "chrome",
    args: { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome", categories: ["Browsers"], cores: 2, memory: 2_768_000_000, enabled: true },
    launchedBy: ["engineering", "support"],
  },
  {
    key: "vs-code",
    args: { name: "kasmweb/vs-code:1.16.0", friendlyName: "VS Code", categories: ["Development"], cores: 4, memory: 4_096_000_000, enabled: true },
    launchedBy: ["engineering"],
  },
  {
    key: "terminal",
    args: {
      name: "kasmweb/terminal:1.16.0",
      friendlyName: "Terminal",
      categories: ["Development", "Utilities"],
      cores: 1,
      memory: 1_024_000_000,
      enabled: true,
    },
    launchedBy: ["engineering", "support"],
  },
];

/** The groups, by key. */
const groups: Record<string, kasm.GroupArgs> = {
  engineering: { name: "Engineering", priority: 50, description: "Builds the product" },
  support: { name: "Support", priority: 60, description: "Answers the customers" },
};

const installations = [
  { name: "staging", connection: undefined },
  { name: "production", connection: production },
];

export const imageIds: Record<string, Record<string, pulumi.Output<string>>> = {};
for (const installation of installations) {
  const made = Object.fromEntries(
    Object.entries(groups).map(([key, args]) => [key, new kasm.Group(`${key}-${installation.name}`, { ...args, connection: installation.connection })]),
  );
  imageIds[installation.name] = {};
  for (const entry of catalogue) {
    const workspace = new kasm.Workspace(`${entry.key}-${installation.name}`, { ...entry.args, connection: installation.connection });
    imageIds[installation.name][entry.key] = workspace.imageId;
    for (const group of entry.launchedBy)
      new kasm.GroupWorkspace(`${group}-${entry.key}-${installation.name}`, {
        groupId: made[group].groupId,
        imageId: workspace.imageId,
        connection: installation.connection,
      });
  }
}
