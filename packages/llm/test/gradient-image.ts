import type { DecodedImage } from '@renamer/vision';

/** Smooth colour, as decodeImage would hand it over; enough to check sizes, formats and what is sent. */
export function gradientImage(width: number, height: number): DecodedImage {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      pixels[at] = Math.round((255 * x) / width);
      pixels[at + 1] = Math.round((255 * y) / height);
      pixels[at + 2] = 128;
    }
  }
  return { pixels, width, height, channels: 3 };
}
