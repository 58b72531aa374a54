// Decompressing one zstd frame of a file, its content handed on piece by piece (JSONL-14, JSONL-15).
// Node's own zstd (node:zlib, Node 22.15 and later) decodes small complete frames when present; the
// pure-JS fzstd decodes everything else. fzstd skips the content checksum, so it is computed here
// (XXH64) and compared, as is the declared content size.
import * as zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import { WINDOW_BYTES, type ByteSource } from './byte-source.ts'
import type { FrameLayout } from './zstd-frames.ts'
import { Xxh64 } from '../../reference/xxh64.ts'

export type ContentHandler = (bytes: Uint8Array) => void

type OneShot = (bytes: Uint8Array, options: { maxOutputLength: number }) => Buffer
const nativeZstd = (zlib as unknown as { zstdDecompressSync?: OneShot }).zstdDecompressSync

export const hasNativeZstd = nativeZstd !== undefined

function storedChecksum(source: ByteSource, frame: FrameLayout): number {
  return source.bytes(frame.end - 4, 4).readUInt32LE(0)
}

/** Pushes the file's bytes [from, to) into the decoder as owned copies (fzstd may keep what it is given). */
function feed(decoder: Decompress, source: ByteSource, from: number, to: number, final: boolean): void {
  for (let at = from; at < to; at += WINDOW_BYTES) {
    const end = Math.min(at + WINDOW_BYTES, to)
    decoder.push(Uint8Array.prototype.slice.call(source.bytes(at, end - at)), final && end === to)
  }
}

function inflatePortable(source: ByteSource, frame: FrameLayout, onContent: ContentHandler): boolean {
  const hash = new Xxh64()
  let size = 0
  const decoder = new Decompress((chunk) => {
    hash.update(chunk)
    size += chunk.length
    if (chunk.length > 0) onContent(chunk)
  })
  try {
    feed(decoder, source, frame.start, frame.end, false)
    decoder.push(new Uint8Array(0), true)
  } catch {
    return false
  }
  if (frame.contentSize !== undefined && frame.contentSize !== size) return false
  return !frame.checksum || hash.frameChecksum() === storedChecksum(source, frame)
}

function inflateNative(decode: OneShot, source: ByteSource, frame: FrameLayout, limit: number, onContent: ContentHandler): boolean {
  let content: Buffer
  try {
    content = decode(Buffer.from(source.bytes(frame.start, frame.end - frame.start)), { maxOutputLength: limit })
  } catch {
    return false
  }
  if (content.length > 0) onContent(content)
  return true
}

/**
 * A complete frame: its content goes to `onContent` as it is decoded; true when the whole frame
 * decompressed and its size and checksum hold. `windowLimit` bounds the memory a decoder may take.
 */
export function inflateFrame(source: ByteSource, frame: FrameLayout, windowLimit: number, onContent: ContentHandler): boolean {
  if (frame.dictionary) return false
  // Node's zstd decodes a frame whole, so only small frames whose content size is declared go to it.
  const small = frame.end - frame.start <= WINDOW_BYTES && frame.contentSize !== undefined && frame.contentSize <= windowLimit
  if (nativeZstd !== undefined && small) return inflateNative(nativeZstd, source, frame, windowLimit, onContent)
  return inflatePortable(source, frame, onContent)
}

/** Decodes the torn frame's entirely present blocks; true when every one of them decodes. */
function decodeWholeBlocks(source: ByteSource, frame: FrameLayout, onContent: ContentHandler): boolean {
  if (frame.wholeBlocks === 0) return true
  let blocks = 0
  const decoder = new Decompress((chunk, final) => {
    if (final) return
    blocks += 1
    if (chunk.length > 0) onContent(chunk)
  })
  try {
    // Final, so that fzstd decodes what it has; it then throws because the frame goes on.
    feed(decoder, source, frame.start, frame.wholeBlocksEnd, true)
  } catch {
    // Judged by the count below.
  }
  return blocks === frame.wholeBlocks
}

/**
 * JSONL-15: what a torn frame gives, to `onContent`: its entirely present blocks, then the present
 * bytes of a cut raw block; nothing when the header is cut or any present block fails to decode (a
 * first pass finds that out, so no content is handed on before it is known to stand).
 */
export function recoverTornFrame(source: ByteSource, frame: FrameLayout, onContent: ContentHandler): void {
  if (!frame.headerComplete || frame.dictionary) return
  if (!decodeWholeBlocks(source, frame, () => {})) return
  decodeWholeBlocks(source, frame, onContent)
  const raw = frame.partialRaw
  if (raw === undefined) return
  for (let at = raw.payload; at < raw.payload + raw.present; at += WINDOW_BYTES) {
    onContent(Buffer.from(source.bytes(at, Math.min(WINDOW_BYTES, raw.payload + raw.present - at))))
  }
}
