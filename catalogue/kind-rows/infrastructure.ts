/**
 * The kind rows of sessions, servers and licensing (see `catalogue/kind-table.ts`): StagingConfig,
 * CastConfig, ServerDrain, LicenseActivation, ServerImport. Read each next to
 * `provider/resources/<kind>.ts`.
 */
import { isUnknownValue } from "../values";
import { CAST_GROUP_CHANGING, type LifecycleStep } from "../kinds";
import { serverImportRows } from "../bulk-rows";
import { referenceKey } from "../permission-knowledge";
import { adoptOptions, DYNAMIC_PREVIEW, given, plan, ref, systemFact, type CallOptions, type Rows } from "./plan";

/** The rows of staging, casting, servers and licensing. */
export const INFRASTRUCTURE_ROWS = {
  // provider/resources/staging-config.ts
  StagingConfig: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    // A released Kasm's update clears the server pool and autoscale config it is not sent: with
    // kasm:apiNames product the client reads the config first and sends them (operations/staging.ts).
    const keepPool = (options: CallOptions) =>
      plan(
        "get_staging_config",
        {},
        { ...options, condition: `${options.condition}, with kasm:apiNames product: to keep the config's server pool and autoscale config` },
      );
    const changed = "when a field sent to Kasm changed";
    return {
      create: [
        // The zone and image are looked up first, with adopt or without: a released Kasm fails a second
        // config of them with a server error, which the provider must not take for its own create.
        plan("get_staging_configs"),
        ...(adopt
          ? [
              keepPool(adopt),
              plan(
                "update_staging_config",
                {},
                { ...adopt, condition: "with adopt: true, when the zone and image have a staging config that differs from the program" },
              ),
            ]
          : []),
        plan("create_staging_config", {}, adopt ? { condition: "unless adopt: true finds a staging config" } : {}),
      ],
      read: [plan("get_staging_config")],
      update: [keepPool({ condition: changed }), plan("update_staging_config", {}, { condition: changed })],
      delete: [plan("delete_staging_config")],
    };
  },

  // provider/resources/cast-config.ts
  CastConfig: (props, knowledge) => {
    // Moving a config between groups needs Groups Modify (1.15.0 checks both groups). A policy sees
    // the new properties only: the native provider's preview of an update notes whether it moves
    // the config (see CAST_GROUP_CHANGING). Without the note, the state's outputs (a config id)
    // are a run that does not change it, and a create's planned outputs (the id not known yet)
    // leave a later move to the preview of that change; a dynamic resource's preview shows
    // neither (its outputs are its inputs), so it cannot be told.
    const noted = props[CAST_GROUP_CHANGING];
    const group = ref(props.groupId);
    const planned = noted !== undefined && noted !== null ? noted : props.castConfigId === undefined || props.castConfigId === null ? undefined : false;
    const facts = {
      changesCastGroup: typeof planned === "boolean" ? planned : undefined,
      targetGroupIsSystem: given(props.groupId) ? (group === undefined ? undefined : knowledge.groupIsSystem(group)) : false,
    };
    const explain = {
      changesCastGroup:
        planned === undefined
          ? `whether this change moves the casting config to another group (groupId): ${DYNAMIC_PREVIEW}`
          : `whether the update moves the casting config to another group (groupId): ${CAST_GROUP_CHANGING} depends on a value not known yet`,
      targetGroupIsSystem: systemFact(group),
    };
    return {
      create: [plan("create_cast_config")],
      // The documentation lists no read of casting configs: refresh keeps the last known state and
      // calls nothing. A released Kasm (kasm:apiNames product) reads them with get_cast_config(s),
      // which needs Casting View: every key this row lets create, update or delete one holds it in
      // effect already (Casting Create, Modify and Delete each need it by the dependency rules).
      read: [],
      update: [plan("update_cast_config", facts, { explain })],
      delete: [plan("delete_cast_config")],
    };
  },

  // provider/resources/server-drain.ts
  ServerDrain: () => ({
    // Create reads the server first, and sets nothing when its record shows the flag as declared.
    create: [plan("get_servers"), plan("set_drain_server", {}, { condition: "unless the server's record shows the declared state" })],
    read: [plan("get_servers")],
    update: [plan("set_drain_server")],
    // Destroy sets the server back to not draining.
    delete: [plan("set_drain_server")],
  }),

  // provider/resources/license-activation.ts
  LicenseActivation: () => ({
    create: [plan("activate")],
    // Kasm cannot read or remove licenses; every change replaces (a new activation).
    read: [],
    update: [],
    delete: [],
  }),

  // provider/resources/server-import/
  ServerImport: (props, knowledge) => {
    // The users the rows assign (by username): undefined when the rows, or one of these usernames, are not known yet.
    const rows = serverImportRows(props, isUnknownValue);
    const rowsKnown = rows !== undefined && rows.rows.every((r) => r !== undefined);
    const assigned = (rows?.rows ?? []).flatMap((r) =>
      r === undefined || r.assignedUsername === undefined || r.assignedUsername === null || r.assignedUsername === "" ? [] : [r.assignedUsername],
    );
    const assignsUsers = assigned.length > 0 ? true : rowsKnown ? false : undefined;
    const admin = (step: LifecycleStep): boolean | undefined => {
      let result: boolean | undefined = rowsKnown ? false : undefined;
      for (const user of assigned) {
        const answer =
          typeof user === "string" && !isUnknownValue(user) ? knowledge.userIsGlobalAdmin(referenceKey(user), { kind: "ServerImport", step }) : undefined;
        if (answer === true) return true;
        if (answer === undefined) result = undefined;
      }
      return result;
    };
    const explain = {
      assignsUsers: "whether a row assigns a user (the rows are not known yet; a user with Global Admin would also need Users Modify Admin)",
      targetUserIsGlobalAdmin: "whether a user a row assigns (assignedUsername) holds Global Admin; list the users that do, by username, in globalAdminUserIds",
    };
    const importCall = (step: LifecycleStep, condition?: string) =>
      plan(
        "batch_create_server",
        { assignsUsers, targetUserIsGlobalAdmin: assignsUsers === false ? false : admin(step) },
        { explain, ...(condition ? { condition } : {}) },
      );
    // With kasm:apiNames product the servers are listed before the import, so that an import whose answer is lost is found (server-import/import.ts).
    const listing = (condition: string) => plan("get_servers", {}, { condition });
    return {
      create: [listing("with kasm:apiNames product: every server, before the import"), importCall("create")],
      read: [plan("get_servers", {}, { condition: "once per server" })],
      // Kasm cannot update servers: added and changed rows are imported as new servers.
      update: [
        listing("with kasm:apiNames product, when rows are added or changed: every server, before the import"),
        importCall("update", "when rows are added or changed"),
      ],
      // Kasm cannot delete servers: destroy only forgets them.
      delete: [],
    };
  },
} satisfies Rows<"StagingConfig" | "CastConfig" | "ServerDrain" | "LicenseActivation" | "ServerImport">;
