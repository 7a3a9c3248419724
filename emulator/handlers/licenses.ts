/**
 * Licence activation.
 */
import { z } from "zod";
import { InvalidRequest } from "../errors";
import { int, parse, text, type Handler } from "./common";

const Activation = z.object({ activation_key: z.string().optional(), seats: int.nullable().optional(), issued_to: text.optional() });

const activate: Handler = ({ body, store }) => {
  const req = parse(Activation, body, "");
  if (!req.activation_key?.trim()) throw new InvalidRequest("Invalid Request. Missing activation_key");
  const license = store.activate(req.activation_key, req.seats ?? undefined, req.issued_to ?? null);
  return { license: { ...license } };
};

/** The handlers of this area, by operation. */
export const licenseHandlers = { activate } satisfies Record<string, Handler>;
