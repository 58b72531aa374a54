// The adapters dsh-conformance can run by name.
import type { Adapter } from '../adapter.ts'

const LOADERS: Record<string, () => Promise<Adapter>> = {
  reference: async () => (await import('./reference.ts')).referenceAdapter,
}

export const ADAPTER_NAMES = Object.keys(LOADERS)

export async function adapterByName(name: string): Promise<Adapter> {
  const load = LOADERS[name]
  if (!load) throw new Error(`unknown adapter "${name}" (known: ${ADAPTER_NAMES.join(', ')})`)
  return load()
}
