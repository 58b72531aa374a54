// The decodeJsonl probe over the artifact stored as zstd frames (conformance/fuzz/zstd-frames.ts): one
// plan in four, half of them torn inside their last frame. Intact frames hold exactly the raw bytes
// (the zstd tool, where installed, agrees), so the reference decodes them as it decodes the raw text;
// a torn one keeps a prefix of the events (JSONL-15), or is damage when the complete frames end inside a
// line (JSONL-14).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { fuzz } from '../../conformance/fuzz/driver.ts'
import { reference } from '../../reference/index.ts'
import { asZstdFrames, rawFrame } from '../../conformance/fuzz/zstd-frames.ts'
import { hasZstdTool } from '../check/support.ts'

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}\n'
const lines = Array.from({ length: 40 }, (_, seq) => `{"type":"turn/start","seq":${seq},"time":${seq},"data":{"turn":${seq + 1}}}\n`)
const RAW = Buffer.from(HEADER + lines.join(''))

const framedBySeed = Array.from({ length: 400 }, (_, seed) => asZstdFrames(RAW, seed))

type Decoded = { ok: true; value: { header: unknown; events: unknown[]; tornTail: { offset: number } | null } } | { ok: false; error: { code: string; line?: number } }
const decode = (artifact: Buffer): Decoded => reference.decodeJsonl({ encoding: 'zstd', base64: artifact.toString('base64') }) as Decoded
const raw = reference.decodeJsonl({ text: RAW.toString('utf8') }) as Decoded & { ok: true }
const framed = framedBySeed.filter((artifact) => artifact !== undefined).map(decode)
const torn = framed.filter((decoded) => !decoded.ok || decoded.value.tornTail !== null)

describe('the zstd frames of the decodeJsonl probe', () => {
  it('frame one plan in four, and tear half of them', () => {
    expect(framed.length).toBeGreaterThan(70)
    expect(framed.length).toBeLessThan(130)
    expect(torn.length).toBeGreaterThan(framed.length / 4)
    expect(torn.length).toBeLessThan((framed.length * 3) / 4)
  })

  it('hold the raw bytes, which the reference decodes alike, when intact', () => {
    expect(raw.ok).toBe(true)
    const intact = framed.filter((decoded) => !torn.includes(decoded))
    expect(intact.length).toBeGreaterThan(0)
    for (const decoded of intact) expect(decoded).toEqual(raw)
  })

  it('torn, keep a prefix of the events with a torn tail, or are damage when the complete frames end inside a line (JSONL-14, JSONL-15)', () => {
    const kept = torn.filter((decoded) => decoded.ok)
    const damaged = torn.filter((decoded) => !decoded.ok)
    expect(kept.length).toBeGreaterThan(0)
    expect(damaged.length).toBeGreaterThan(0)
    for (const decoded of kept) {
      if (!decoded.ok) continue
      expect(decoded.value.header).toEqual(raw.value.header)
      expect(raw.value.events.slice(0, decoded.value.events.length)).toEqual(decoded.value.events)
    }
    for (const decoded of damaged) expect(decoded).toMatchObject({ ok: false, error: { code: 'JSONL_FRAME_INVALID' } })
  })

  it.skipIf(!hasZstdTool)('are frames the zstd tool decompresses to the same bytes, an empty one and one of two blocks among them', () => {
    const contents = [Buffer.alloc(0), RAW, Buffer.alloc(300_000, 0x61)]
    for (const content of contents) {
      const result = spawnSync('zstd', ['-d', '-c', '-q'], { input: rawFrame(content), maxBuffer: 1 << 24 })
      expect(result.status, String(result.stderr)).toBe(0)
      expect(result.stdout.equals(content)).toBe(true)
    }
  })
})

describe('a decoder whose torn zstd frame recovers nothing (planted)', () => {
  it('is found by the fuzz through these probes, as a class of their own', async () => {
    const decodeJsonl: NonNullable<Adapter['operations']['decodeJsonl']> = async (input, context) => {
      const result = await referenceAdapter.operations.decodeJsonl!(input, context) as Decoded
      if (input['encoding'] !== 'zstd' || !result.ok || result.value.tornTail === null) return result
      return { ok: true, value: { ...result.value, events: result.value.events.slice(0, -1) } }
    }
    const planted: Adapter = { meta: { name: 'torn-frame-dropped', version: '0', language: 'typescript', profiles: ['jsonl'] }, operations: { decodeJsonl } }
    const outDir = mkdtempSync(join(tmpdir(), 'zstd-frames-'))
    try {
      const report = await fuzz(planted, { runs: 60, seed: 1, outDir, maxEvents: 30 })
      expect(report.findings.map((finding) => finding.signature)).toEqual(['decodeJsonl: reference accepts, adapter differs at $.events[] (zstd frames)'])
    } finally {
      rmSync(outDir, { recursive: true, force: true })
    }
  })
})
