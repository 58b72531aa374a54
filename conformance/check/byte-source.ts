// Positional reads of a zstd artifact: of a file through one reusable window, so that walking its frame
// and block headers (JSONL-14 step 1) costs a few system calls per megabyte, not one per header; or of
// bytes already in memory (audit's log).
import { readSync } from 'node:fs'

export const WINDOW_BYTES = 1 << 20

export interface ByteSource {
  readonly size: number
  /**
   * Up to `length` bytes from `at` (fewer at the end), `length` at most WINDOW_BYTES. The view is valid
   * until the next call.
   */
  bytes(at: number, length: number): Buffer
}

/** The bytes of an artifact in memory. */
export function memoryByteSource(data: Uint8Array): ByteSource {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  return { size: buffer.length, bytes: (at, length) => buffer.subarray(at, Math.min(at + length, buffer.length)) }
}

/** A file that ends before the size it had when opened: cut while it was read, by a writer or a rotation. */
export class FileCutShort extends Error {}

export class FileByteSource implements ByteSource {
  private readonly window = Buffer.allocUnsafe(WINDOW_BYTES)
  private windowStart = 0
  private windowLength = 0

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  bytes(at: number, length: number): Buffer {
    const end = Math.min(at + length, this.size)
    if (at < this.windowStart || end > this.windowStart + this.windowLength) this.fill(at)
    return this.window.subarray(at - this.windowStart, end - this.windowStart)
  }

  private fill(at: number): void {
    this.windowStart = at
    this.windowLength = 0
    const wanted = Math.min(WINDOW_BYTES, this.size - at)
    while (this.windowLength < wanted) {
      const read = readSync(this.fd, this.window, this.windowLength, wanted - this.windowLength, at + this.windowLength)
      // The window past what was read holds stale bytes: never hand them on as the file's.
      if (read === 0) throw new FileCutShort(`the file was cut while it was read: ${this.size} bytes when opened, none past byte ${at + this.windowLength}; check it again when no writer has it open`)
      this.windowLength += read
    }
  }
}
