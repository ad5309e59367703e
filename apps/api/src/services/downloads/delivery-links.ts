import { COPY_FORMATS, type CopyFormat, type StripMode } from '@renamer/contracts';
import { type SignedTokenVerification, signToken, verifyToken } from '@renamer/storage';
import { z } from 'zod';

/** Apart from the object links' purpose: neither kind of token ever passes for the other. */
const PURPOSE = 'renamer/delivery-link/v1';

const expiry = z.number().int().positive();

/** A batch's archive: the `downloads` row it belongs to, and what goes into it. */
const ArchiveLink = z.strictObject({
  zip: z.uuid(),
  e: expiry,
  embed: z.literal(true).optional(),
  manifest: z.literal(true).optional(),
  baseUrl: z.string().max(2000).optional(),
  strip: z.enum(['location', 'all']).optional(),
  resize: z.number().int().positive().optional(),
  format: z.enum(COPY_FORMATS).optional(),
  quality: z.number().int().min(1).max(100).optional(),
});

/**
 * One image's copy, its SEO fields written in (unless `embed` is false) and its metadata stripped as `strip` says:
 * the `downloads` row it belongs to.
 */
const EmbeddedImageLink = z.strictObject({
  image: z.uuid(),
  e: expiry,
  embed: z.literal(false).optional(),
  strip: z.enum(['location', 'all']).optional(),
});

const DeliveryLink = z.union([ArchiveLink, EmbeddedImageLink]);
export type DeliveryLink = z.infer<typeof DeliveryLink>;

export interface ArchiveOptions {
  embed: boolean;
  manifest: boolean;
  baseUrl?: string;
  strip?: StripMode;
  resize?: number;
  format?: CopyFormat;
  quality?: number;
}

/** What a single image's copy is made with. */
export interface ImageCopyOptions {
  embed: boolean;
  strip: StripMode;
}

/**
 * Links served by the API itself under `/api/files/` for what the object store cannot hand out as it is: a
 * batch's archive, and an image with its SEO fields embedded. The token names the `downloads` row (owner,
 * batch or image) and the archive's options; the row's cascade makes a link to deleted content stop working.
 */
export function createDeliveryLinks(secret: string) {
  const token = (payload: DeliveryLink) => signToken(PURPOSE, payload, secret);
  const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
  return {
    archive(downloadId: string, expiresAt: Date, options: ArchiveOptions): string {
      const { embed, manifest, baseUrl, strip, resize, format, quality } = options;
      return token(
        ArchiveLink.parse({
          zip: downloadId,
          e: seconds(expiresAt),
          embed: embed || undefined,
          manifest: manifest || undefined,
          baseUrl,
          strip: strip === 'none' ? undefined : strip,
          resize,
          format,
          quality,
        }),
      );
    },

    embeddedImage(downloadId: string, expiresAt: Date, { embed, strip }: ImageCopyOptions): string {
      return token(
        EmbeddedImageLink.parse({
          image: downloadId,
          e: seconds(expiresAt),
          embed: embed ? undefined : false,
          strip: strip === 'none' ? undefined : strip,
        }),
      );
    },

    verify(link: string, now = new Date()): SignedTokenVerification<DeliveryLink> {
      return verifyToken(PURPOSE, DeliveryLink, link, secret, now);
    },
  };
}

export type DeliveryLinks = ReturnType<typeof createDeliveryLinks>;
