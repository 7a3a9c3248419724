/**
 * The session permissions that both a StagingConfig and a CastConfig set on the sessions they
 * start (`allow_ws_audio`, `allow_ws_uploads`, ...): one declaration of each input (its type, its
 * rule, its doc), spread into both kinds' field declarations, so that the two kinds cannot drift
 * apart.
 */
import { z } from "zod";
import type { FieldDeclaration } from "./framework/fields";

/**
 * The session permissions' field declarations (see `declareFields`), spread into each kind's:
 * each is sent to Kasm, compared as a value, and changes in place.
 */
export const SESSION_PERMISSION_FIELDS = {
  allowWsAudio: { type: z.boolean().optional(), role: "sent", doc: "Allow audio in the sessions." },
  allowWsUploads: { type: z.boolean().optional(), role: "sent", doc: "Allow uploads into the sessions." },
  allowWsDownloads: { type: z.boolean().optional(), role: "sent", doc: "Allow downloads out of the sessions." },
  allowWsClipboardDown: { type: z.boolean().optional(), role: "sent", doc: "Allow copying from a session to the local clipboard." },
  allowWsClipboardUp: { type: z.boolean().optional(), role: "sent", doc: "Allow pasting from the local clipboard into a session." },
  allowWsMicrophone: { type: z.boolean().optional(), role: "sent", doc: "Allow the microphone." },
} as const satisfies Readonly<Record<string, FieldDeclaration>>;
