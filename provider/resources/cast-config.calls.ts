/**
 * What the CastConfig provider (`./cast-config.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { CAST_GROUP_CHANGING } from "../../permissions/kinds";
import { adoptOptions, declareCalls, DYNAMIC_PREVIEW, given, plan, ref, systemFact } from "../../permissions/planned-calls";

/**
 * What each step of a CastConfig calls.
 */
export const castConfigCalls = declareCalls("CastConfig", (props, knowledge) => {
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
  // With adopt: true, a config of that key that differs from the program is brought to it (a
  // released Kasm's, which can list configs): Casting Modify, and Groups Modify when it moves groups.
  const adopt = adoptOptions(props.adopt, "with adopt: true, when a config with that key exists and differs from the program");
  return {
    create: [
      ...(adopt ? [plan("update_cast_config", facts, { ...adopt, explain })] : []),
      plan("create_cast_config", {}, adopt ? { condition: "unless adopt: true finds the config" } : {}),
    ],
    // The documentation lists no read of casting configs: refresh keeps the last known state and
    // calls nothing. A released Kasm (kasm:apiNames product) reads them with get_cast_config(s),
    // which needs Casting View: every key this row lets create, update or delete one holds it in
    // effect already (Casting Create, Modify and Delete each need it by the dependency rules).
    read: [],
    update: [plan("update_cast_config", facts, { explain })],
    delete: [plan("delete_cast_config")],
  };
});
