import { readFileSync } from 'node:fs'
import { scanLines } from '../reference/jsonl.ts'
import { decodeStorageRecord } from '../reference/chunk-rows.ts'
import { StreamingLoad } from '../conformance/check/streaming-load.ts'
import { RecordScanner } from '../conformance/check/record-scan.ts'
const buf = readFileSync(process.argv[2]!)
const lines: Buffer[] = []
for (let s = 0, f = buf.indexOf(10); f !== -1; s = f + 1, f = buf.indexOf(10, s)) lines.push(buf.subarray(s, f))
const header = JSON.parse(lines[0]!.toString())
const best = new Map<string, number>()
function time(name: string, fn: () => void) { const t0 = process.cpuUsage(); fn(); const d = process.cpuUsage(t0); const ms = (d.user + d.system) / 1000; best.set(name, Math.min(best.get(name) ?? Infinity, ms)) }
for (let rep = 0; rep < 5; rep++) {
time('parse', () => { for (let i = 1; i < lines.length; i++) JSON.parse(lines[i]!.toString()) })
time('parse+rows', () => { for (let i = 1; i < lines.length; i++) decodeStorageRecord(JSON.parse(lines[i]!.toString())) })
time('scanner only', () => { const sc = new RecordScanner(() => {}, 0); for (let i = 1; i < lines.length; i++) sc.judge(lines[i]!, i + 1, 0, 0, false) })
time('scanner+load', () => { const load = new StreamingLoad({ header: { version: 0, id: 'bench', createdAt: 1, delegationDepth: 0 }, sessionId: 'bench', vocabulary: 'v0-pinned' }); const sc = new RecordScanner((r, l) => load.line(r, l), 0); for (let i = 1; i < lines.length; i++) sc.judge(lines[i]!, i + 1, 0, 0, false); load.finish() })
}

console.log([...best].map(([k, v]) => `${k} ${v.toFixed(0)}`).join('\n'))
