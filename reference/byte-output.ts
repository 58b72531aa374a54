/**
 * The bytes a zstd frame has decompressed so far (RFC 8878, section 3.1.1.4): a byte array that grows
 * as blocks append to it. A JavaScript array of numbers would take eight bytes or more per byte and be
 * slow to copy, and a frame may hold many megabytes.
 */
export class ByteOutput {
  private bytes = new Uint8Array(256)
  /** How many bytes were appended. */
  length = 0

  /** Makes room for `count` more bytes. */
  private reserve(count: number): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: growing when there is room already changes only how much memory is held, not a byte of the output
    if (this.length + count > this.bytes.length) {
      const grown = new Uint8Array(2 * (this.length + count))
      grown.set(this.bytes.subarray(0, this.length))
      this.bytes = grown
    }
  }

  append(bytes: Uint8Array): void {
    this.reserve(bytes.length)
    this.bytes.set(bytes, this.length)
    this.length += bytes.length
  }

  /** Appends `count` copies of `byte` (an RLE block). */
  repeat(byte: number, count: number): void {
    this.reserve(count)
    this.bytes.fill(byte, this.length, this.length + count)
    this.length += count
  }

  /**
   * Appends `count` bytes copied from `distance` bytes back (a match). Byte by byte, since the copy may
   * overlap what it appends: a distance of 1 repeats the last byte `count` times.
   */
  copyBack(distance: number, count: number): void {
    this.reserve(count)
    const bytes = this.bytes
    for (const end = this.length + count; this.length < end; this.length++) bytes[this.length] = bytes[this.length - distance] as number
  }

  /** A copy of the bytes from `start` to the end. */
  since(start: number): Uint8Array {
    return this.bytes.slice(start, this.length)
  }
}
