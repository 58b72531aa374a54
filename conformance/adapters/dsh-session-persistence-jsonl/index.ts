// An in-process adapter for the real JSONL storage backend, @deepseek-ai/dsh-session-persistence-jsonl
// (`dsh-session-persistence-jsonl@0.1.0-rc.8`): the jsonl profile's operations, which the dsh-session
// builds cannot run (that package has no header line, torn-tail scanner, writer or artifact layout).
import type { Adapter } from '../../adapter.ts'
import { BACKEND_VERSION, loadBackends } from './backend.ts'
import { jsonlOperations } from './operations.ts'

export async function dshSessionPersistenceJsonlAdapter(): Promise<Adapter> {
  const backends = await loadBackends()
  const { decodeStorageRecord } = await import('@deepseek-ai/dsh-session') as { decodeStorageRecord(value: unknown): unknown[] }
  return {
    meta: { name: `dsh-session-persistence-jsonl@${BACKEND_VERSION}`, version: BACKEND_VERSION, language: 'typescript', profiles: ['jsonl'] },
    operations: jsonlOperations(backends, decodeStorageRecord),
    close: async () => backends.close(),
  }
}
