import { PREVIEW_SIZES } from '@renamer/contracts';
import { imageObjectKey, previewObjectKey } from '@renamer/storage';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ID = '0123abcd-0123-4abc-8abc-0123456789ab';
// Read from the layout's own key functions, so a change of layout changes what is recognised here.
const pattern = (key: string) => new RegExp(`^${key.replaceAll('.', '\\.').replaceAll(ID, `(${UUID})`)}$`);
const ORIGINAL = pattern(imageObjectKey(ID, ID));
const PREVIEWS = PREVIEW_SIZES.map((size) => pattern(previewObjectKey(ID, ID, size)));

/** What a stored object belongs to: an image's original or preview of any size (by the layout's keys), else nothing known. */
export function objectOwner(key: string): { kind: 'original' | 'preview'; userId: string; id: string } | undefined {
  const original = ORIGINAL.exec(key);
  if (original) return { kind: 'original', userId: original[1]!, id: original[2]! };
  for (const previewPattern of PREVIEWS) {
    const preview = previewPattern.exec(key);
    if (preview) return { kind: 'preview', userId: preview[1]!, id: preview[2]! };
  }
  return undefined;
}
