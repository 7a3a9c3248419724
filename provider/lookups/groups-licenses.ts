/**
 * Lookups of groups and licenses: a released Kasm's operations (`get_groups`, `get_licenses`),
 * which the API documentation leaves out. They need `kasm:apiNames` `product`; with `spec` (the
 * default) they fail before sending anything, naming the setting.
 */
import { z } from "zod";
import { canonicalId } from "../../permissions/planned-calls";
import { GroupRecord } from "../api/schemas/groups";
import { License } from "../api/schemas/licenses";
import { NO_SECRETS, oneRecord, recordList, single } from "./common";
import { eitherKey } from "./arguments";

/** Arguments of the getGroup lookup: the group's exact name, or its id (either spelling). */
export type GetGroupArgs = { readonly name: string; readonly groupId?: undefined } | { readonly groupId: string; readonly name?: undefined };

const GROUP = { schema: GroupRecord, name: "Group", secrets: NO_SECRETS };

/** The lookups of groups and licenses. */
export const GROUP_LICENSE_LOOKUPS = {
  getGroups: recordList({
    description: "Every group the API key may view (system groups need Groups View System). A released Kasm's operation: needs the setting apiNames product.",
    args: z.strictObject({}),
    record: GROUP,
    list: "groups",
    fetch: async (client) => client.groups.getGroups(),
  }),

  getGroup: oneRecord({
    description: "One group, by exact name or by id. A released Kasm's operation: needs the setting apiNames product.",
    args: eitherKey({
      name: z.string().optional().describe("The group's exact name."),
      groupId: z.string().optional().describe("The group's id: 32 hex digits, or a hyphenated UUID."),
    }),
    record: GROUP,
    async fetch(client, args: GetGroupArgs) {
      const groups = await client.groups.getGroups();
      if (args.groupId !== undefined)
        return single(
          groups.filter((g) => canonicalId(g.group_id) === canonicalId(args.groupId)),
          `group with id ${args.groupId}`,
        );
      return single(
        groups.filter((g) => g.name === args.name),
        `group named '${args.name}' (names are compared exactly)`,
      );
    },
  }),

  getLicenses: recordList({
    description:
      "Every license applied to the installation: seats (limit), type, expiry and features. A released Kasm's operation: needs the setting apiNames product.",
    args: z.strictObject({}),
    // The license key itself is not returned: a license has no secret fields.
    record: { schema: License, name: "License", secrets: NO_SECRETS },
    list: "licenses",
    fetch: async (client) => client.licenses.getLicenses(),
  }),
};
