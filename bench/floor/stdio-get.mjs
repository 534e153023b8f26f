// The floor of a tool call through a running `agentctl mcp`: a plain node:http script that stays
// up, reads one JSON line per call on stdin ({"id", "url"}), sends the GET through a kept-alive
// connection and writes the parsed body back as one JSON line ({"id", "result"}). The same hops as
// the MCP server (stdin, HTTP, stdout); what agentctl adds on top of this is its own cost.
// Usage: AGENTCTL_API_KEY=KEY node bench/floor/stdio-get.mjs
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';

const agent = new Agent({ keepAlive: true });
const headers = { accept: 'application/json', 'x-api-key': process.env.AGENTCTL_API_KEY };
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, url } = JSON.parse(line);
  request(url, { agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => {
      const result = JSON.parse(Buffer.concat(chunks).toString());
      process.stdout.write(`${JSON.stringify({ id, status: res.statusCode, result })}\n`);
    });
  }).end();
});
process.stdin.on('end', () => agent.destroy());
