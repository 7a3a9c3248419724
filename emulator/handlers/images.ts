/**
 * Images and session recordings (read only).
 */
import { z } from "zod";
import { MissingParameters } from "../errors";
import { IMAGE, RECORDING, RECORDING_METADATA } from "../fields";
import type { ImageRecord, RecordingRecord, Store } from "../store";
import { bool, int, parse, type Call, type Handler } from "./common";

/** An image as get_images shows it: with its zone name and (empty) attribute list. */
function imageJson(store: Store, image: ImageRecord, observedFields: boolean) {
  return IMAGE.form(
    {
      image_id: image.image_id,
      name: image.name,
      friendly_name: image.friendly_name,
      description: image.description,
      enabled: image.enabled,
      available: image.available,
      memory: image.memory,
      cores: image.cores,
      cpu_allocation_method: image.cpu_allocation_method,
      x_res: image.x_res,
      y_res: image.y_res,
      ctr_registry: image.ctr_registry,
      ctr_user: image.ctr_user,
      ctr_token: image.ctr_token,
      hash: image.hash,
      volume_mappings: image.volume_mappings,
      run_config: image.run_config,
      persistent_profile_config: image.persistent_profile_config,
      persistent_profile_path: image.persistent_profile_path,
      exec_config: image.exec_config,
      imageAttributes: [],
      restrict_to_network: image.restrict_to_network,
      restrict_to_zone: image.restrict_to_zone,
      restrict_to_server: image.restrict_to_server,
      zone_id: image.zone_id,
      zone_name: image.zone_id ? (store.servers.zone(image.zone_id)?.zone_name ?? null) : null,
      server_id: image.server_id,
      network_name: image.network_name,
      image_src: image.image_src,
    },
    observedFields,
  );
}

const getImages: Handler = ({ store, observedFields }) => ({
  images: store.images.all().map((i) => imageJson(store, i, observedFields)),
});

/** The fixed page size of get_session_recordings. */
const RECORDINGS_PER_PAGE = 5;

function recordingJson(r: RecordingRecord, baseUrl: string, withDownloadLink: boolean, observedFields: boolean) {
  return RECORDING.form(
    {
      recording_id: r.recording_id,
      account_id: r.account_id,
      session_recording_url: `${baseUrl}/recordings/${r.ws_id}/${r.recording_id}.webm`,
      session_recording_metadata: RECORDING_METADATA.form({ duration: r.duration, thumbnail: "", timestamp: r.timestamp }, observedFields),
      session_recording_download_url: withDownloadLink
        ? `${baseUrl}/recordings/${r.ws_id}/${r.recording_id}.webm?preauth=${r.recording_id.slice(0, 16)}`
        : undefined,
    },
    observedFields,
  );
}

const getSessionRecordings: Handler = ({ body, store, baseUrl, observedFields }: Call) => {
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
  const wsId = store.sessions.session(req.target_ws_id)?.ws_id ?? req.target_ws_id.replace(/-/g, "").toLowerCase();
  const all = store.sessions.recordingsOf(wsId);
  const page = req.page ?? 1;
  const items = all.slice((page - 1) * RECORDINGS_PER_PAGE, page * RECORDINGS_PER_PAGE);
  return {
    session_recordings: items.map((r) => recordingJson(r, baseUrl, req.preauth_download_link ?? false, observedFields)),
    items: all.length,
    page,
    per_page: RECORDINGS_PER_PAGE,
    total_duration: all.reduce((sum, r) => sum + r.duration, 0),
  };
};

const getSessionsRecordings: Handler = ({ body, store, baseUrl, observedFields }: Call) => {
  const req = parse(
    z.object({ target_ws_ids: z.array(z.string()).optional(), preauth_download_link: bool.optional() }),
    body,
    "",
  );
  if (!req.target_ws_ids) throw new MissingParameters();
  const ws_sessions: Record<string, { session_recordings: unknown[] }> = {};
  for (const raw of req.target_ws_ids) {
    const wsId = store.sessions.session(raw)?.ws_id ?? raw.replace(/-/g, "").toLowerCase();
    ws_sessions[wsId] = {
      session_recordings: store.sessions.recordingsOf(wsId).map((r) => recordingJson(r, baseUrl, req.preauth_download_link ?? false, observedFields)),
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
