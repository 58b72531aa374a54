import { readFileSync } from 'node:fs'
import { StreamingLoad } from '../conformance/check/streaming-load.ts'
import { RecordScanner } from '../conformance/check/record-scan.ts'
const buf = readFileSync(process.argv[2]!)
const lines: Buffer[] = []
for (let s = 0, f = buf.indexOf(10); f !== -1; s = f + 1, f = buf.indexOf(10, s)) lines.push(buf.subarray(s, f))
for (let rep = 0; rep < 3; rep++) { const t0 = performance.now()
const load = new StreamingLoad({ header: { version: 0, id: 'bench', createdAt: 1, delegationDepth: 0 }, sessionId: 'bench', vocabulary: 'v0-pinned' }); const sc = new RecordScanner((r, l) => load.line(r, l), 0); for (let i = 1; i < lines.length; i++) sc.judge(lines[i]!, i + 1, 0, 0, false); load.finish()
console.log(performance.now() - t0) }
