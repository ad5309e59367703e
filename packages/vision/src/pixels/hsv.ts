import type { Thumbnail } from './thumbnail';

/** Per pixel: hue in degrees 0..360, saturation and value in 0..1, luma (Rec. 601) in 0..1. */
export interface HsvPlanes {
  width: number;
  height: number;
  hue: Float32Array;
  saturation: Float32Array;
  value: Float32Array;
  luma: Float32Array;
}

export function toHsv(thumbnail: Thumbnail): HsvPlanes {
  const { width, height, r, g, b } = thumbnail;
  const size = width * height;
  const hue = new Float32Array(size);
  const saturation = new Float32Array(size);
  const value = new Float32Array(size);
  const luma = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const red = r[i]! / 255;
    const green = g[i]! / 255;
    const blue = b[i]! / 255;
    const max = Math.max(red, green, blue);
    const min = Math.min(red, green, blue);
    const chroma = max - min;
    value[i] = max;
    saturation[i] = max > 0 ? chroma / max : 0;
    luma[i] = 0.299 * red + 0.587 * green + 0.114 * blue;
    if (chroma === 0) continue;
    let h: number;
    if (max === red) h = ((green - blue) / chroma) % 6;
    else if (max === green) h = (blue - red) / chroma + 2;
    else h = (red - green) / chroma + 4;
    hue[i] = (h * 60 + 360) % 360;
  }
  return { width, height, hue, saturation, value, luma };
}
