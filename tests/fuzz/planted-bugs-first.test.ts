// The differential fuzzer finds the planted bug of the runner's misordering fake (over the subprocess
// protocol) and of the known-bad adapters of the first and second reviews (in process), shrinks each to
// a small log, and writes a vector that fails the buggy adapter and passes the reference when the
// runner replays it. Those of the later reviews: planted-bugs-later.test.ts.
import { describe, expect, it, onTestFinished } from 'vitest'
import { fuzz } from '../../conformance/fuzz/driver.ts'
import { BOOLEAN_BOUNDARY_VARIANT, NEGATIVE_ZERO_BOUNDARY_VARIANT, NON_NUMBER_BOUNDARY_VARIANT } from '../../conformance/fuzz/fork-boundary.ts'
import { OUTSIDE_HDR_1_VARIANT } from '../../conformance/fuzz/header-pairs.ts'
import { ARTIFACT_TEXT_VARIANT } from '../../conformance/fuzz/artifact-text.ts'
import { STORED_ROW_VARIANT } from '../../conformance/fuzz/stored-rows.ts'
import { UNCLOSEABLE_CALL_ID_VARIANT } from '../../conformance/fuzz/uncloseable-call-ids.ts'
import { END_SEED_IN_TURN_VARIANT, ENTRY_UNDEFINED_VARIANT } from '../../conformance/fuzz/compaction-entries.ts'
import { STORE_HEADER_UNDEFINED_VARIANT, UNDEFINED_MEMBERS_VARIANT } from '../../conformance/fuzz/input-members.ts'
import { startSubprocessAdapter } from '../../conformance/subprocess-adapter.ts'
import { projectRoot } from '../../conformance/vector-cases.ts'
import { describePlantedBugs, expectCaught, tempFolder, type PlantedBug } from './planted-bugs.ts'

describe('the misordering fake adapter (subprocess)', () => {
  it('is caught folding a replacement to the tail, with a vector of at most four events', async () => {
    const adapter = await startSubprocessAdapter('node tests/fakes/fake-adapter.mjs misorder', { cwd: projectRoot, timeoutMs: 5000 })
    onTestFinished(() => adapter.close?.())
    const outDir = tempFolder()
    const report = await fuzz(adapter, { runs: 40, seed: 1, outDir, maxEvents: 60 })
    expect(report.operations).toEqual(['surface'])
    const misordered = report.findings.find(finding => finding.reference === 'accepts' && finding.adapter === 'differs at $.nodes[]')
    await expectCaught(adapter, misordered, outDir, 4)
    expect(misordered!.vector!.file).toMatch(/^05-surface\//)
  })
})

const PLANTED: readonly PlantedBug[] = [
  ['ignorable-ignored', 'load'],
  ['provenance-coverage-unchecked', 'load'],
  ['record-line-on-rejections', 'load'],
  ['empty-assistant-derived', 'messages'],
  ['header-fold-merges', 'requestHeader'],
  ['header-fold-kept-by-length', 'requestHeader', OUTSIDE_HDR_1_VARIANT],
  ['header-equality-empty-stop-absent', 'headerEquals'],
  ['relations-stop-at-first', 'relations'],
  ['repair-closes-step-first', 'repair'],
  ['fork-inside-open-turn', 'fork'],
  ['fork-negative-zero-boundary', 'fork', NEGATIVE_ZERO_BOUNDARY_VARIANT],
  ['row-first-member-only', 'decodeJsonl'],
  ['torn-tail-kept', 'decodeJsonl'],
  ['row-negative-zero-as-zero', 'decodeJsonl', STORED_ROW_VARIANT],
  // Found since the generator draws call ids a plain object inherits, strings that normalize alike and
  // members named `__proto__`.
  ['pending-calls-in-plain-object', 'relations'],
  ['header-equality-normalized', 'headerEquals'],
  ['messages-copied-by-assign', 'messages'],
  // Found since the artifactPath probe asks for ids JSONL-2 escapes (session-ids.ts).
  ['artifact-path-by-code-point', 'artifactPath'],
  // Found since the generators leave calls unanswered, repeat and reuse call ids, and draw the pairing,
  // crash-tail and veto operators; since headers carry unknown members, resumes a clock behind, brackets
  // compact notices; and since the region, row and chunk edits of the probes.
  ['results-paired-across-steps', 'relations'],
  ['step-end-keeps-pending', 'relations'],
  ['not-started-on-error-code-alone', 'relations'],
  ['vetoed-end-not-between', 'relations'],
  ['repair-step-end-by-number', 'repair'],
  ['compaction-stale-by-time', 'compactionState'],
  ['compaction-owner-highest-turn', 'compactionState'],
  ['fork-header-from-source', 'fork'],
  ['region-unsafe-edge-carried', 'regionBalance'],
  ['region-call-ids-counted-once', 'regionBalance'],
  ['row-times-checked-at-ends', 'decodeJsonl', STORED_ROW_VARIANT],
  ['row-nulls-as-zero-values', 'decodeJsonl', STORED_ROW_VARIANT],
  ['torn-tail-turn-end-in-text', 'decodeJsonl'],
  ['encode-chunk-members-in-one-order', 'encodeJsonl'],
  ['append-rewrite-equal-by-keys', 'append'],
  // Found since the repair and resume probes cut logs inside a turn with calls no closer can carry.
  ['repair-names-last-bad-closer', 'repair', UNCLOSEABLE_CALL_ID_VARIANT],
  // Found since half the bad citations drawn are booleans.
  ['boolean-citation-as-number', 'load'],
  // From the compactionState review: found through the logs of old (end-seeds, crashes, summary-range-
  // strings), since the generator now and then writes a checkpoint of the wrong kind, and since the
  // probe is given an entry of undefined and logs ended by an end-seed inside a turn.
  ['compaction-checkpoint-by-plugin-alone', 'compactionState'],
  ['compaction-stale-against-first-end-seed', 'compactionState'],
  ['compaction-summary-needs-shape', 'compactionState'],
  ['compaction-unmatched-by-any-type', 'compactionState'],
  ['compaction-end-seed-closes-turn', 'compactionState', END_SEED_IN_TURN_VARIANT],
  ['compaction-entry-by-key', 'compactionState', ENTRY_UNDEFINED_VARIANT],
  // From the fork and artifactPath reviews: found since those probes are given optional members as
  // undefined, forks an early now and a boolean boundary, and artifactPath more ids JSONL-2 escapes.
  ['fork-boundary-bool-is-int', 'fork', BOOLEAN_BOUNDARY_VARIANT],
  ['fork-session-id-by-key', 'fork', UNDEFINED_MEMBERS_VARIANT],
  ['fork-header-by-key', 'fork', UNDEFINED_MEMBERS_VARIANT],
  ['fork-created-at-not-before-source', 'fork'],
  ['fork-marker-time-not-before-last', 'fork'],
  ['path-cwd-by-key', 'artifactPath', UNDEFINED_MEMBERS_VARIANT],
  ['path-encoding-undefined-zstd', 'artifactPath', UNDEFINED_MEMBERS_VARIANT],
  ['path-unicode-case-fold', 'artifactPath'],
  ['path-segment-cut', 'artifactPath'],
  ['path-extra-punctuation-kept', 'artifactPath'],
  // Found since some generated headers have a cwd with a `..` segment and a trailing slash, and the
  // lossless-domain operators put their value in a record's seq too, and store is given an undefined header.
  ['store-cwd-normalized', 'store'],
  ['store-negative-zero-seq-usable', 'store'],
  ['store-header-made-up', 'store', STORE_HEADER_UNDEFINED_VARIANT],
  // Found since some generated text deltas carry a member ROW-5 does not name.
  ['store-pack-drops-extra-members', 'store'],
  // From the review of the views; the last six found since some stored headers hold members at HDR-1's
  // edges, some contexts members holding 0 and null, and some messages edits (message-edits.ts).
  ['views-header-reset-at-turn-end', 'requestHeader'],
  ['views-header-reset-at-end-seed', 'requestContext'],
  ['views-messages-merge-tool-results', 'messages'],
  ['views-messages-merge-user-after-result', 'messages'],
  ['views-messages-shadow-seq-interval', 'messages'],
  ['views-config-omits-empty', 'requestHeader', OUTSIDE_HDR_1_VARIANT],
  ['views-tools-typed', 'requestHeader', OUTSIDE_HDR_1_VARIANT],
  ['views-tools-by-name', 'requestHeader', OUTSIDE_HDR_1_VARIANT],
  ['views-context-omits-empty', 'requestContext'],
  ['views-messages-shadow-sources', 'messages'],
  ['views-messages-omit-null', 'messages'],
  // From the review of surface: found since one surface window in eight is the empty one past the log,
  // and the operator rewrite-changes-loosely.
  ['surface-window-empty-rejected', 'surface'],
  ['rewrite-error-by-name-and-code', 'load'],
  ['rewrite-absent-turn-as-zero', 'load'],
  ['rewrite-strings-normalized', 'load'],
  ['rewrite-strings-lossy', 'load'],
  // From the review of repair and resume: the last three found since the crash-tail edits
  // (crash-tails.ts) append a step/start after a closed turn, end a cut log with a marker, or follow a
  // marker with an ignorable event.
  ['repair-time-of-last-non-ignorable', 'repair'],
  ['resume-marker-after-last-turn-end', 'resume'],
  ['resume-without-header', 'resume'],
  ['repair-closes-an-open-step-without-a-turn', 'repair'],
  ['repair-end-seed-forgets-calls', 'repair'],
  ['resume-marker-skips-trailing-ignorable', 'resume'],
  // And five since crash-tails.ts cuts a log after a step/end before marking its boundaries ignorable,
  // and after an assistant message with calls before ending it with a step/end, result or tool/call of
  // the next step, or replacing its step/start.
  ['repair-skips-ignorable-events', 'repair'],
  ['repair-step-end-forgets-its-step-only', 'repair'],
  ['repair-result-answers-its-step-only', 'repair'],
  ['repair-call-starts-its-step-only', 'repair'],
  ['repair-results-only-in-an-open-step', 'repair'],
  // And one since one probe in eight of the operations that take a vocabulary ends its log with a
  // type v0-rc8 adds (vocabulary-growth.ts).
  ['repair-resume-default-vocabulary', 'repair'],
  // From the second reviews of relations and jsonl: the six of their twenty known-bads the fuzzer finds
  // (through the lookalike call ids, the compaction-id operators' empty sourceCommandId and summary of
  // another bracket, a step mismatch on a chunk, and a __proto__ member in what encodeJsonl writes).
  ['chunk-compares-turn-only', 'relations'],
  ['pending-nfc-normalize', 'relations'],
  ['pending-plain-object', 'relations'],
  ['cmd-id-empty-ok', 'relations'],
  ['summary-id-unchecked', 'relations'],
  ['enc-proto-lost', 'encodeJsonl'],
  // And six more since one decodeJsonl probe in four of those the stored-row edit leaves reads an
  // artifact text no writer writes (artifact-text.ts).
  ['json-trailing-comma-ok', 'decodeJsonl', ARTIFACT_TEXT_VARIANT],
  ['crlf-blank-line-skipped', 'decodeJsonl', ARTIFACT_TEXT_VARIANT],
  ['tail-whitespace-ignored', 'decodeJsonl', ARTIFACT_TEXT_VARIANT],
  ['header-type-optional', 'decodeJsonl', ARTIFACT_TEXT_VARIANT],
  ['header-createdAt-negzero-ok', 'decodeJsonl', ARTIFACT_TEXT_VARIANT],
  ['row-time0-negative-rejected', 'decodeJsonl', ARTIFACT_TEXT_VARIANT],
  // From the second review of the writer: the two of its seventeen known-bads the fuzzer finds (a result
  // that answers no call, a reason with a member its kind does not have).
  ['pair-enforced-on-append', 'append'],
  ['turn2-interrupted-extra-ok', 'append'],
  // And seven relations ones since one relations probe in four reads a valid log edited where a port's
  // checks are looser (relation-edits.ts).
  ['call-compares-step-only', 'relations'],
  ['result-compares-step-only', 'relations'],
  ['step-end-compares-step-only', 'relations'],
  ['comp-id-normalized', 'relations'],
  ['summary-tokens-isinteger', 'relations'],
  ['comp-data-unguarded', 'relations'],
  ['owner-vs-last-turn', 'relations'],
  // And one since one encodeJsonl probe in four empties every third chunk's delta (chunk-deltas.ts).
  ['enc-empty-text-unpackable', 'encodeJsonl'],
  // And ten writer ones since one append probe in four over a valid log edits its candidate where a
  // writer's check is looser or stricter than the spec's (candidate-edits.ts).
  ['time-falsy-default', 'append'],
  ['msg-assistant-provider-optional', 'append'],
  ['msg-tool-block-content-unchecked', 'append'],
  ['msg-toolcallid-missing-ok', 'append'],
  ['turn1-step-bool-as-int', 'append'],
  ['turn2-turn-bool-as-int', 'append'],
  ['turn2-kind-nonempty', 'append'],
  ['hdr-flag-config-truthy', 'append'],
  ['legacy-trigger-null-skipped', 'append'],
  ['legacy-fallback-any-type', 'append'],
  // And one the mutation operators reached in 3 of the first 40 seeds (a log-only marker that is a
  // malformed replace, one draw among many), and 10 since one load probe in four over a valid log gives
  // one event two surface faults at once (surface-check-order.ts).
  ['surface-grammar-before-eligibility', 'load'],
  // And one since a crash-tail edit cuts the log after an assistant message with calls that names the
  // next turn (crash-tails.ts).
  ['repair-result-turn-from-message', 'repair'],
  // And one since the append probe's rewrites whose call id an earlier result shares are also made of
  // any result still on the surface, not only of the rewrites a log holds (shared-call-id.ts).
  ['append-rewrite-original-by-call-id', 'append'],
  // And two since a candidate edit, once drawn, takes any of the log's events it applies to, not only
  // the one the plan would append (candidate-edits.ts): tool/calls and request headers are rare there.
  ['turn1-callid-empty-ok', 'append'],
  ['hdr-adapter-defaults-null-absent', 'append'],
  // From the second views review: three since the headerEquals pairs hold a null flag beside a true
  // one, a provider in other letter case and a tool member holding null (header-pairs.ts).
  ['header-equality-null-as-absent', 'headerEquals'],
  ['header-equality-case-insensitive', 'headerEquals'],
  ['header-equality-tool-nulls-omitted', 'headerEquals'],
  // And two more of the second reviews' since regionBalance's edges include booleans (region-edges.ts)
  // and one fork in eight is made at a now of 0 (input-members.ts).
  ['region-boolean-seq-as-number', 'regionBalance'],
  ['fork-now-zero-replaced', 'fork'],
  // And two since one fork probe in sixteen gets a boundary that is no number (fork-boundary.ts).
  ['fork-boundary-nan-accepted', 'fork', NON_NUMBER_BOUNDARY_VARIANT],
  ['fork-boundary-bigint-converted', 'fork', NON_NUMBER_BOUNDARY_VARIANT],
  // And one since the compaction probes read, one plan in four, a valid log with one known type's
  // events marked ignorable (ignorable-known.ts).
  ['compaction-ignorable-skipped', 'regionBalance'],
]

describePlantedBugs(PLANTED)
