// Positional reads of a file through one reusable window, so that walking a zstd artifact's frame and
// block headers (JSONL-14 step 1) costs a few system calls per megabyte, not one per header.
import { readSync } from 'node:fs'

export const WINDOW_BYTES = 1 << 20

export class ByteSource {
  private readonly window = Buffer.allocUnsafe(WINDOW_BYTES)
  private windowStart = 0
  private windowLength = 0

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  /**
   * Up to `length` bytes from `at` (fewer at the end of the file), `length` at most WINDOW_BYTES. The
   * view is valid until the next call.
   */
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
      if (read === 0) break
      this.windowLength += read
    }
  }
}
