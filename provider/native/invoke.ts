/**
 * The native provider's Invoke: the lookups of provider/lookups (the program's lookups' one
 * implementation) served as the functions `kasm:index:getZone`, `kasm:index:getUsers`, ... on the
 * process's one installation, the connection the resources use.
 *
 * Arguments are checked with the lookup's zod schema before anything is sent, each problem a
 * failure naming the argument (the engine reports them, and the program stops). The answer is the
 * record as the program's lookups return it (camelCase, fields named like a secret left out), but
 * with the record type's secret fields in it, wrapped as secrets, rather than left out: the engine
 * keeps them secret, as the `...Output` twins do in a program. A list lookup answers its records
 * in one property (`{ zones: [...] }`). A lookup that finds nothing fails with the program's
 * lookups' message (`getZone: Kasm has no zone "x"`).
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { note, warn } from "../engine-log";
import { LOOKUPS, lookupFailure, secretValues, withoutSecrets, type Lookup, type RecordSecrets } from "../lookups";
import { checkInputs } from "../resources/framework/check-wording";
import type { Props } from "../resources/framework/types";
import { contextIn, type ConnectionRegistry } from "../runtime";
import { FUNCTION_TOKENS } from "./functions";
import { fromStruct, secretValue, toStruct } from "./properties";

/** What Invoke needs of the provider process. */
export interface InvokeDeps {
  /** The process's one installation (the default connection), as Configure left it. */
  readonly connections: ConnectionRegistry;
  /** The engine's address, for diagnostics. */
  engineAddress(): string | undefined;
  /** Whether Configure was given every setting (a preview may configure with values not known yet). */
  settingsKnown(): boolean;
}

/** How a value leaves: as it is, or wrapped as a secret. */
type Wrap = (value: unknown) => unknown;
const plain: Wrap = (value) => value;

/** One record as Invoke answers it: without the fields named like a secret, the record type's secret fields wrapped by `wrap`. */
function answered(record: object, secrets: RecordSecrets<unknown, unknown>, wrap: Wrap): Props {
  const secret = Object.entries(secretValues(record, secrets)).filter(([, value]) => value !== undefined);
  return { ...withoutSecrets(record, secrets), ...Object.fromEntries(secret.map(([field, value]) => [field, wrap(value)])) };
}

/** The Invoke method over `deps` (see the module comment). */
export function invokeMethod(deps: InvokeDeps): (req: provproto.InvokeRequest) => Promise<provproto.InvokeResponse> {
  return async (req) => {
    const token = req.getTok();
    const name = FUNCTION_TOKENS.get(token);
    if (name === undefined) throw new Error(`unknown function ${token}: the kasm provider serves ${[...FUNCTION_TOKENS.keys()].join(", ")}`);
    // The table holds every lookup's own argument and record types; the arguments are checked below.
    const lookup: Lookup = LOOKUPS[name];
    const args = fromStruct(req.getArgs());
    const failures = checkInputs(lookup.args, args.props, {}, `an argument of ${name}`).failures ?? [];
    if (failures.length > 0) {
      // A failure of the arguments as a whole (a misspelt name, which its reason names) has no property.
      const list = failures.map((failure) =>
        new provproto.CheckFailure().setProperty(failure.property === "(inputs)" ? "" : failure.property).setReason(failure.reason),
      );
      return new provproto.InvokeResponse().setFailuresList(list);
    }
    // The engine answers an invoke itself, with nothing, while the provider's settings are not known.
    if (!deps.settingsKnown()) return new provproto.InvokeResponse().setReturn(toStruct({}));

    // The same context as the resources' (lifecycle.ts): the default connection of the process's registry.
    const report = { engineAddress: deps.engineAddress() };
    const context = contextIn(deps.connections, undefined, undefined, { warn: (message) => warn(message, report), note: (message) => note(message, report) });
    let found: object | object[];
    try {
      // A setting missing or wrong fails in client(), and is the lookup's failure as much as Kasm's answer.
      found = await lookup.fetch(context.client(), args.props);
    } catch (error) {
      throw new Error(lookupFailure(name, error), { cause: error });
    }
    // An argument given secret (a username) may show in the record: then the whole answer is secret.
    const secretArgs = args.secrets.size > 0;
    const wrap: Wrap = secretArgs ? plain : secretValue;
    const secrets = lookup.record.secrets;
    const result: Props =
      lookup.list === undefined ? answered(found, secrets, wrap) : { [lookup.list]: (found as object[]).map((record) => answered(record, secrets, wrap)) };
    return new provproto.InvokeResponse().setReturn(toStruct(result, secretArgs ? new Set(Object.keys(result)) : undefined));
  };
}
