import { open } from 'node:fs/promises';
import type { Build } from './buildIndex';

/** Bytes read from the file per chunk the reader takes. */
const CHUNK_BYTES = 64 * 1024;

const identityOf = (stats: { dev: number; ino: number; size: number; mtimeMs: number }) => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;

/**
 * A build's bytes as a stream (docs/hostile-input.md, "Agent builds"): read chunk by chunk as the reader takes them,
 * so a slow reader holds 64 KiB, not the file; a reader that takes nothing for `idleTimeoutMs` is
 * cut off and the file closed. Exactly `build.size` bytes are sent (the Content-Length and the
 * signed size). Undefined when the file changed since `build` was seen: the caller looks again.
 *
 * @example
 * const body = await streamBuild(build, { idleTimeoutMs: 30_000 });
 */
export const streamBuild = async (build: Build, { idleTimeoutMs }: { idleTimeoutMs: number }): Promise<ReadableStream<Uint8Array> | undefined> => {
  const handle = await open(build.path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  if (identityOf(await handle.stat()) != build.identity) {
    await handle.close();
    return undefined;
  }
  let position = 0;
  let closed = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    clearTimeout(idle);
    if (closed) return;
    closed = true;
    handle.close().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      idle = setTimeout(() => (close(), controller.error(new Error('the reader was idle too long'))), idleTimeoutMs);
    },
    async pull(controller) {
      clearTimeout(idle);
      if (closed) return;
      try {
        const want = Math.min(CHUNK_BYTES, build.size - position);
        const chunk = new Uint8Array(want);
        const { bytesRead } = want > 0 ? await handle.read(chunk, 0, want, position) : { bytesRead: 0 };
        if (closed) return;
        if (bytesRead == 0) {
          close();
          // Shorter than it was when seen: the reader must not take a truncated build for a whole one.
          if (position < build.size) controller.error(new Error('the build changed while it was read'));
          else controller.close();
          return;
        }
        position += bytesRead;
        controller.enqueue(bytesRead == want ? chunk : chunk.subarray(0, bytesRead));
        if (position >= build.size) {
          close();
          controller.close();
          return;
        }
        idle = setTimeout(() => (close(), controller.error(new Error('the reader was idle too long'))), idleTimeoutMs);
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    cancel: close,
  });
};
