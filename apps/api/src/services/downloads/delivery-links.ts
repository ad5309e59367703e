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
});

/** One image's copy with its SEO fields written in: the `downloads` row it belongs to. */
const EmbeddedImageLink = z.strictObject({ image: z.uuid(), e: expiry });

const DeliveryLink = z.union([ArchiveLink, EmbeddedImageLink]);
export type DeliveryLink = z.infer<typeof DeliveryLink>;

export interface ArchiveOptions {
  embed: boolean;
  manifest: boolean;
  baseUrl?: string;
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
    archive(downloadId: string, expiresAt: Date, { embed, manifest, baseUrl }: ArchiveOptions): string {
      return token(
        ArchiveLink.parse({
          zip: downloadId,
          e: seconds(expiresAt),
          embed: embed || undefined,
          manifest: manifest || undefined,
          baseUrl,
        }),
      );
    },

    embeddedImage(downloadId: string, expiresAt: Date): string {
      return token({ image: downloadId, e: seconds(expiresAt) });
    },

    verify(link: string, now = new Date()): SignedTokenVerification<DeliveryLink> {
      return verifyToken(PURPOSE, DeliveryLink, link, secret, now);
    },
  };
}

export type DeliveryLinks = ReturnType<typeof createDeliveryLinks>;
