/**
 * The entropy coders of Zstandard (RFC 8878, sections 4.1 and 4.2), as chapter 19 needs them to read
 * zstd artifacts: bit readers, FSE tables and Huffman tables. Written for clarity, not speed: bits
 * are read one at a time. A malformed input throws `ZstdError`, which the frame decoder turns into
 * "this frame does not decompress"; nothing here escapes the operation boundary.
 */

export class ZstdError extends Error {}

export function fail(why: string): never {
  throw new ZstdError(why)
}

/** Reads bits forward, least significant bit of each byte first (FSE table descriptions). */
export class ForwardBits {
  private bit = 0
  constructor(private readonly bytes: Uint8Array, private readonly start: number, private readonly end: number) {}

  private bitAt(index: number): number {
    const at = this.start + (index >> 3)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a description read past its end has used more bytes than there are, so the bitstream after it would start past its end, which BackwardBits refuses
    if (at >= this.end) fail('a table description runs past its block')
    return ((this.bytes[at] as number) >> (index & 7)) & 1
  }

  peek(count: number): number {
    let value = 0
    for (let index = count - 1; index >= 0; index--) value = value * 2 + this.bitAt(this.bit + index)
    return value
  }

  skip(count: number): void {
    this.bit += count
  }

  read(count: number): number {
    const value = this.peek(count)
    this.bit += count
    return value
  }

  /** Whole bytes consumed so far. */
  bytesUsed(): number {
    return Math.ceil(this.bit / 8)
  }
}

/**
 * Reads a backward bitstream (FSE and Huffman streams): the stream is read from its last byte towards
 * its first, starting below the highest set bit of the last byte. Bits before the stream's start read
 * as 0, and `overflowed` tells that happened.
 */
export class BackwardBits {
  /** Bits still unread: the next read takes the bits just below this position. */
  private position: number
  constructor(private readonly bytes: Uint8Array, private readonly start: number, end: number) {
    if (end <= start) fail('an empty bitstream')
    const last = bytes[end - 1] as number
    if (last === 0) fail('a bitstream without its end marker')
    this.position = (end - start - 1) * 8 + (31 - Math.clz32(last))
  }

  private bitAt(index: number): number {
    if (index < 0) return 0
    return ((this.bytes[this.start + (index >> 3)] as number) >> (index & 7)) & 1
  }

  peek(count: number): number {
    let value = 0
    for (let index = 1; index <= count; index++) value = value * 2 + this.bitAt(this.position - index)
    return value
  }

  skip(count: number): void {
    this.position -= count
  }

  read(count: number): number {
    const value = this.peek(count)
    this.position -= count
    return value
  }

  overflowed(): boolean {
    return this.position < 0
  }

  finished(): boolean {
    return this.position === 0
  }
}

function highBit(value: number): number {
  return 31 - Math.clz32(value)
}

// ---- FSE (section 4.1) -------------------------------------------------------------------------

export interface FseEntry {
  symbol: number
  bits: number
  base: number
}

export interface FseTable {
  accuracyLog: number
  entries: FseEntry[]
}

/** A normalized distribution (-1 = "less than 1") to its decoding table (section 4.1.1). */
export function buildFseTable(counts: readonly number[], accuracyLog: number): FseTable {
  const size = 1 << accuracyLog
  // Stryker disable next-line ArrayDeclaration: every slot is written before it is read, as a distribution fills its table exactly
  const symbols = new Array<number>(size).fill(0)
  let high = size - 1
  counts.forEach((count, symbol) => {
    if (count === -1) symbols[high--] = symbol
  })
  const step = (size >> 1) + (size >> 3) + 3
  let position = 0
  counts.forEach((count, symbol) => {
    for (let copy = 0; copy < count; copy++) {
      symbols[position] = symbol
      do position = (position + step) & (size - 1)
      while (position > high)
    }
  })
  // Stryker disable next-line ConditionalExpression: every distribution adds up to the table size (the reading loop stops only there, and the defaults do), so the odd step visits each free slot once and comes back to 0
  if (position !== 0) fail('an FSE distribution does not fill its table')
  const next = counts.map(count => (count === -1 ? 1 : count))
  const entries = symbols.map(symbol => {
    const state = next[symbol] as number
    next[symbol] = state + 1
    const bits = accuracyLog - highBit(state)
    return { symbol, bits, base: (state << bits) - size }
  })
  return { accuracyLog, entries }
}

/** Reads a normalized distribution (section 4.1.1) at `start`; returns it and the bytes it used. */
export function readFseDistribution(bytes: Uint8Array, start: number, end: number, maxSymbol: number, maxLog: number): { table: FseTable; used: number } {
  const reader = new ForwardBits(bytes, start, end)
  const accuracyLog = reader.read(4) + 5
  if (accuracyLog > maxLog) fail('an FSE accuracy log is too large')
  const counts: number[] = []
  let remaining = (1 << accuracyLog) + 1
  let threshold = 1 << accuracyLog
  let width = accuracyLog + 1
  while (remaining > 1) {
    // Stryker disable next-line ConditionalExpression: a distribution that goes on past maxSymbol ends with at least maxSymbol + 2 counts (its last count is not 0), which the check after the loop rejects
    if (counts.length > maxSymbol) fail('an FSE distribution has too many symbols')
    const limit = 2 * threshold - 1 - remaining
    let value = reader.peek(width - 1)
    if (value < limit) reader.skip(width - 1)
    else {
      value = reader.read(width)
      // Stryker disable next-line EqualityOperator: a value equal to the threshold has its low bits 0, so it is read in full only when the limit is 0, and subtracting 0 changes nothing
      if (value >= threshold) value -= limit
    }
    const count = value - 1
    remaining -= Math.abs(count)
    counts.push(count)
    if (count === 0) {
      let flag = reader.read(2)
      let zeros = flag
      while (flag === 3) {
        flag = reader.read(2)
        zeros += flag
      }
      for (let zero = 0; zero < zeros; zero++) counts.push(0)
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: no count exceeds what remains, so remaining never drops below 1 and the loop stops at threshold 1 anyway
    while (remaining < threshold && threshold > 1) {
      width--
      threshold >>= 1
    }
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: neither test can fail: no count exceeds what remains, and the loop stops a distribution before a count past maxSymbol
  if (remaining !== 1 || counts.length > maxSymbol + 1) fail('an FSE distribution does not add up')
  return { table: buildFseTable(counts, accuracyLog), used: reader.bytesUsed() }
}

/** One FSE decoder state over a backward bitstream. */
export class FseState {
  private state: number
  constructor(private readonly table: FseTable, private readonly bits: BackwardBits) {
    this.state = bits.read(table.accuracyLog)
  }

  symbol(): number {
    return (this.table.entries[this.state] as FseEntry).symbol
  }

  update(): void {
    const entry = this.table.entries[this.state] as FseEntry
    this.state = entry.base + this.bits.read(entry.bits)
  }
}

// ---- Huffman (section 4.2) ---------------------------------------------------------------------

export interface HuffmanTable {
  maxBits: number
  /** Indexed by the next `maxBits` bits: the symbol and how many bits it really uses. */
  symbols: number[]
  lengths: number[]
}

/** Weights of all symbols but the last (which is implied) to a decoding table (section 4.2.1.3). */
export function buildHuffmanTable(weights: readonly number[]): HuffmanTable {
  // Powers, not shifts: an FSE-coded weight may be as large as 255, and 1 << 32 is 1.
  const total = weights.reduce((sum, weight) => sum + (weight > 0 ? 2 ** (weight - 1) : 0), 0)
  if (total === 0) fail('a Huffman tree without weights')
  if (total >= 2 ** 11) fail('a Huffman code longer than 11 bits')
  const maxBits = highBit(total) + 1
  const rest = (1 << maxBits) - total
  if (rest !== 1 << highBit(rest)) fail('the implied last Huffman weight is not a power of two')
  const all = [...weights, highBit(rest) + 1]
  const symbols: number[] = []
  const lengths: number[] = []
  for (let weight = 1; weight <= maxBits; weight++) {
    all.forEach((symbolWeight, symbol) => {
      if (symbolWeight !== weight) return
      for (let copy = 0; copy < 1 << (weight - 1); copy++) {
        symbols.push(symbol)
        lengths.push(maxBits + 1 - weight)
      }
    })
  }
  return { maxBits, symbols, lengths }
}

/** Reads a Huffman tree description (section 4.2.1) at `start`; returns the table and the bytes used. */
export function readHuffmanTree(bytes: Uint8Array, start: number, end: number): { table: HuffmanTable; used: number } {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: start never passes end, and at end every description runs past the end and fails further on
  if (start >= end) fail('a missing Huffman tree description')
  const header = bytes[start] as number
  const weights: number[] = []
  if (header >= 128) {
    const count = header - 127
    const used = 1 + Math.ceil(count / 2)
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a description that reaches the section end leaves the Huffman streams no bytes or a start past the end, where decoding them fails
    if (start + used > end) fail('a Huffman tree description runs past its block')
    for (let index = 0; index < count; index++) {
      const byte = bytes[start + 1 + (index >> 1)] as number
      weights.push(index % 2 === 0 ? byte >> 4 : byte & 15)
    }
    return { table: buildHuffmanTable(weights), used }
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a description that reaches the section end leaves the Huffman streams no bytes or a start past the end, where decoding them fails
  if (start + 1 + header > end) fail('a Huffman tree description runs past its block')
  const distribution = readFseDistribution(bytes, start + 1, start + 1 + header, 255, 6)
  const bits = new BackwardBits(bytes, start + 1 + distribution.used, start + 1 + header)
  const states = [new FseState(distribution.table, bits), new FseState(distribution.table, bits)]
  for (let turn = 0; ; turn ^= 1) {
    // This turn adds one weight, or two when the stream ends, and at most 255 weights are coded.
    if (weights.length + 2 > 255) fail('too many Huffman weights')
    const state = states[turn] as FseState
    weights.push(state.symbol())
    state.update()
    if (bits.overflowed()) {
      weights.push((states[turn ^ 1] as FseState).symbol())
      break
    }
  }
  return { table: buildHuffmanTable(weights), used: 1 + header }
}

/** Decodes `count` symbols of one Huffman stream, which must be consumed exactly. */
export function decodeHuffmanStream(table: HuffmanTable, bytes: Uint8Array, start: number, end: number, count: number, into: number[]): void {
  const bits = new BackwardBits(bytes, start, end)
  for (let index = 0; index < count; index++) {
    const key = bits.peek(table.maxBits)
    into.push(table.symbols[key] as number)
    bits.skip(table.lengths[key] as number)
  }
  if (!bits.finished()) fail('a Huffman stream is not consumed exactly')
}
