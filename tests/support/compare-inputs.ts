// Input files for the `compare` tests, each written as JSON text (or as the text given) into a scratch
// folder of the test file's own, and the user message their logs are built from.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface InputFolder {
  /** Writes `input` to the file `name` of the folder; its path. */
  write(name: string, input: unknown): string
  remove(): void
}

export function inputFolder(prefix: string): InputFolder {
  const scratch = mkdtempSync(join(tmpdir(), prefix))
  return {
    write(name, input) {
      const path = join(scratch, name)
      writeFileSync(path, typeof input === 'string' ? input : JSON.stringify(input))
      return path
    },
    remove: () => rmSync(scratch, { recursive: true, force: true }),
  }
}

/** A user message on the surface, at `seq`, with the message id `id`. */
export const userMessage = (seq: number, id: string): unknown => ({ type: 'user/message', seq, time: 1 + seq, data: { id, role: 'user', content: [], source: { kind: 'user' } }, surfaceOp: 'append' })
