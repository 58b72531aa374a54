// The adapters dsh-conformance can run by name.
import type { Adapter } from '../adapter.ts'

const LOADERS: Record<string, () => Promise<Adapter>> = {
  reference: async () => (await import('./reference.ts')).referenceAdapter,
  'dsh-session@0.1.0-rc.6': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.0-rc.6'),
  'dsh-session@0.1.0-rc.7': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.0-rc.7'),
  'dsh-session@0.1.0-rc.8': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.0-rc.8'),
  'dsh-session@0.1.1-rc.2': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.1-rc.2'),
}

export const ADAPTER_NAMES = Object.keys(LOADERS)

export async function adapterByName(name: string): Promise<Adapter> {
  const load = LOADERS[name]
  if (!load) throw new Error(`unknown adapter "${name}" (known: ${ADAPTER_NAMES.join(', ')})`)
  return load()
}
