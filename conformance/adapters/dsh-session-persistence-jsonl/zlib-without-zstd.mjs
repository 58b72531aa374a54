// node:zlib as the JSONL backend sees it on a Node without zstd (see zlib-hooks.mjs): every export of
// node:zlib, and the four zstd functions the backend imports, each throwing when called. The adapter
// never lets the backend reach them there: it answers zstd artifacts as unsupported first.
import zlib from 'node:zlib'

export * from 'node:zlib'
export default zlib

function noZstd() {
  throw new Error('this Node has no zstd in node:zlib')
}

export const createZstdDecompress = noZstd
export const zstdCompress = noZstd
export const zstdDecompress = noZstd
export const zstdDecompressSync = noZstd
