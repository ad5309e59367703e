import S3rver from 's3rver';

/** s3rver knows one account; it checks the access key but not V4 signatures. */
export const S3RVER_CREDENTIALS = { region: 'us-east-1', accessKey: 'S3RVER', secretKey: 'S3RVER' } as const;

export interface LocalS3 {
  endpoint: string;
  port: number;
  close(): Promise<void>;
}

/** An S3-compatible server on loopback (s3rver), keeping its objects in `directory`. */
export async function startS3rver(directory: string): Promise<LocalS3> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, port, close: () => server.close() };
}
