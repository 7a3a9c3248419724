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
 * not known. An update needs Images Modify Resources (with Images Modify) when one of them
 * changes, which a policy, seeing only the new inputs, cannot tell: it says so. A create needs
 * Images Create alone (1.15.0 checks no field of it).
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
    // The whole record is sent: a compute-related field changes only when the program declares one.
    const changes = declaresResources(props) === false ? false : undefined;
    const explain = { changesImageResources: "whether the change touches a compute-related field (cores, memory, GPU, registry and its credentials, volume mappings, run or exec config)" };
    return {
      create: [
        ...(adopt ? [plan("update_image", { changesImageResources: changes }, { ...adopt, explain, condition: "with adopt: true, when an image of that name and friendly name differs from the program" })] : []),
        // get_images finds the image to adopt, and reads back what the create or update wrote.
        plan("create_image", {}, adopt ? { condition: "unless adopt: true finds the image" } : {}),
        plan("get_images"),
      ],
      read: [plan("get_images")],
      update: [
        plan("get_images", {}, { condition: "when a field sent to Kasm changed" }),
        plan("update_image", { changesImageResources: changes }, { condition: "when a field sent to Kasm changed", explain }),
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
