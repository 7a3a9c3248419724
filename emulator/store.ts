/**
 * The emulator's state and the models that own it.
 *
 * A `Store` is built fresh per emulator instance from a seed (or a data file). Its state is one
 * plain JSON object, what `--data` persists and `/__emulator/state` shows; each part of it belongs
 * to one model of `models/`, which holds the records of its API area and their rules. Handlers
 * call the models (`store.users`, `store.egress`, ...) and never touch the state themselves.
 *
 * Models validate everything first and change state only after, so a refused request never
 * leaves a half-applied change. Records are kept in the wire's own field names; handlers decide
 * what a response shows.
 */
import { CastingModel, type CastingTables } from "./models/casting";
import { EgressModel, type EgressTables } from "./models/egress";
import { GroupImagesModel, type GroupImagesTables } from "./models/group-images";
import { GroupsModel, type GroupsTables } from "./models/groups";
import { ImagesModel, type ImagesTables } from "./models/images";
import { KeysModel, type KeysTables } from "./models/keys";
import { LicensesModel, type LicensesTables } from "./models/licenses";
import { RegistriesModel, type RegistriesTables } from "./models/registries";
import { ServersModel, type ServersTables } from "./models/servers";
import { SessionsModel, type SessionsTables } from "./models/sessions";
import { StagingModel, type StagingTables } from "./models/staging";
import { UsersModel, type UsersTables } from "./models/users";

// The records, inputs and helpers of every model, so that handlers import from one place.
export * from "./models/casting";
export * from "./models/common";
export * from "./models/egress";
export * from "./models/group-images";
export * from "./models/groups";
export * from "./models/images";
export * from "./models/keys";
export * from "./models/licenses";
export * from "./models/registries";
export * from "./models/servers";
export * from "./models/sessions";
export * from "./models/staging";
export * from "./models/users";

/** Everything the emulator knows. Plain JSON: it is what `--data` persists and `/__emulator/state` shows. */
export interface State
  extends KeysTables,
    UsersTables,
    GroupsTables,
    GroupImagesTables,
    ImagesTables,
    ServersTables,
    SessionsTables,
    StagingTables,
    CastingTables,
    EgressTables,
    LicensesTables,
    RegistriesTables {}

/** An empty state: no objects at all (the system groups are added by the Store). */
export function emptyState(): State {
  return {
    apiKeys: {},
    users: {},
    userAttributes: {},
    groups: {},
    groupImages: {},
    images: {},
    zones: {},
    serverPools: {},
    servers: {},
    sessions: {},
    recordings: {},
    stagingConfigs: {},
    castConfigs: {},
    egressProviders: {},
    egressGateways: {},
    egressMappings: {},
    egressCredentials: {},
    activationKeys: {},
    licenses: {},
    registries: {},
  };
}

/** The state of one emulator and the models that change it, one per API area. */
export class Store {
  /**
   * The whole state. Handlers go through the models; this is for persistence, the state route
   * and tests that arrange an unusual state directly.
   */
  readonly state: State;
  /** API keys. */
  readonly keys: KeysModel;
  /** Groups, with the system groups. */
  readonly groups: GroupsModel;
  /** Workspace images. */
  readonly images: ImagesModel;
  /** Which groups may launch which images (product mode). */
  readonly groupImages: GroupImagesModel;
  /** Zones, server pools and servers. */
  readonly servers: ServersModel;
  /** Activation keys and licenses, and the limits they set. */
  readonly licenses: LicensesModel;
  /** Users and their attributes, memberships and server assignments. */
  readonly users: UsersModel;
  /** Sessions and recordings. */
  readonly sessions: SessionsModel;
  /** Staging configs. */
  readonly staging: StagingModel;
  /** Casting configs. */
  readonly casting: CastingModel;
  /** Egress providers, gateways, mappings and credentials. */
  readonly egress: EgressModel;
  /** Workspace registries (product mode). */
  readonly registries: RegistriesModel;

  constructor(state: State = emptyState()) {
    this.state = state;
    // A data file written before registries were modelled has none.
    state.registries ??= {};
    this.registries = new RegistriesModel(state);
    this.keys = new KeysModel(state);
    // A group's members, cast configs and egress bindings belong to models built after it: reached lazily.
    this.groups = new GroupsModel(state, {
      memberCount: (groupId) => this.users.membersOf(groupId).length,
      castConfigIds: (groupId) =>
        this.casting
          .all()
          .filter((c) => c.group_id === groupId)
          .map((c) => c.cast_config_id),
      forgetGroup: (groupId) => {
        this.users.leaveGroup(groupId);
        this.egress.forgetGroup(groupId);
        this.groupImages.forgetGroup(groupId);
      },
    });
    this.servers = new ServersModel(state);
    // What refers to an image belongs to models built after it: reached lazily.
    this.images = new ImagesModel(state, {
      servers: this.servers,
      dependents: {
        sessionCount: (imageId) => this.sessions.all().filter((s) => s.image_id === imageId).length,
        castConfigIds: (imageId) =>
          this.casting
            .all()
            .filter((c) => c.image_id === imageId)
            .map((c) => c.cast_config_id),
        forgetImage: (imageId) => {
          this.staging.forgetImage(imageId);
          this.groupImages.forgetImage(imageId);
          this.egress.forgetImage(imageId);
          this.users.forgetDefaultImage(imageId);
        },
      },
    });
    this.groupImages = new GroupImagesModel(state, { groups: this.groups, images: this.images });
    this.licenses = new LicensesModel(state);
    // A user's sessions and egress bindings belong to models built after it: reached lazily.
    this.users = new UsersModel(state, {
      groups: this.groups,
      images: this.images,
      servers: this.servers,
      licenses: this.licenses,
      dependents: {
        sessionCount: (userId) => this.sessions.sessionsOf(userId).length,
        endSessions: (userId) => this.sessions.endSessionsOf(userId),
        forgetUser: (userId) => this.egress.forgetUser(userId),
      },
    });
    this.sessions = new SessionsModel(state, {
      users: this.users,
      images: this.images,
      servers: this.servers,
      licenses: this.licenses,
    });
    this.staging = new StagingModel(state, { servers: this.servers, images: this.images });
    this.casting = new CastingModel(state, { images: this.images, groups: this.groups });
    this.egress = new EgressModel(state, { users: this.users, groups: this.groups, images: this.images });
  }

  /** The whole state, as a data file holds it and `/__emulator/state` shows it. */
  snapshot(): Readonly<State> {
    return this.state;
  }
}
