/** A Google image sitemap: one <url> per image, the image's own URL as the page and as its <image:loc>. */
export function imageSitemap(imageUrls: string[]): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
  ];
  for (const url of imageUrls) {
    const loc = escapeXml(url);
    lines.push(`  <url><loc>${loc}</loc><image:image><image:loc>${loc}</image:loc></image:image></url>`);
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

function escapeXml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}
