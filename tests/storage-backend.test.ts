// examples/storage-backend: the README's adapter for a storage backend claims `storage` and passes its
// cases; a backend that loses what STORE-2 says it keeps, or an adapter that stores without the domain
// check of STORE-4, fails the cases that show it.
import { describe, expect, it } from 'vitest'
import { runSuite } from '../conformance/suite.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'
import type { Adapter } from '../conformance/adapter.ts'
import { storageAdapter, textStore, type SessionStore } from '../examples/storage-backend/adapter.ts'
import { copiedByAssignment } from './known-bad/wrap.ts'

const cases = loadVectorCases()
const storageCases = cases.filter(vector => vector.profile === 'storage').map(vector => vector.id)
const refusalCases = storageCases.filter(id => id.startsWith('store-refuse-'))

async function notPassed(adapter: Adapter): Promise<string[]> {
  const outcomes = await runSuite(adapter, cases.filter(vector => vector.profile === 'storage'))
  return outcomes.filter(outcome => outcome.status !== 'pass').map(outcome => outcome.id)
}

/** A backend whose read copies objects member by member: `copy.__proto__ = …` sets the prototype instead. */
function storeCopyingByAssignment(): SessionStore {
  const inner = textStore()
  return { ...inner, open: () => ({ ...inner.open(), events: inner.open().events.map(copiedByAssignment) }) }
}

/** A backend that drops every event's `ignorable` (ENV-12, STORE-2). */
function storeDroppingIgnorable(): SessionStore {
  const inner = textStore()
  return { ...inner, append: batch => inner.append(batch.map(event => ({ ...(event as object), ignorable: undefined }))) }
}

/** A backend that keeps each batch under a name numbered without leading zeros and reads them back by name. */
function storeSortingBatchNames(): SessionStore {
  const inner = textStore()
  const named = new Map<string, readonly unknown[]>()
  return {
    ...inner,
    append: batch => named.set(`batch-${named.size + 1}`, batch),
    open: () => ({ header: inner.open().header, events: [...named.keys()].sort().flatMap(name => [...named.get(name)!]) }),
  }
}

/** A backend whose text library normalizes (NFKC) every string it keeps, member names included. */
function storeNormalizingStrings(): SessionStore {
  const normalized = (value: unknown): unknown => JSON.parse(JSON.stringify(value).normalize('NFKC'))
  const inner = textStore()
  return { create: header => inner.create(normalized(header)), append: batch => inner.append(batch.map(normalized)), open: inner.open }
}

/** A text store that also lists every batch it was asked to append, for a look after a refusal. */
function recordingStore(appended: unknown[][]): () => SessionStore {
  return () => {
    const inner = textStore()
    return { ...inner, append: batch => { appended.push([...batch]); inner.append(batch) } }
  }
}

describe('examples/storage-backend', () => {
  it('has storage cases to run, refusals among them', () => {
    expect(storageCases.length).toBeGreaterThan(10)
    expect(refusalCases.length).toBeGreaterThan(3)
  })

  it('passes every storage case and claims no other profile', async () => {
    const outcomes = await runSuite(storageAdapter(textStore), cases)
    expect(outcomes.filter(outcome => outcome.status === 'pass').map(outcome => outcome.id)).toEqual(storageCases)
    expect(outcomes.filter(outcome => outcome.status === 'skip').length).toBe(cases.length - storageCases.length)
  }, 60_000)

  it('fails the member-name case when the backend copies objects by assignment', async () => {
    expect(await notPassed(storageAdapter(storeCopyingByAssignment))).toEqual(['store-member-names-and-data-types'])
  })

  it('fails every case with an ignorable event when the backend drops that member', async () => {
    expect(await notPassed(storageAdapter(storeDroppingIgnorable))).toEqual([
      'store-chunks-with-members-a-row-does-not-carry', 'store-member-names-hard-strings', 'store-member-names-like-methods',
      'store-long-strings', 'store-member-named-dsh', 'store-batches-chunks-ignorable', 'store-hard-strings', 'store-hard-numbers', 'store-member-names-and-data-types',
      'store-deep-nesting', 'store-host-objects-read-back-plain', 'store-strings-not-normalized', 'store-null-members-and-cwd-as-written',
    ])
  })

  it('fails the many-batch case when the backend reads its batches back in the order of their names as text', async () => {
    expect(await notPassed(storageAdapter(storeSortingBatchNames))).toEqual(['store-many-batches-in-order'])
  })

  it('fails the normalization case when the backend normalizes its strings', async () => {
    expect(await notPassed(storageAdapter(storeNormalizingStrings))).toEqual(['store-strings-not-normalized'])
  })

  it('fails the refusal cases when the adapter stores without the domain check', async () => {
    const unchecked: Adapter = {
      meta: { name: 'unchecked', version: '0', language: 'typescript', profiles: ['storage'] },
      operations: {
        store: input => {
          const store = textStore()
          store.create(input['header'])
          for (const batch of input['batches'] as unknown[][]) store.append(batch)
          return { ok: true, value: store.open() }
        },
      },
    }
    const failing = await notPassed(unchecked)
    expect(failing.filter(id => id.startsWith('store-refuse-'))).toEqual(refusalCases)
  })

  it('appends nothing of a refused batch, and keeps the batches before it (STORE-4)', async () => {
    const appended: unknown[][] = []
    const first = [{ type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } }]
    const refused = [{ type: 'acme/x', seq: 1, time: 1001, ignorable: true, data: 1 }, { type: 'acme/x', seq: 2, time: 1002, ignorable: true, data: Number.NaN }]
    const result = await storageAdapter(recordingStore(appended)).operations.store!({ header: { version: 0, id: 's', createdAt: 1000 }, batches: [first, refused] })
    expect(result).toMatchObject({ ok: false, error: { code: 'JSON_NON_FINITE', seq: 2 } })
    expect(appended).toEqual([first])
  })

  it('stores what it checked: an accessor is read once', async () => {
    let reads = 0
    const record = { type: 'acme/x', seq: 0, time: 1000, ignorable: true, get data() { reads += 1; return reads } }
    const result = await storageAdapter(textStore).operations.store!({ header: { version: 0, id: 's', createdAt: 1000 }, batches: [[record]] })
    expect(result).toMatchObject({ ok: true, value: { events: [{ data: 1 }] } })
    expect(reads).toBe(1)
  })

  it('reports a delegationDepth read back as null as null, not as 0 (canonicalStoredHeader)', async () => {
    const nulling = (): SessionStore => {
      const inner = textStore()
      return { ...inner, open: () => ({ ...inner.open(), header: { ...(inner.open().header as object), delegationDepth: null } }) }
    }
    const result = await storageAdapter(nulling).operations.store!({ header: { version: 0, id: 's', createdAt: 1000 }, batches: [[{ type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } }]] })
    expect(result).toMatchObject({ ok: true, value: { header: { delegationDepth: null } } })
  })
})
