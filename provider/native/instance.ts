/**
 * The provider instance's own methods: CheckConfig, DiffConfig and Configure.
 *
 * CheckConfig keeps the settings as the program gave them (their result is the provider
 * resource's state) with `apiKeySecret` wrapped as a secret even when the program gave it plain;
 * DiffConfig says whether they changed (a changed setting reconfigures, it never replaces the
 * resources: the dynamic provider's default connection behaves so too); Configure hands them to
 * the process's connection registry, which applies the `KASM_*` fallbacks, and answers that the
 * provider takes secrets (so the engine sends them wrapped and expects them wrapped back) and
 * previews (so Create and Update are called with `preview`).
 */
import { isDeepStrictEqual } from "node:util";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { ConnectionRegistry } from "../runtime";
import type { Props } from "../resources/framework/types";
import { hasUnknownSetting, SECRET_SETTINGS, settingsReader } from "./configuration";
import { fromStruct, toStruct } from "./properties";

/** The prefix of the deprecated string form of the settings (`kasm:config:baseUrl`). */
const VARIABLE_PREFIX = "kasm:config:";

/** Properties the engine adds to every provider instance's inputs, which are not settings. */
const ENGINE_PROPERTIES = ["version", "pluginDownloadURL"];

/**
 * A default provider's resource name: `default`, or `default_<version>` (`default_0_1_0`), as the
 * engine names the provider it makes from the stack's `kasm:` configuration.
 */
const DEFAULT_PROVIDER_NAME = /^default(_\d+_\d+_\d+\S*)?$/;

/**
 * The resource name of the explicit provider being configured (`staging`), or undefined for a
 * default provider (its settings are the stack's `kasm:` keys) or an engine that sends neither
 * the name nor the URN (an older engine).
 */
export function explicitProviderName(req: provproto.ConfigureRequest): string | undefined {
  const name = req.getName() || (req.getUrn() ?? "").split("::").slice(3).join("::");
  return name === "" || DEFAULT_PROVIDER_NAME.test(name) ? undefined : name;
}

/** What Configure leaves for the resource methods. */
export interface ConfiguredState {
  /** Whether every setting was known (a preview may configure with values not known yet). */
  settingsKnown: boolean;
  /**
   * The explicit provider this process is, by resource name and URN, when the engine sent both:
   * `pulumi import` of one of its resources must name it (`--provider <name>=<urn>`).
   */
  explicitProvider?: { readonly name: string; readonly urn: string };
}

/** The settings among `props`, without what the engine adds. */
function settingsOf(props: Props): Props {
  return Object.fromEntries(Object.entries(props).filter(([key]) => !ENGINE_PROPERTIES.includes(key)));
}

/** The instance methods over `connections`, recording in `state` what the resource methods need. */
export function instanceMethods(connections: ConnectionRegistry, state: ConfiguredState) {
  return {
    async checkConfig(req: provproto.CheckRequest): Promise<provproto.CheckResponse> {
      const news = fromStruct(req.getNews());
      const secrets = new Set([...news.secrets, ...Object.keys(news.props).filter((key) => SECRET_SETTINGS.has(key))]);
      return new provproto.CheckResponse().setInputs(toStruct(news.props, secrets));
    },

    async diffConfig(req: provproto.DiffRequest): Promise<provproto.DiffResponse> {
      const olds = settingsOf(fromStruct(req.getOldInputs() ?? req.getOlds()).props);
      const news = settingsOf(fromStruct(req.getNews()).props);
      const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((key) => !isDeepStrictEqual(olds[key], news[key]));
      const response = new provproto.DiffResponse()
        .setChanges(changed.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE)
        .setHasdetaileddiff(true);
      for (const key of changed)
        response.getDetaileddiffMap().set(key, new provproto.PropertyDiff().setKind(provproto.PropertyDiff.Kind.UPDATE).setInputdiff(true));
      return response;
    },

    async configure(req: provproto.ConfigureRequest): Promise<provproto.ConfigureResponse> {
      const args = req.getArgs();
      const props =
        args !== undefined
          ? settingsOf(fromStruct(args).props)
          : Object.fromEntries(
              [...req.getVariablesMap().entries()]
                .filter(([key]) => key.startsWith(VARIABLE_PREFIX))
                .map(([key, value]) => [key.slice(VARIABLE_PREFIX.length), value]),
            );
      // An explicit provider's messages name its own properties, not the stack's `kasm:` keys.
      const explicit = args !== undefined ? explicitProviderName(req) : undefined;
      connections.reconfigure(settingsReader(props), explicit);
      state.settingsKnown = !hasUnknownSetting(props);
      const urn = req.getUrn();
      state.explicitProvider = explicit !== undefined && urn ? { name: explicit, urn } : undefined;
      return new provproto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true).setAcceptresources(false).setAcceptoutputs(false);
    },
  };
}
