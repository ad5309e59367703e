// A Web Worker: hashes the files it is given (SHA-256, hex) off the page's main thread, so hundreds of files
// never freeze the page.
self.onmessage = async (event: MessageEvent<{ id: number; file: File }>) => {
  const { id, file } = event.data;
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  const sha256 = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  self.postMessage({ id, sha256 });
};
