/**
 * Zstandard block decompression (RFC 8878, section 3.1.1): literals, sequences and their execution,
 * and the content checksum (XXH64). Chapter 19 needs it to read zstd artifacts on hosts without a
 * zstd library. Malformed input throws `ZstdError` (zstd-entropy.ts); `zstd.ts` catches it.
 */
import { ByteOutput } from './byte-output.ts'
import {
  BackwardBits, FseState, buildFseTable, decodeHuffmanStream, fail, readFseDistribution, readHuffmanTree,
  type FseTable, type HuffmanTable,
} from './zstd-entropy.ts'

/** A frame's output so far, and the tables a compressed block may reuse from the blocks before it. */
export interface FrameState {
  output: ByteOutput
  /** Window_Size (section 3.1.1.1.2): no match may reach further back. */
  windowSize: number
  /** Block_Maximum_Size (section 3.1.1.2.3): no block's size, nor what it decompresses to, may exceed it. */
  blockMaximum: number
  huffman: HuffmanTable | undefined
  tables: { literalLength?: FseTable; offset?: FseTable; matchLength?: FseTable }
  repeatOffsets: [number, number, number]
}

/** Block_Maximum_Size of a frame whose window size is `windowSize`. */
export function blockMaximumOf(windowSize: number): number {
  return Math.min(windowSize, 128 * 1024)
}

/** The state of a new frame whose window size is `windowSize` (the content size of a single-segment frame). */
export function newFrameState(windowSize: number): FrameState {
  return { output: new ByteOutput(), windowSize, blockMaximum: blockMaximumOf(windowSize), huffman: undefined, tables: {}, repeatOffsets: [1, 4, 8] }
}

// ---- literals (section 3.1.1.3.1) --------------------------------------------------------------

function byteAt(bytes: Uint8Array, index: number, end: number): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: reading the one byte at the block end leaves the next read, or the sequence section start, past the end, where a guard fails anyway
  if (index >= end) fail('a block section runs past its block')
  return bytes[index] as number
}

/** A little-endian number of `count` bytes (count up to 5, so plain arithmetic is exact). */
function littleEndian(bytes: Uint8Array, start: number, count: number, end: number): number {
  let value = 0
  for (let index = count - 1; index >= 0; index--) value = value * 256 + byteAt(bytes, start + index, end)
  return value
}

function readLiterals(bytes: Uint8Array, start: number, end: number, state: FrameState): { literals: Uint8Array; used: number } {
  const first = byteAt(bytes, start, end)
  const type = first & 3
  const format = (first >> 2) & 3
  if (type <= 1) {
    const headerSize = format === 1 ? 2 : format === 3 ? 3 : 1
    const size = headerSize === 1 ? first >> 3 : Math.floor(littleEndian(bytes, start, headerSize, end) / 16)
    if (type === 1) return { literals: new Uint8Array(size).fill(byteAt(bytes, start + headerSize, end)), used: headerSize + 1 }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: literals that reach the block end leave no room for the sequence count, whose read fails anyway
    if (start + headerSize + size > end) fail('raw literals run past their block')
    return { literals: bytes.subarray(start + headerSize, start + headerSize + size), used: headerSize + size }
  }
  const headerSize = format <= 1 ? 3 : format === 2 ? 4 : 5
  const fieldBits = format <= 1 ? 10 : format === 2 ? 14 : 18
  const header = Math.floor(littleEndian(bytes, start, headerSize, end) / 16)
  const regenerated = header % 2 ** fieldBits
  const compressed = Math.floor(header / 2 ** fieldBits) % 2 ** fieldBits
  const streamsStart = start + headerSize
  const streamsEnd = streamsStart + compressed
  // Stryker disable next-line ConditionalExpression,EqualityOperator: literals that reach the block end leave no room for the sequence count, whose read fails anyway
  if (streamsEnd > end) fail('compressed literals run past their block')
  let cursor = streamsStart
  if (type === 2) {
    const tree = readHuffmanTree(bytes, cursor, streamsEnd)
    state.huffman = tree.table
    cursor += tree.used
  }
  const table = state.huffman ?? fail('treeless literals with no earlier Huffman table')
  const literals = format === 0
    ? decodeOneStream(table, bytes, cursor, streamsEnd, regenerated)
    : decodeFourStreams(table, bytes, cursor, streamsEnd, regenerated)
  return { literals: Uint8Array.from(literals), used: headerSize + compressed }
}

function decodeOneStream(table: HuffmanTable, bytes: Uint8Array, start: number, end: number, count: number): number[] {
  const literals: number[] = []
  decodeHuffmanStream(table, bytes, start, end, count, literals)
  return literals
}

function decodeFourStreams(table: HuffmanTable, bytes: Uint8Array, start: number, end: number, count: number): number[] {
  const sizes = [0, 2, 4].map(offset => littleEndian(bytes, start + offset, 2, end))
  const quarter = Math.ceil(count / 4)
  const counts = [quarter, quarter, quarter, count - 3 * quarter]
  if ((counts[3] as number) < 0) fail('four literal streams cannot hold so few literals')
  const literals: number[] = []
  let cursor = start + 6
  for (let stream = 0; stream < 4; stream++) {
    const size = stream < 3 ? (sizes[stream] as number) : end - cursor
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: a stream of no bytes fails in BackwardBits, and one that ends past the section leaves the last stream a negative size, which fails there too
    if (size <= 0 || cursor + size > end) fail('a literal stream runs past its section')
    decodeHuffmanStream(table, bytes, cursor, cursor + size, counts[stream] as number, literals)
    cursor += size
  }
  return literals
}

// ---- sequences (section 3.1.1.3.2) -------------------------------------------------------------

interface CodeKind {
  name: 'literalLength' | 'offset' | 'matchLength'
  maxSymbol: number
  maxLog: number
  defaultLog: number
  defaults: readonly number[]
}

const LITERAL_LENGTH: CodeKind = {
  name: 'literalLength', maxSymbol: 35, maxLog: 9, defaultLog: 6,
  defaults: [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1],
}
const MATCH_LENGTH: CodeKind = {
  name: 'matchLength', maxSymbol: 52, maxLog: 9, defaultLog: 6,
  defaults: [1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1],
}
const OFFSET: CodeKind = {
  name: 'offset', maxSymbol: 31, maxLog: 8, defaultLog: 5,
  defaults: [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1],
}

/** Literal length codes 16..35 and match length codes 32..52: [baseline, extra bits]. */
const LITERAL_LENGTH_LONG: readonly [number, number][] = [[16, 1], [18, 1], [20, 1], [22, 1], [24, 2], [28, 2], [32, 3], [40, 3],
  [48, 4], [64, 6], [128, 7], [256, 8], [512, 9], [1024, 10], [2048, 11], [4096, 12], [8192, 13], [16384, 14], [32768, 15], [65536, 16]]
const MATCH_LENGTH_LONG: readonly [number, number][] = [[35, 1], [37, 1], [39, 1], [41, 1], [43, 2], [47, 2], [51, 3], [59, 3],
  [67, 4], [83, 4], [99, 5], [131, 7], [259, 8], [515, 9], [1027, 10], [2051, 11], [4099, 12], [8195, 13], [16387, 14], [32771, 15], [65539, 16]]

function literalLengthCode(code: number): [number, number] {
  return code < 16 ? [code, 0] : LITERAL_LENGTH_LONG[code - 16] ?? fail('a literal length code out of range')
}

function matchLengthCode(code: number): [number, number] {
  return code < 32 ? [code + 3, 0] : MATCH_LENGTH_LONG[code - 32] ?? fail('a match length code out of range')
}

/** The table of one code kind for this block, per its compression mode (section 3.1.1.3.2.1). */
function readTable(kind: CodeKind, mode: number, bytes: Uint8Array, start: number, end: number, state: FrameState): { table: FseTable; used: number } {
  switch (mode) {
    case 0:
      return { table: buildFseTable(kind.defaults, kind.defaultLog), used: 0 }
    case 1: {
      const symbol = byteAt(bytes, start, end)
      // Stryker disable next-line ConditionalExpression: a table is read only for a block with sequences, where a length code out of range has no baseline and an offset code above 31 fails its own check
      if (symbol > kind.maxSymbol) fail('an RLE code out of range')
      return { table: { accuracyLog: 0, entries: [{ symbol, bits: 0, base: 0 }] }, used: 1 }
    }
    case 2:
      return readFseDistribution(bytes, start, end, kind.maxSymbol, kind.maxLog)
    default:
      return { table: state.tables[kind.name] ?? fail('a repeated table with no earlier table'), used: 0 }
  }
}

interface Sequence {
  literalLength: number
  offsetValue: number
  matchLength: number
}

function sequenceCount(bytes: Uint8Array, start: number, end: number): { count: number; used: number } {
  const first = byteAt(bytes, start, end)
  if (first < 128) return { count: first, used: 1 }
  if (first < 255) return { count: (first - 128) * 256 + byteAt(bytes, start + 1, end), used: 2 }
  return { count: byteAt(bytes, start + 1, end) + byteAt(bytes, start + 2, end) * 256 + 0x7f00, used: 3 }
}

function readSequences(bytes: Uint8Array, start: number, end: number, state: FrameState): Sequence[] {
  const { count, used } = sequenceCount(bytes, start, end)
  if (count === 0) {
    if (start + used !== end) fail('bytes after an empty sequences section')
    // Stryker disable next-line ArrayDeclaration: a bogus sequence of undefined fields takes no literals and copies nothing
    return []
  }
  const modes = byteAt(bytes, start + used, end)
  if ((modes & 3) !== 0) fail('reserved bits set in the sequence modes')
  let cursor = start + used + 1
  for (const [kind, mode] of [[LITERAL_LENGTH, modes >> 6], [OFFSET, (modes >> 4) & 3], [MATCH_LENGTH, (modes >> 2) & 3]] as const) {
    const read = readTable(kind, mode, bytes, cursor, end, state)
    state.tables[kind.name] = read.table
    cursor += read.used
  }
  const bits = new BackwardBits(bytes, cursor, end)
  const literalLength = new FseState(state.tables.literalLength as FseTable, bits)
  const offset = new FseState(state.tables.offset as FseTable, bits)
  const matchLength = new FseState(state.tables.matchLength as FseTable, bits)
  const sequences: Sequence[] = []
  // Stryker disable next-line EqualityOperator: the loop leaves by the break after the last sequence, before the bound is tested again
  for (let index = 0; index < count; index++) {
    const offsetCode = offset.symbol()
    // Stryker disable next-line ConditionalExpression,EqualityOperator: offset tables never hold a code above 31, and a code of 31 reaches 2^31 bytes back, before the start of any frame
    if (offsetCode > 31) fail('an offset code out of range')
    const offsetValue = 2 ** offsetCode + bits.read(offsetCode)
    const [matchBase, matchBits] = matchLengthCode(matchLength.symbol())
    const [literalBase, literalBits] = literalLengthCode(literalLength.symbol())
    sequences.push({ matchLength: matchBase + bits.read(matchBits), literalLength: literalBase + bits.read(literalBits), offsetValue })
    if (index === count - 1) break
    literalLength.update()
    matchLength.update()
    offset.update()
  }
  if (!bits.finished()) fail('a sequence bitstream is not consumed exactly')
  return sequences
}

/** Section 3.1.1.5: the offset of a sequence, updating the repeat offsets. */
function resolveOffset(sequence: Sequence, repeat: [number, number, number]): number {
  if (sequence.offsetValue > 3) {
    const offset = sequence.offsetValue - 3
    repeat.splice(0, 3, offset, repeat[0], repeat[1])
    return offset
  }
  const index = sequence.offsetValue - 1 + (sequence.literalLength === 0 ? 1 : 0)
  if (index === 0) return repeat[0]
  const offset = index === 3 ? Math.max(1, repeat[0] - 1) : repeat[index] as number
  if (index === 1) repeat.splice(0, 2, offset, repeat[0])
  else repeat.splice(0, 3, offset, repeat[0], repeat[1])
  return offset
}

function execute(sequences: readonly Sequence[], literals: Uint8Array, state: FrameState): void {
  const output = state.output
  // Checked before each sequence runs, so a block cannot grow the output far past the maximum.
  const limit = output.length + state.blockMaximum
  let literal = 0
  for (const sequence of sequences) {
    if (literal + sequence.literalLength > literals.length) fail('a sequence takes more literals than there are')
    // Stryker disable next-line ConditionalExpression,ArithmeticOperator: the check after the loop rejects the same blocks, as the output only grows; this one stops them early, before they use much memory
    if (output.length + sequence.literalLength + sequence.matchLength > limit) fail('a block decompresses to more than the block maximum')
    output.append(literals.subarray(literal, literal + sequence.literalLength))
    literal += sequence.literalLength
    const offset = resolveOffset(sequence, state.repeatOffsets)
    if (offset > output.length) fail('a match reaches before the start of the frame')
    if (offset > state.windowSize) fail('a match reaches further back than the window')
    output.copyBack(offset, sequence.matchLength)
  }
  if (output.length + literals.length - literal > limit) fail('a block decompresses to more than the block maximum')
  output.append(literals.subarray(literal))
}

/** Decompresses one compressed block (section 3.1.1.3) into the frame's output. */
function decompressBlock(bytes: Uint8Array, start: number, end: number, state: FrameState): void {
  const { literals, used } = readLiterals(bytes, start, end, state)
  execute(readSequences(bytes, start + used, end, state), literals, state)
}

export const RAW_BLOCK = 0
export const RLE_BLOCK = 1

/**
 * Appends the content of one block (section 3.1.1.2) to the frame's output: `payload` holds its
 * `size` bytes (raw or compressed), or the one byte an RLE block repeats `size` times.
 */
export function decodeBlock(type: number, size: number, payload: Uint8Array, state: FrameState): void {
  if (size > state.blockMaximum) fail('a block larger than the block maximum')
  if (type === RAW_BLOCK) state.output.append(payload.subarray(0, size))
  else if (type === RLE_BLOCK) state.output.repeat(payload[0] as number, size)
  else decompressBlock(payload, 0, size, state)
}
