/**
 * The session permissions that both a StagingConfig and a CastConfig set on the sessions they
 * start (`allow_ws_audio`, `allow_ws_uploads`, ...): one definition of the inputs, their field
 * rules and their names, so that the two kinds cannot drift apart.
 */
import { z } from "zod";

/** The zod inputs of the session permissions, spread into each kind's schema. */
export const SESSION_PERMISSION_INPUTS = {
  allowWsAudio: z.boolean().optional(),
  allowWsUploads: z.boolean().optional(),
  allowWsDownloads: z.boolean().optional(),
  allowWsClipboardDown: z.boolean().optional(),
  allowWsClipboardUp: z.boolean().optional(),
  allowWsMicrophone: z.boolean().optional(),
};

/** Their field rules: each is sent to Kasm, compared as a value, and changes in place. */
export const SESSION_PERMISSION_FIELDS = {
  allowWsAudio: {},
  allowWsUploads: {},
  allowWsDownloads: {},
  allowWsClipboardDown: {},
  allowWsClipboardUp: {},
  allowWsMicrophone: {},
} satisfies Record<keyof typeof SESSION_PERMISSION_INPUTS, object>;

/** Their docs, spread into each kind's (see `KindDocs`). */
export const SESSION_PERMISSION_DOCS = {
  allowWsAudio: "Allow audio in the sessions.",
  allowWsUploads: "Allow uploads into the sessions.",
  allowWsDownloads: "Allow downloads out of the sessions.",
  allowWsClipboardDown: "Allow copying from a session to the local clipboard.",
  allowWsClipboardUp: "Allow pasting from the local clipboard into a session.",
  allowWsMicrophone: "Allow the microphone.",
} satisfies Record<keyof typeof SESSION_PERMISSION_INPUTS, string>;
