import sharp from 'sharp';

/** A PNG of its own pixels for each seed, so no two calls give the same bytes. */
export async function png(width: number, height: number, seed = 1): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * (seed + 7) + seed * 31) % 251;
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
