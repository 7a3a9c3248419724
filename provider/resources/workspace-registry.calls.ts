/**
 * What the WorkspaceRegistry provider (`./workspace-registry.ts`) calls in each lifecycle step, in the order it calls
 * them, and under which circumstances: the kind's calls declaration (see `KindCalls` in
 * `permissions/planned-calls.ts`). When the provider changes what it calls, or when, this changes in
 * the same commit: the client a step is handed refuses an operation the step does not list here
 * (`framework/connections.ts`), and the permission policy packs judge API keys by it (`KIND_ROWS`).
 * It imports only the catalogue, so that the packs load it without the provider's runtime.
 */
import { adoptOptions, declareCalls, flag, given, plan } from "../../permissions/planned-calls";

/**
 * What each step of a WorkspaceRegistry calls.
 * The URL is looked up first, with adopt or without (Kasm refuses a second registry of one URL);
 * registry_auto_updates sets autoUpdate: after the create when it is declared true, on an adopted
 * registry whose setting differs, and on an update.
 */
export const workspaceRegistryCalls = declareCalls("WorkspaceRegistry", (props) => {
  const adopt = adoptOptions(props.adopt, "with adopt: true");
  const autoUpdate = flag(props.autoUpdate);
  const switched = autoUpdate === false ? undefined : autoUpdate === true ? {} : { unsure: "whether autoUpdate is true is not known yet" };
  return {
    create: [
      plan("get_registries"),
      ...(adopt && given(props.autoUpdate)
        ? [plan("registry_auto_updates", {}, { ...adopt, condition: "with adopt: true, when the registry's autoUpdate differs from the program" })]
        : []),
      plan("create_registry", {}, adopt ? { condition: "unless adopt: true finds the registry" } : {}),
      ...(switched ? [plan("registry_auto_updates", {}, { ...switched, condition: "with autoUpdate: true, after the create" })] : []),
    ],
    read: [plan("get_registries")],
    update: given(props.autoUpdate) ? [plan("registry_auto_updates")] : [plan("get_registries")],
    // The registry is looked up first: Kasm fails on deleting one it does not have.
    delete: [plan("get_registries"), plan("delete_registry")],
  };
});
