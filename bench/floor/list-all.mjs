// The floor of `tasks list --all --jsonl`: a fresh node process that reads page 1, learns the
// count, fetches the other pages with 8 requests in flight (keep-alive) and prints every item as
// a JSON line in page order. Given a folder, it first reads every .md file in it (the least any
// `plan --dir` must do before its first request: plan's second floor).
// Usage: AGENTCTL_API_KEY=KEY node bench/floor/list-all.mjs LIST_URL [FOLDER]
import { readFileSync, readdirSync } from 'node:fs';
import { Agent, request } from 'node:http';

if (process.argv[3]) {
  const folder = process.argv[3];
  let bytes = 0;
  for (const name of readdirSync(folder)) if (name.endsWith('.md')) bytes += readFileSync(`${folder}/${name}`, 'utf8').length;
  if (bytes === 0) throw new Error(`no .md file in ${folder}`);
}

const PAGE_SIZE = 100;
const IN_FLIGHT = 8;
const agent = new Agent({ keepAlive: true });
const headers = { accept: 'application/json', 'x-api-key': process.env.AGENTCTL_API_KEY };

function page(n) {
  const url = new URL(process.argv[2]);
  url.searchParams.set('page', String(n));
  url.searchParams.set('page_size', String(PAGE_SIZE));
  return new Promise((resolve, reject) => {
    request(url, { headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks))) : reject(new Error(`HTTP ${res.statusCode}`))));
    }).on('error', reject).end();
  });
}

const print = (body) => process.stdout.write(body.results.map((item) => `${JSON.stringify(item)}\n`).join(''));
const first = await page(1);
print(first);
const pages = Math.ceil(first.count / PAGE_SIZE);
const pending = new Map();
let next = 2;
let printed = 2;
const start = () => {
  if (next > pages) return;
  const n = next++;
  pending.set(n, page(n));
};
for (let i = 0; i < IN_FLIGHT; i++) start();
while (printed <= pages) {
  const body = await pending.get(printed);
  pending.delete(printed++);
  print(body);
  start();
}
agent.destroy();
