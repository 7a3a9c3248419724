/**
 * The terms every kind's provider is written in: the properties that travel between the engine
 * and a provider, declared inputs as a refresh leaves them, and the methods of a kind's provider.
 */
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN } from "../../../catalogue/values";

/** Pulumi's placeholder for a value not known during preview (the catalogue's). */
export { UNKNOWN };

/** Properties as they travel between the engine and a provider. */
export type Props = Record<string, unknown>;

/** Declared inputs as a refresh may leave them: a field Kasm has cleared reads back as null. */
export type RefreshedInputs<Inputs> = { [K in keyof Inputs]?: Inputs[K] | null };

/**
 * The methods of one kind's provider, in the terms of Pulumi's
 * `dynamic.ResourceProvider<Inputs, Outputs>` without `configure`: `State` is what the state
 * holds (the declared inputs and the outputs). `check` takes the properties as the program sent
 * them, unchecked: it is where they become `Inputs`. The registry and the wrappers around every
 * kind hold them as `KindProvider` (of `Props`: the wire's view), which any kind's provider is.
 */
export interface KindProvider<Inputs extends object = Props, State extends object = Props> {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: State, news: Inputs): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult<State>>;
  read(id: string, props: State): Promise<pulumi.dynamic.ReadResult<State>>;
  update(id: string, olds: State, news: Inputs): Promise<pulumi.dynamic.UpdateResult<State>>;
  delete(id: string, props: State): Promise<void>;
}
