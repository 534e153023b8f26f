// The floor of "one API call": a fresh node process that sends the same GET with node:http and
// prints the body. What agentctl adds on top of this is its own cost.
// Usage: AGENTCTL_API_KEY=KEY node bench/floor/get.mjs URL
import { request } from 'node:http';

const headers = { accept: 'application/json', 'x-api-key': process.env.AGENTCTL_API_KEY };
request(process.argv[2], { headers }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => {
    if (res.statusCode !== 200) {
      process.stderr.write(`HTTP ${res.statusCode}\n`);
      process.exitCode = 1;
    }
    process.stdout.write(Buffer.concat(chunks));
  });
}).end();
