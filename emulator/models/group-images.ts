/**
 * Which groups may launch which workspaces: the product's group image authorisations (1.15
 * decompile: `admin_api.py` get_images_group, add_images_group, remove_images_group;
 * `data/access_postgres.py` addImageGroup, removeImageGroup; `data/model.py` GroupImage). Product
 * mode only; the seed can list them (an image's `groups`).
 */
import { RefusedWith200 } from "../errors";
import { AreaModel, newId, type Table } from "./common";
import type { GroupRecord, GroupsModel } from "./groups";
import type { ImageRecord, ImagesModel } from "./images";

/** One authorisation: a group may launch an image. */
export interface GroupImageRecord {
  group_image_id: string;
  group_id: string;
  image_id: string;
}

/** The part of the state this model owns. */
export interface GroupImagesTables {
  groupImages: Table<GroupImageRecord>;
}

/** The models an authorisation refers to. */
export interface GroupImagesDependencies {
  groups: GroupsModel;
  images: ImagesModel;
}

/** The authorisations, and the product's changes to them (its refusals answer HTTP 200). */
export class GroupImagesModel extends AreaModel<GroupImagesTables, GroupImagesDependencies> {
  /** The authorisations of a group, oldest first. */
  ofGroup(groupId: string): GroupImageRecord[] {
    return Object.values(this.tables.groupImages).filter((gi) => gi.group_id === groupId);
  }

  /** The group and image an add or remove names, both existing, or 1.15's remove_images_group refusal. */
  private targets(groupId: unknown, imageId: unknown): { group: GroupRecord; image: ImageRecord } {
    const group = this.deps.groups.group(groupId);
    const image = this.deps.images.image(imageId);
    if (!group || !image) throw new RefusedWith200("Group or image does not exist");
    return { group, image };
  }

  /**
   * add_images_group: authorise a group for an image. A second add of the same pair adds a second
   * authorisation, as 1.15 does (its table has no unique constraint and its add checks nothing).
   */
  authorize(groupId: unknown, imageId: unknown): GroupImageRecord {
    const { group, image } = this.targets(groupId, imageId);
    const record: GroupImageRecord = { group_image_id: newId(), group_id: group.group_id, image_id: image.image_id };
    this.tables.groupImages[record.group_image_id] = record;
    return record;
  }

  /** remove_images_group: take away one authorisation of the pair; none there is no error (1.15). */
  revoke(groupId: unknown, imageId: unknown): void {
    const { group, image } = this.targets(groupId, imageId);
    const first = this.ofGroup(group.group_id).find((gi) => gi.image_id === image.image_id);
    if (first) delete this.tables.groupImages[first.group_image_id];
  }

  /** Drop the authorisations of a deleted group, as the product's foreign key cascades. */
  forgetGroup(groupId: string): void {
    for (const gi of this.ofGroup(groupId)) delete this.tables.groupImages[gi.group_image_id];
  }

  /** Drop the authorisations of a deleted image, likewise. */
  forgetImage(imageId: string): void {
    for (const gi of Object.values(this.tables.groupImages)) if (gi.image_id === imageId) delete this.tables.groupImages[gi.group_image_id];
  }
}
