/**
 * Lookups of workspace registries: a released Kasm's operation (`get_registries`), which the API
 * documentation leaves out. They need `kasm:apiNames` `product`; with `spec` (the default) they
 * fail before sending anything, naming the setting. The workspaces a registry offers are the ones
 * Kasm lists with it (`workspaces` of each registry in `get_registries`): what Kasm fetched from the
 * registry's `list.json`.
 */
import { z } from "zod";
import { canonicalId } from "../../permissions/planned-calls";
import { Registry, RegistryWorkspace, registryUrl } from "../api/schemas/images";
import { NO_SECRETS, recordList, single } from "./common";
import { eitherKey } from "./arguments";

/** Arguments of the getRegistryWorkspaces lookup: the registry's id (either spelling), or its URL. */
export type GetRegistryWorkspacesArgs = { readonly registryId: string; readonly url?: undefined } | { readonly url: string; readonly registryId?: undefined };

/** The lookups of workspace registries. */
export const REGISTRY_LOOKUPS = {
  getRegistries: recordList({
    description:
      "Every workspace registry Kasm lists workspaces from, each with the workspaces it offers. A released Kasm's operation: needs the setting apiNames product, and Registries View (which needs Images View, System View and Agents View).",
    args: z.strictObject({}),
    record: { schema: Registry, name: "Registry", secrets: NO_SECRETS },
    list: "registries",
    fetch: async (client) => client.images.getRegistries(),
  }),

  getRegistryWorkspaces: recordList({
    description:
      "The workspaces one registry offers, as Kasm lists them (what it fetched from the registry's list), by the registry's id or URL. A released Kasm's operation: needs the setting apiNames product.",
    args: eitherKey({
      registryId: z.string().optional().describe("The registry's id: 32 hex digits, or a hyphenated UUID."),
      url: z.string().optional().describe("The registry's URL (compared with a slash at its end)."),
    }),
    record: { schema: RegistryWorkspace, name: "RegistryWorkspace", secrets: NO_SECRETS },
    list: "workspaces",
    async fetch(client, args: GetRegistryWorkspacesArgs) {
      const registries = await client.images.getRegistries();
      const registry =
        args.registryId !== undefined
          ? single(
              registries.filter((r) => canonicalId(r.registry_id) === canonicalId(args.registryId)),
              `registry with id ${args.registryId}`,
            )
          : single(
              registries.filter((r) => registryUrl(r.registry_url) === registryUrl(args.url)),
              `registry at ${registryUrl(args.url)}`,
            );
      return registry.workspaces ?? [];
    },
  }),
};
