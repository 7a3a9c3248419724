/**
 * The rows of the workspace kinds (a released Kasm's image operations): what each step of a
 * Workspace and a GroupWorkspace calls, read next to `provider/resources/workspace.ts` and
 * `provider/resources/group-workspace.ts`.
 */
import type { Rows } from "./plan";
import { adoptOptions, plan, ref, systemFact, WORKSPACE_RESOURCE_PROPERTIES } from "./plan";
import { isUnknownValue } from "../values";

/**
 * Whether the workspace declares a compute-related field: true, false, or undefined when one is
 * not known. A create that sets one needs Images Modify Resources; an update needs it when one of
 * them changes, which a policy, seeing only the new inputs, cannot tell: it says so.
 */
function declaresResources(props: Readonly<Record<string, unknown>>): boolean | undefined {
  const given = WORKSPACE_RESOURCE_PROPERTIES.map((name) => props[name]).filter((value) => value !== undefined);
  if (given.some(isUnknownValue)) return undefined;
  return given.length > 0;
}

export const WORKSPACE_ROWS: Rows<"Workspace" | "GroupWorkspace"> = {
  // provider/resources/workspace.ts
  Workspace: (props) => {
    const adopt = adoptOptions(props.adopt, "with adopt: true");
    const resources = declaresResources(props);
    const explain = { setsImageResources: "whether the workspace declares a compute-related field (cores, memory, GPU, registry, volume mappings, run or exec config)" };
    return {
      create: [
        ...(adopt
          ? [
              plan("get_images", {}, adopt),
              plan("get_image", {}, { ...adopt, condition: "with adopt: true, when an image has that name and friendly name" }),
              plan("update_image", { setsImageResources: resources }, { ...adopt, explain, condition: "with adopt: true, when the image found differs from the program" }),
            ]
          : []),
        plan("create_image", { setsImageResources: resources }, adopt ? { explain, condition: "unless adopt: true finds the image" } : { explain }),
        // Read back: a value Kasm did not take fails the create.
        plan("get_image"),
      ],
      read: [plan("get_image")],
      update: [
        plan("get_image", {}, { condition: "when a field sent to Kasm changed" }),
        // Sent when a field sent to Kasm changed; Images Modify Resources when one of the changed fields is compute-related.
        plan("update_image", { setsImageResources: resources === false ? false : undefined }, {
          condition: "when a field sent to Kasm changed",
          explain: { setsImageResources: "whether the change touches a compute-related field (cores, memory, GPU, registry, volume mappings, run or exec config)" },
        }),
        plan("get_image", {}, { condition: "when a field sent to Kasm changed" }),
      ],
      delete: [plan("delete_image")],
    };
  },

  // provider/resources/group-workspace.ts
  GroupWorkspace: (props, knowledge) => {
    const group = ref(props.groupId);
    const system = group === undefined ? undefined : knowledge.groupIsSystem(group);
    const explain = { targetGroupIsSystem: systemFact(group) };
    return {
      // The group's images are read first (an existing authorization is an error without adopt) and again after the add.
      create: [
        plan("get_images_group"),
        plan("add_images_group", { targetGroupIsSystem: system }, { explain, condition: "unless the group lists the image already" }),
        plan("get_images_group", {}, { condition: "after the add" }),
      ],
      read: [plan("get_images_group")],
      // Only `adopt` changes in place, and that calls nothing.
      update: [],
      delete: [plan("remove_images_group", { targetGroupIsSystem: system }, { explain })],
    };
  },
};
