import { IMAGE_FILE_EXTENSIONS, IMAGE_FORMAT_TABLE } from '@renamer/contracts';

/**
 * Which picked or dropped files the upload page takes: judged by the format table of the contracts, as the API
 * judges them (by their name's extension, else by the type the browser declares), so that the count on the
 * Upload button never includes a text file. The API still checks the bytes themselves.
 */

const EXTENSIONS = new Set(IMAGE_FILE_EXTENSIONS.map((extension) => extension.toLowerCase()));
const TYPES = new Set<string>(
  Object.values(IMAGE_FORMAT_TABLE).flatMap((facts) => [...facts.mimeTypes, ...facts.declaredAliases]),
);
/** Formats every current browser draws in an <img>; the others (TIFF, HEIC, camera RAW) get a placeholder. */
const SHOWN_BY_BROWSERS = new Set<string>(
  (['jpeg', 'png', 'webp', 'gif', 'avif'] as const).flatMap((format) => IMAGE_FORMAT_TABLE[format].extensions),
);

/** The file's extension, lower-cased, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Whether the service takes the file: a hidden file never; otherwise its extension, or its declared type. */
export function isAcceptedImage(file: Pick<File, 'name' | 'type'>): boolean {
  if (file.name.startsWith('.')) return false;
  const extension = extensionOf(file.name);
  if (extension) return EXTENSIONS.has(extension);
  return TYPES.has(file.type.toLowerCase());
}

/** Hidden files (`.DS_Store`, `._IMG_1.JPG`) are left out without a word: nobody chose them. */
const isHidden = (file: Pick<File, 'name'>) => file.name.startsWith('.');

/** The files taken, and the names of those refused (to be said once, not listed). */
export function sortChosen<F extends Pick<File, 'name' | 'type'>>(files: Iterable<F>) {
  const accepted: F[] = [];
  const refused: string[] = [];
  for (const file of files) {
    if (isAcceptedImage(file)) accepted.push(file);
    else if (!isHidden(file)) refused.push(file.name);
  }
  return { accepted, refused };
}

/** Whether a browser can draw the file as a thumbnail (else a placeholder with its extension). */
export function browserShows(file: Pick<File, 'name' | 'type'>): boolean {
  const extension = extensionOf(file.name);
  if (extension) return SHOWN_BY_BROWSERS.has(extension);
  return ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'].includes(file.type);
}

/** The sentence for the refused files, or undefined when there are none. */
export function refusalSentence(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  if (names.length === 1) return `${names[0]} is not an image the service takes.`;
  const shown = names.slice(0, 5);
  const rest = names.length - shown.length;
  const list =
    rest > 0 ? `${shown.join(', ')} and ${rest} more` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
  return `${list} are not images the service takes.`;
}

/** The top folder of files picked with the folder picker (`summer-shoot/IMG_1.JPG`), if they share one. */
export function folderOf(files: readonly Pick<File, 'webkitRelativePath'>[]): string | undefined {
  const tops = new Set(files.map((file) => file.webkitRelativePath.split('/')[0] ?? ''));
  const [top] = tops;
  return tops.size === 1 && top && files.some((file) => file.webkitRelativePath.includes('/')) ? top : undefined;
}

/** The parts of the File and Directory Entries API a drop gives (`DataTransferItem.webkitGetAsEntry()`). */
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?(success: (file: File) => void, failure: (error: unknown) => void): void;
  createReader?(): { readEntries(success: (entries: Entry[]) => void, failure: (error: unknown) => void): void };
}

async function filesOf(entry: Entry): Promise<File[]> {
  if (entry.isFile && entry.file) {
    const read = entry.file.bind(entry);
    return [await new Promise<File>((resolve, reject) => read(resolve, reject))];
  }
  if (!entry.isDirectory || !entry.createReader) return [];
  const reader = entry.createReader();
  const entries: Entry[] = [];
  // readEntries answers in slices (100 at a time in Chromium) until it answers an empty one.
  for (;;) {
    const slice = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (slice.length === 0) break;
    entries.push(...slice);
  }
  return (await Promise.all(entries.map(filesOf))).flat();
}

/**
 * What a drop holds: its files, a dropped folder's files included (walked through its entries), and the folder's
 * name when one folder was dropped. The entries are taken at once: a DataTransfer is emptied after its event.
 */
export function readDrop(data: DataTransfer): Promise<{ files: File[]; folder?: string }> {
  const items = [...data.items].filter((item) => item.kind === 'file');
  const entries = items.map((item) => item.webkitGetAsEntry?.() as Entry | null | undefined);
  const plainFiles = [...data.files];
  const directories = entries.filter((entry) => entry?.isDirectory);
  if (directories.length === 0 || entries.some((entry) => !entry)) return Promise.resolve({ files: plainFiles });
  return Promise.all(entries.map((entry) => filesOf(entry as Entry))).then((lists) => ({
    files: lists.flat(),
    ...(directories.length === 1 && entries.length === 1 ? { folder: directories[0]!.name } : {}),
  }));
}
