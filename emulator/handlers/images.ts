/**
 * Images and session recordings (read only).
 */
import { z } from "zod";
import { MissingParameters } from "../errors";
import type { ImageRecord, RecordingRecord, Store } from "../store";
import { bool, int, parse, type Call, type Handler } from "./common";

/** An image as get_images shows it: with its zone name and attribute list. */
function imageJson(store: Store, image: ImageRecord) {
  return {
    ...image,
    zone_name: image.zone_id ? (store.state.zones[image.zone_id]?.zone_name ?? null) : null,
    imageAttributes: [] as unknown[],
  };
}

const getImages: Handler = ({ store }) => ({
  images: Object.values(store.state.images).map((i) => imageJson(store, i)),
});

/** The fixed page size of get_session_recordings. */
const RECORDINGS_PER_PAGE = 5;

function recordingJson(r: RecordingRecord, baseUrl: string, withDownloadLink: boolean) {
  const json: Record<string, unknown> = {
    recording_id: r.recording_id,
    account_id: r.account_id,
    session_recording_url: `${baseUrl}/recordings/${r.ws_id}/${r.recording_id}.webm`,
    session_recording_metadata: { duration: r.duration, thumbnail: "", timestamp: r.timestamp },
  };
  if (withDownloadLink)
    json.session_recording_download_url = `${baseUrl}/recordings/${r.ws_id}/${r.recording_id}.webm?preauth=${r.recording_id.slice(0, 16)}`;
  return json;
}

const getSessionRecordings: Handler = ({ body, store, baseUrl }: Call) => {
  const req = parse(
    z.object({
      target_ws_id: z.string().optional(),
      preauth_download_link: bool.optional(),
      page: int.refine((n) => n >= 1, "pages start at 1").optional(),
    }),
    body,
    "",
  );
  if (!req.target_ws_id) throw new MissingParameters();
  const wsId = store.session(req.target_ws_id)?.ws_id ?? req.target_ws_id.replace(/-/g, "").toLowerCase();
  const all = store.recordingsOf(wsId);
  const page = req.page ?? 1;
  const items = all.slice((page - 1) * RECORDINGS_PER_PAGE, page * RECORDINGS_PER_PAGE);
  return {
    session_recordings: items.map((r) => recordingJson(r, baseUrl, req.preauth_download_link ?? false)),
    items: all.length,
    page,
    per_page: RECORDINGS_PER_PAGE,
    total_duration: all.reduce((sum, r) => sum + r.duration, 0),
  };
};

const getSessionsRecordings: Handler = ({ body, store, baseUrl }: Call) => {
  const req = parse(
    z.object({ target_ws_ids: z.array(z.string()).optional(), preauth_download_link: bool.optional() }),
    body,
    "",
  );
  if (!req.target_ws_ids) throw new MissingParameters();
  const ws_sessions: Record<string, { session_recordings: unknown[] }> = {};
  for (const raw of req.target_ws_ids) {
    const wsId = store.session(raw)?.ws_id ?? raw.replace(/-/g, "").toLowerCase();
    ws_sessions[wsId] = {
      session_recordings: store.recordingsOf(wsId).map((r) => recordingJson(r, baseUrl, req.preauth_download_link ?? false)),
    };
  }
  return { ws_sessions };
};

/** The handlers of this area, by operation. */
export const imageHandlers = {
  get_images: getImages,
  get_session_recordings: getSessionRecordings,
  get_sessions_recordings: getSessionsRecordings,
} satisfies Record<string, Handler>;
