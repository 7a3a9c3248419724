/**
 * From an inventory to a Pulumi project: the program a person would have written for the
 * installation (one section per area, resources named from natural keys, references instead of
 * ids wherever the other object is declared too), its data files, and what the summary and the
 * project's README say. Everything is sorted by natural key, so the same installation gives the
 * same bytes. No secret value is ever written: what Kasm holds secret becomes a
 * `config.requireSecret(...)` input, listed for the README.
 *
 * This module runs the areas in order; the work is in `write/`:
 *
 * | file | what it holds |
 * |---|---|
 * | `write/writer.ts` | the settings, the `ProgramWriter` the areas fill, values as TypeScript source |
 * | `write/people.ts` | groups, users (a UserSet or one User each) and user attributes |
 * | `write/workspaces.ts` | workspace images and which groups may launch them |
 * | `write/servers.ts` | server assignments and draining (servers referred to by id) |
 * | `write/sessions.ts` | staging configs and casting links |
 * | `write/egress.ts` | egress providers, gateways, mappings and credentials (the secrets) |
 * | `write/project.ts` | `index.ts`, `Pulumi.yaml`, `package.json`, `tsconfig.json`, the README |
 */
import type { Inventory } from "./read";
import { writeEgress } from "./write/egress";
import { writeGroups, writeUserAttributes, writeUsers } from "./write/people";
import { projectFiles } from "./write/project";
import { writeServerAssignments, writeServerDrains } from "./write/servers";
import { writeCastConfigs, writeStagingConfigs } from "./write/sessions";
import { writeWorkspaceGroups, writeWorkspaces } from "./write/workspaces";
import { ProgramWriter, type ProgramSettings, type SecretSetting, type SummaryRow } from "./write/writer";

export type { ProgramSettings, SecretSetting, SummaryRow } from "./write/writer";

/** The generated project. */
export interface GeneratedProject {
  /** Relative path -> content, sorted by path. */
  readonly files: ReadonlyMap<string, string>;
  readonly secrets: readonly SecretSetting[];
  readonly summary: readonly SummaryRow[];
}

/** The program, its data files, the project files and what the summary and the README say. */
export function generateProject(inventory: Inventory, settings: ProgramSettings): GeneratedProject {
  const w = new ProgramWriter(inventory, settings);
  // In dependency order: what is referred to is declared first.
  writeGroups(w);
  writeUsers(w);
  writeUserAttributes(w);
  writeServerAssignments(w);
  writeServerDrains(w);
  // Before the sections that name an image (staging, egress, casting), which refer to the declared workspaces.
  writeWorkspaces(w);
  writeWorkspaceGroups(w);
  writeStagingConfigs(w);
  writeEgress(w);
  writeCastConfigs(w);
  w.row("licences", inventory.licences, 0);
  const files = projectFiles(w);
  return { files: new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), secrets: w.secrets, summary: w.summary };
}
