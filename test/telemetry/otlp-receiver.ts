import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One OTLP/HTTP request as it arrived: the path (`/v1/traces`, `/v1/metrics`) and its JSON body. */
export type OtlpRequest = {
  readonly path: string;
  readonly contentType: string;
  readonly body: unknown;
};

export type OtlpReceiver = {
  readonly url: string;
  readonly requests: OtlpRequest[];
  close(): Promise<void>;
};

/** A loopback OTLP/HTTP receiver that keeps what the official exporters send, decoded. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** The `service.name` of an OTLP resource. */
export function serviceOf(resource: {
  attributes: { key: string; value: Record<string, unknown> }[];
}): string | undefined {
  return resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue as
    string | undefined;
}
