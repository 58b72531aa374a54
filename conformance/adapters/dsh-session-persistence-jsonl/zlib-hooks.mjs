// A module hook (node:module register) for Node releases whose node:zlib has no zstd (Node 20): the
// JSONL backend imports zstd functions from node:zlib by name, which fails to link there. Imports of
// node:zlib from the backend's files alone resolve to zlib-without-zstd.mjs; nothing else changes.
const SHIM = new URL('./zlib-without-zstd.mjs', import.meta.url).href

export async function resolve(specifier, context, nextResolve) {
  const fromBackend = context.parentURL?.includes('/@deepseek-ai/dsh-session-persistence-jsonl/') === true
  if (fromBackend && (specifier === 'node:zlib' || specifier === 'zlib')) return { url: SHIM, shortCircuit: true }
  return nextResolve(specifier, context)
}
