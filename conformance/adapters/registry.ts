// The adapters dsh-conformance can run by name.
import type { Adapter } from '../adapter.ts'

const LOADERS: Record<string, () => Promise<Adapter>> = {
  reference: async () => (await import('./reference.ts')).referenceAdapter,
  'dsh-session@0.1.0-rc.6': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.0-rc.6'),
  'dsh-session@0.1.0-rc.7': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.0-rc.7'),
  'dsh-session@0.1.0-rc.8': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.0-rc.8'),
  'dsh-session@0.1.1-rc.2': async () => (await import('./dsh-session/index.ts')).dshSessionAdapter('0.1.1-rc.2'),
  'dsh-session-persistence-jsonl@0.1.0-rc.8': async () => (await import('./dsh-session-persistence-jsonl/index.ts')).dshSessionPersistenceJsonlAdapter(),
}

export const ADAPTER_NAMES = Object.keys(LOADERS)

/** What is wrong with an adapter name, if anything: the command line and adapterByName say it alike. */
export function adapterNameProblem(name: string): string | undefined {
  return ADAPTER_NAMES.includes(name) ? undefined : `unknown adapter "${name}" (known: ${ADAPTER_NAMES.join(', ')})`
}

export async function adapterByName(name: string): Promise<Adapter> {
  const problem = adapterNameProblem(name)
  if (problem !== undefined) throw new Error(problem)
  return LOADERS[name]!()
}
