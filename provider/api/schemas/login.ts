/** Schemas of the login area: login links that sign a user in without a password. */
import { z } from "zod";

/** The answer of `get_login`: the URL to send the user to. */
export const LoginLink = z.object({
  url: z.string(),
});
/** The answer of `get_login`. */
export type LoginLink = z.infer<typeof LoginLink>;
