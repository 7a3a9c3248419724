/**
 * Refresh that reads through a vocabulary mismatch and warns, where create and update fail.
 *
 * Answers are understood in both wire vocabularies (see the wire vocabularies in `api/records.ts`), so a refresh can
 * still read an object when the installation speaks the other vocabulary than `kasm:apiNames`.
 * Failing it would block `pulumi refresh` on a setting that reading does not need; staying silent
 * would hide that the next write will not be applied. So the refresh goes on and the user is
 * warned once per resource, naming the setting to change.
 *
 * How: each `read` is handed a context whose client is a lenient view of the installation's
 * client (`KasmClient.readingLeniently`), noting into a list of this read's own; the other methods
 * keep the client, whose reads fail on a mismatch.
 */
import type { LenientReads } from "../../api/records";
import type { KindContext, KindProvider } from "./types";

/** The same providers, each `read` run leniently, with one warning per vocabulary mismatch it met. */
export function refreshingLeniently<P extends Record<string, KindProvider>>(providers: P): P {
  const wrapped: Record<string, KindProvider> = {};
  for (const [kind, provider] of Object.entries(providers)) {
    wrapped[kind] = {
      ...provider,
      async read(id, props, context) {
        const notes: LenientReads = { mismatches: [] };
        const result = await provider.read(id, props, readingLeniently(context, notes));
        for (const message of notes.mismatches) await context.warn(`${context.label(kind, id)}: refresh read it, but ${message}`);
        return result;
      },
    };
  }
  return wrapped as P;
}

/** `context` with its clients read leniently, noting each vocabulary mismatch in `notes`. */
function readingLeniently(context: KindContext, notes: LenientReads): KindContext {
  return {
    ...context,
    client: () => context.client().readingLeniently(notes),
    existingClient: () => context.existingClient()?.readingLeniently(notes),
  };
}
