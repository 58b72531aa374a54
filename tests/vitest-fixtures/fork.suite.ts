// Run by tests/vitest-entry.test.ts in a vitest of its own (vitest.config.ts beside this file), from
// the project's root, where the adapter commands' paths start.
// The reference over the wire answers four cases right, though the configuration asks for concurrent
// tests; a hanging fake errs on a case its baseline lists for a wrong answer.
import { registerConformanceSuite } from '../../conformance/vitest.ts'

registerConformanceSuite({
  name: 'the reference over the wire, under sequence.concurrent',
  adapterCmd: 'node node_modules/tsx/dist/cli.mjs conformance/cli.ts serve',
  filters: { cases: ['surf-order-append-only-surface', 'surf-order-start-equals-end', 'surf-order-chain-fold', 'surf-order-chain-shadowed-in-surface-order'] },
})

registerConformanceSuite({
  name: 'a hanging adapter whose baseline lists the case',
  adapterCmd: 'node tests/fakes/fake-adapter.mjs hang',
  timeoutMs: 500,
  filters: { cases: ['surf-order-append-only-surface'] },
  baseline: { adapter: 'fake-hang', failures: [{ id: 'surf-order-append-only-surface', reason: 'SURF-6: a wrong answer, once' }] },
})
