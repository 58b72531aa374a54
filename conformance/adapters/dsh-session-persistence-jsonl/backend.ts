// The published JSONL backend, @deepseek-ai/dsh-session-persistence-jsonl@0.1.0-rc.8 (the only build on
// npm at the pinned format version), and the small part of its API this adapter uses. The backend is a
// cordis plugin that keeps sessions under a root directory; the adapter gives it a root of its own, one
// per encoding, and calls its storage methods directly (not through the persistence coordinator, whose
// session bookkeeping the vectors do not exercise). Its peers resolve to the top-level set:
// dsh-session and dsh-session-persistence at 0.1.0-rc.8, cordis at 4.0.4.
import { mkdtempSync, rmSync } from 'node:fs'
import { register } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'

export const BACKEND_VERSION = '0.1.0-rc.8'

/** Node 22.15 and later have zstd in node:zlib; on Node 20 the backend cannot read a zstd artifact. */
export const NODE_HAS_ZSTD = typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function'

/** node:zlib's zstd one-shot decoder, which Node 20's types (and Node 20) lack. */
export const zstdZlib = zlib as unknown as {
  zstdDecompressSync(input: Buffer, options?: { finishFlush?: number }): Buffer
  constants: { ZSTD_e_flush: number }
}

export type Compression = 'none' | 'zstd'

/** The header the backend reads and writes: its `SessionHeader`, members as stored. */
export type BackendHeader = Record<string, unknown>

export interface StoredPrefix {
  meta: BackendHeader
  events: unknown[]
  /** Present when the artifact ends in a torn tail: the offset the backend would truncate it to. */
  tornMarker?: { truncateTo: number }
}

export interface JsonlBackend {
  /** The artifact's absolute path under the root; throws when the id or cwd derives none. */
  locate(meta: { id: unknown; cwd?: unknown }): { path: string }
  loadStored(id: string): Promise<StoredPrefix | undefined>
  /** The decoded text of the artifact: in the zstd encoding, of its complete frames alone. */
  readRaw(id: string): Promise<{ content: string } | undefined>
  appendBatch(meta: BackendHeader, events: readonly unknown[], isMaterialized: boolean): Promise<void>
}

/** One backend per encoding, each over its own root, which every call leaves empty. */
export interface Backends {
  root(compression: Compression): string
  backend(compression: Compression): JsonlBackend
  /** Empties a root after a call, so that the next call finds only its own artifact. */
  clear(compression: Compression): void
  close(): void
}

/** Whether this process has registered zlib-hooks.mjs: once is enough, whatever loads the backend again. */
let zlibHooked = false

type BackendClass = new (ctx: unknown, config: { root: string; compression: Compression }) => JsonlBackend

async function backendClass(): Promise<BackendClass> {
  if (!NODE_HAS_ZSTD && !zlibHooked) {
    register('./zlib-hooks.mjs', import.meta.url)
    zlibHooked = true
  }
  const module = await import('@deepseek-ai/dsh-session-persistence-jsonl') as unknown as { JsonlSessionPersistence: BackendClass }
  return module.JsonlSessionPersistence
}

export async function loadBackends(): Promise<Backends> {
  const JsonlSessionPersistence = await backendClass()
  const { Context } = await import('@deepseek-ai/cordis')
  const { SessionStore } = await import('@deepseek-ai/dsh-session') as { SessionStore: new (ctx: unknown) => unknown }
  // A context holds one persistence service, and the backend's coordinator asks it for its `sessions`.
  const contextFor = (): unknown => {
    const ctx = new Context()
    new SessionStore(ctx)
    return ctx
  }
  const top = mkdtempSync(path.join(tmpdir(), 'dsh-jsonl-backend-'))
  const roots = { none: path.join(top, 'raw'), zstd: path.join(top, 'zstd') }
  const built = new Map<Compression, JsonlBackend>()
  return {
    root: compression => roots[compression],
    backend(compression) {
      let backend = built.get(compression)
      if (backend === undefined) {
        backend = new JsonlSessionPersistence(contextFor(), { root: roots[compression], compression })
        built.set(compression, backend)
      }
      return backend
    },
    clear: compression => rmSync(roots[compression], { recursive: true, force: true }),
    close: () => rmSync(top, { recursive: true, force: true }),
  }
}
