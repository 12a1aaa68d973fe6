// Content-addressed byte storage behind a small interface, so S3 can come later.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Storage {
  /** Stores bytes and returns their SHA-256, which is also their key. */
  put(bytes: Buffer): Promise<string>;
  get(sha256: string): Promise<Buffer>;
}

export function localStorage(root: string): Storage {
  const pathOf = (sha: string) => path.join(root, sha.slice(0, 2), sha.slice(2, 4), sha);
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const file = pathOf(sha);
      if (!existsSync(file)) {
        await mkdir(path.dirname(file), { recursive: true });
        // Write then rename so a reader never sees a half-written file.
        const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
        await writeFile(tmp, bytes);
        await rename(tmp, file);
      }
      return sha;
    },
    get: (sha) => readFile(pathOf(sha)),
  };
}
