// An in-process adapter for tests/compare-command-cli.test.ts: the reference's reader operations,
// except that load waits `slowMs` milliseconds when its input has that member (load ignores members it
// does not take, PROC-10), and close() counts its calls in globalThis.compareModuleCloses.
import { referenceAdapter, type Adapter } from '../../conformance/index.ts'

const counter = globalThis as { compareModuleCloses?: number }

const load: NonNullable<Adapter['operations']['load']> = async (input, context) => {
  const slowMs = input['slowMs']
  if (typeof slowMs === 'number') await new Promise((resolve) => setTimeout(resolve, slowMs))
  return referenceAdapter.operations.load!(input, context)
}

const adapter: Adapter = {
  meta: { name: 'compare-module', version: '0.0.1', language: 'typescript', profiles: ['reader'] },
  operations: { ...referenceAdapter.operations, load },
  close: async () => { counter.compareModuleCloses = (counter.compareModuleCloses ?? 0) + 1 },
}

export default adapter
