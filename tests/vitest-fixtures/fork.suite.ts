// Run by tests/vitest-entry.test.ts in a vitest of its own (vitest.config.ts beside this file), from
// the project's root, where the adapter commands' paths start; outcomes-reporter.ts writes down what
// became of each test. One file, so that the suite's cases are loaded once.
// The reference over the wire answers four cases right, though the configuration asks for concurrent
// tests; a hanging fake errs on a case its baseline lists for a wrong answer. The outcomes that must
// not be passes, from a fake that answers surf-order-append-only-surface right, surf-order-chain-fold
// wrong, and claims no profile but reader:
// - a case whose profile it does not claim, and a fail its baseline lists: skips that say why;
// - under strictBaseline, a listed case it passes fails, and a listed fail still skips; a listed id
//   the suite does not have fails a test of its own;
// - when it claims none of the selected cases, every case skips and the last test fails.
// A fork's own folder of vectors, under strictBaseline with a baseline written for that folder: an id
// the folder lacks fails a test of its own. Text that holds escape sequences reaches the reporters
// escaped: an adapter's messages, a baseline's reason, the stderr of an adapter that cannot start and a
// profile an adapter claims.
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

registerConformanceSuite({
  name: 'a fake adapter with a baseline',
  adapterCmd: 'node tests/fakes/fake-adapter.mjs misorder',
  filters: { cases: ['surf-order-append-only-surface', 'surf-order-chain-fold', 'surf-order-chain-numeric-reversed-writer'] },
  baseline: { adapter: 'fake-misorder', failures: [{ id: 'surf-order-chain-fold', reason: 'SURF-6: the fake puts a replacement at the tail' }] },
})

registerConformanceSuite({
  name: 'a fake adapter under strictBaseline',
  adapterCmd: 'node tests/fakes/fake-adapter.mjs misorder',
  strictBaseline: true,
  filters: { cases: ['surf-order-append-only-surface', 'surf-order-chain-fold'] },
  baseline: {
    adapter: 'fake-misorder',
    failures: [
      { id: 'surf-order-append-only-surface', reason: 'listed, though the fake answers it right\u001b[2J' },
      { id: 'surf-order-chain-fold', reason: 'SURF-6: the fake puts a replacement at the tail' },
      { id: 'surf-order-no-such-case', reason: 'a case that left the suite' },
    ],
  },
})

registerConformanceSuite({
  name: 'a fake adapter that claims none of its cases',
  adapterCmd: 'node tests/fakes/fake-adapter.mjs misorder',
  filters: { cases: ['surf-atomic-rejected-replace-leaves-surface', 'surf-order-chain-numeric-reversed-writer'] },
})

registerConformanceSuite({
  name: 'a fork\'s own vectors under strictBaseline, with a baseline of the folder',
  adapter: 'reference',
  vectors: 'tests/vitest-fixtures/own-vectors',
  strictBaseline: true,
  baseline: { adapter: 'reference', vectors: 'own-vectors', failures: [{ id: 'own-deleted', reason: 'a case that left the folder' }] },
})

registerConformanceSuite({
  name: 'an adapter whose messages hold escape sequences',
  adapterCmd: `node tests/fakes/fake-adapter.mjs hostile '${JSON.stringify('evil\u001b[2J')}'`,
  filters: { cases: ['surf-order-append-only-surface'] },
})

registerConformanceSuite({
  name: 'a fake adapter whose baseline reason holds escape sequences',
  adapterCmd: 'node tests/fakes/fake-adapter.mjs misorder',
  filters: { cases: ['surf-order-chain-fold'] },
  baseline: { adapter: 'fake-misorder', failures: [{ id: 'surf-order-chain-fold', reason: 'SURF-6: listed\u001b]0;T\u0007' }] },
})

registerConformanceSuite({
  name: 'an adapter that cannot start, its stderr holding escape sequences',
  adapterCmd: `node -e 'process.stderr.write(${JSON.stringify('evil\u001b[2J\n')}); process.exit(3)'`,
  filters: { cases: ['surf-order-append-only-surface'] },
})

registerConformanceSuite({
  name: 'an adapter that claims a profile holding escape sequences',
  adapter: { meta: { name: 'claims', version: '1', language: 'js', profiles: ['reader\u001b[2J'] }, operations: {} } as never,
  filters: { cases: ['surf-order-append-only-surface'] },
})
