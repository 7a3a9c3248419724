/**
 * Lookups of workspace registries: a released Kasm's operation (`get_registries`), which the API
 * documentation leaves out. They need `kasm:apiNames` `product`; with `spec` (the default) they
 * fail before sending anything, naming the setting.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { GetRegistryWorkspacesArgs } from "../../provider/lookups/registries";
import { named, outputOf, scrubbed } from "./common";
import type { Api, Camelized, InputArgs, LookupOptions } from "./common";

export type { GetRegistryWorkspacesArgs };

/** A workspace registry (it has no secret fields). */
export type Registry = Camelized<Awaited<ReturnType<Api["images"]["getRegistries"]>>[number]>;
/** A workspace a registry offers, as Kasm lists it (it has no secret fields). */
export type RegistryWorkspace = NonNullable<Registry["workspaces"]>[number];

const fetchRegistries = named("getRegistries");

/** Every workspace registry Kasm lists workspaces from, each with the workspaces it offers. */
export async function getRegistries(options?: LookupOptions): Promise<Registry[]> {
  return (await fetchRegistries({}, options)).map((r) => scrubbed(r));
}

/** {@link getRegistries} as an Output. */
export function getRegistriesOutput(options?: LookupOptions): pulumi.Output<Registry[]> {
  return outputOf(fetchRegistries, (registries) => registries.map((r) => scrubbed(r)))({}, options);
}

const fetchRegistryWorkspaces = named("getRegistryWorkspaces");

/**
 * The workspaces one registry offers, by the registry's id or URL: where a program installs one
 * of them as a `Workspace`.
 *
 * @example
 * ```ts
 * const acme = new kasm.WorkspaceRegistry("acme", { url: "https://registry.example.org/" });
 * const offered = kasm.getRegistryWorkspacesOutput({ registryId: acme.registryId });
 * ```
 */
export async function getRegistryWorkspaces(args: GetRegistryWorkspacesArgs, options?: LookupOptions): Promise<RegistryWorkspace[]> {
  return (await fetchRegistryWorkspaces(args, options)).map((w) => scrubbed(w));
}

/** {@link getRegistryWorkspaces} taking Inputs. */
export function getRegistryWorkspacesOutput(args: InputArgs<GetRegistryWorkspacesArgs>, options?: LookupOptions): pulumi.Output<RegistryWorkspace[]> {
  return outputOf(fetchRegistryWorkspaces, (workspaces) => workspaces.map((w) => scrubbed(w)))(args as InputArgs<GetRegistryWorkspacesArgs>, options);
}
