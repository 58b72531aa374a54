// In-process adapters for the real @deepseek-ai/dsh-session builds from npm, one per version:
// `dsh-session@0.1.0-rc.6`, `@0.1.0-rc.7`, `@0.1.0-rc.8`, `@0.1.1-rc.2`. The builds need nothing that
// Node 20 lacks (no Promise.withResolvers, no zstd), so no polyfill is installed.
import type { Adapter } from '../../adapter.ts'
import { dshSessionOperations } from './operations.ts'
import { loadBuild, type DshSessionVersion } from './upstream.ts'

// Profile compaction is not claimed: see operations.ts. Profile jsonl is claimed for decodeJsonl only.
const PROFILES = ['reader', 'writer', 'relations', 'repair', 'fork', 'jsonl']

export async function dshSessionAdapter(version: DshSessionVersion): Promise<Adapter> {
  const build = await loadBuild(version)
  return {
    meta: { name: `dsh-session@${version}`, version, language: 'typescript', profiles: [...PROFILES] },
    operations: dshSessionOperations(build),
  }
}
