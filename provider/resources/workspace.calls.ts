/**
 * What the Workspace provider (`./workspace.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { RESOURCE_FIELDS_CHANGING, WORKSPACE_RESOURCE_PROPERTIES } from "../../permissions/kinds";
import { adoptOptions, declareCalls, DYNAMIC_PREVIEW, isUnknownValue, plan } from "../../permissions/planned-calls";

/** Whether an update of a workspace touches a compute-related field, as far as the pack can tell. */
interface ResourceChange {
  /** True, false, or undefined when the pack cannot tell. */
  readonly changes: boolean | undefined;
  /** The compute-related fields the change sets, when known (for the message). */
  readonly fields: readonly string[];
  /** Why it is not known, when it is not. */
  readonly explain: string;
}

/**
 * Whether the update of this workspace changes a compute-related field (the spec's special
 * permission 3: Images Modify Resources on top of Images Modify). A policy sees the new
 * properties only, so the native provider's preview of an update writes the answer into the
 * planned outputs (`resourceFieldsChanging`, see `RESOURCE_FIELDS_CHANGING`), and the stack policy
 * finds it where Pulumi puts what it shows:
 * - an update in a native preview: the planned outputs, the list decides;
 * - a workspace the run does not change, or the outputs after `up` applied the change: the
 *   state's outputs, with the image's id and no list: this run sends it no compute change;
 * - a create, or any change of a dynamic resource (whose preview shows its new inputs as outputs,
 *   the same for a create and an update): not known when it declares a compute field (a create
 *   itself needs Images Create alone: 1.15.0 checks no field of it).
 */
function resourceChange(props: Readonly<Record<string, unknown>>): ResourceChange {
  const noted = props[RESOURCE_FIELDS_CHANGING];
  if (Array.isArray(noted) && noted.every((field) => typeof field === "string" && !isUnknownValue(field)))
    return { changes: noted.length > 0, fields: noted, explain: "" };
  if (noted !== undefined && noted !== null)
    return {
      changes: undefined,
      fields: [],
      explain: `whether the change touches a compute-related field (${COMPUTE_WORDS}): ${RESOURCE_FIELDS_CHANGING} depends on a value not known yet`,
    };
  const imageId = props.imageId;
  if (typeof imageId === "string" && imageId !== "" && !isUnknownValue(imageId)) return { changes: false, fields: [], explain: "" };
  return { changes: declaresResources(props) === false ? false : undefined, fields: [], explain: LATER_CHANGE };
}

/** The compute-related fields, in words. */
const COMPUTE_WORDS = "cores, memory, GPU, registry and its credentials, volume mappings, run or exec config";

/** The words for not knowing whether a later change of a workspace being created sets a compute-related field. */
const LATER_CHANGE = `whether this change or a later one touches a compute-related field it declares (${COMPUTE_WORDS}): on a create, the pack decides it in the preview of that later change; ${DYNAMIC_PREVIEW}`;

/** The words for not knowing whether adopting sets a compute-related field: the image it takes over is not known to the pack. */
const ADOPTED_IMAGE = `whether the image adopt takes over differs from the program in a compute-related field it declares (${COMPUTE_WORDS})`;

/** Whether the workspace declares a compute-related field: true, false, or undefined when one is not known. */
function declaresResources(props: Readonly<Record<string, unknown>>): boolean | undefined {
  const given = WORKSPACE_RESOURCE_PROPERTIES.map((name) => props[name]).filter((value) => value !== undefined);
  if (given.some(isUnknownValue)) return undefined;
  return given.length > 0;
}

/**
 * What each step of a Workspace calls.
 */
export const workspaceCalls = declareCalls("Workspace", (props) => {
  const adopt = adoptOptions(props.adopt, "with adopt: true");
  const resources = resourceChange(props);
  const explain = { changesImageResources: resources.explain };
  // The message of a refusal names the fields, never their values.
  const updateWhen = resources.fields.length > 0 ? `this change sets ${resources.fields.join(", ")}, compute-related` : "when a field sent to Kasm changed";
  return {
    create: [
      // An adopting create updates an image the pack cannot see: it may set any compute field the program declares.
      ...(adopt
        ? [
            plan(
              "update_image",
              { changesImageResources: declaresResources(props) === false ? false : undefined },
              {
                ...adopt,
                explain: { changesImageResources: ADOPTED_IMAGE },
                condition: "with adopt: true, when an image of that name and friendly name differs from the program",
              },
            ),
          ]
        : []),
      // get_images finds the image to adopt, and reads back what the create or update wrote.
      plan("create_image", {}, adopt ? { condition: "unless adopt: true finds the image" } : {}),
      plan("get_images"),
    ],
    read: [plan("get_images")],
    update: [
      plan("get_images", {}, { condition: "when a field sent to Kasm changed" }),
      plan("update_image", { changesImageResources: resources.changes }, { condition: updateWhen, explain }),
    ],
    delete: [plan("delete_image")],
  };
});
