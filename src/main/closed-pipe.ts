/**
 * Ends the process quietly when a reader closes its output (`correx events <id> --json | head -1`):
 * a closed pipe means nobody wants the rest, not that correx failed. Any other stream error
 * stays an error. A session being driven is left as a stop leaves it: resumable.
 */
export function endQuietlyOnClosedPipe(...streams: NodeJS.WriteStream[]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}
