/** Lookups of staging configs and of egress providers and gateways. */
import type * as pulumi from "@pulumi/pulumi";
import type { GetEgressGatewaysArgs, GetEgressProvidersArgs } from "../../provider/lookups/egress";
import { EGRESS_GATEWAY_SECRETS, type EgressGatewayRecord, type EgressGatewaySecrets } from "../../provider/lookups/secrets";
import { named, outputOf, scrubbed, withoutSecrets, withSecretOutputs } from "./common";
import type { Api, Camelized, InputArgs, LookupOptions, WithoutSecrets, WithSecretOutputs } from "./common";

export type { EgressGatewaySecrets, GetEgressGatewaysArgs, GetEgressProvidersArgs };

/** A staging config (it has no secret fields). */
export type StagingConfig = Camelized<Awaited<ReturnType<Api["staging"]["getStagingConfigs"]>>[number]>;
/** An egress provider (it has no secret fields). */
export type EgressProvider = Camelized<Awaited<ReturnType<Api["egress"]["getEgressProviders"]>>[number]>;
/** An egress gateway, as {@link getEgressGateways} returns it: without {@link EgressGatewaySecrets}. */
export type EgressGateway = WithoutSecrets<EgressGatewayRecord, EgressGatewaySecrets>;
/** An egress gateway, as {@link getEgressGatewaysOutput} returns it: {@link EgressGatewaySecrets} as secret Outputs. */
export type EgressGatewayWithSecrets = WithSecretOutputs<EgressGatewayRecord, EgressGatewaySecrets>;

// --- staging -------------------------------------------------------------------------------------

const fetchStagingConfigs = named("getStagingConfigs");

/** Every staging config. */
export async function getStagingConfigs(options?: LookupOptions): Promise<StagingConfig[]> {
  return (await fetchStagingConfigs({}, options)).map((c) => scrubbed(c));
}

/** {@link getStagingConfigs} as an Output. */
export function getStagingConfigsOutput(options?: LookupOptions): pulumi.Output<StagingConfig[]> {
  return outputOf(fetchStagingConfigs, (configs) => configs.map((c) => scrubbed(c)))({}, options);
}

// --- egress --------------------------------------------------------------------------------------

const fetchEgressProviders = named("getEgressProviders");

/** Egress providers, optionally filtered (exact matches). */
export async function getEgressProviders(args: GetEgressProvidersArgs = {}, options?: LookupOptions): Promise<EgressProvider[]> {
  return (await fetchEgressProviders(args, options)).map((p) => scrubbed(p));
}

/** {@link getEgressProviders} taking Inputs. */
export function getEgressProvidersOutput(args: InputArgs<GetEgressProvidersArgs> = {}, options?: LookupOptions): pulumi.Output<EgressProvider[]> {
  return outputOf(fetchEgressProviders, (providers) => providers.map((p) => scrubbed(p)))(args, options);
}

const fetchEgressGateways = named("getEgressGateways");

/**
 * Egress gateways, optionally filtered (exact matches). Leaves out {@link EgressGatewaySecrets}
 * (`config`); {@link getEgressGatewaysOutput} has it as a secret.
 */
export async function getEgressGateways(args: GetEgressGatewaysArgs = {}, options?: LookupOptions): Promise<EgressGateway[]> {
  return (await fetchEgressGateways(args, options)).map((g) => withoutSecrets(g, EGRESS_GATEWAY_SECRETS));
}

/** {@link getEgressGateways} taking Inputs; {@link EgressGatewaySecrets} (`config`) come as secret Outputs. */
export function getEgressGatewaysOutput(args: InputArgs<GetEgressGatewaysArgs> = {}, options?: LookupOptions): pulumi.Output<EgressGatewayWithSecrets[]> {
  return outputOf(fetchEgressGateways, (gateways) => gateways.map((g) => withSecretOutputs(g, EGRESS_GATEWAY_SECRETS)))(args, options);
}
