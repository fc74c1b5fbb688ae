// For running the MCP conformance suite by hand (docs/mcp.md), whose client sends no credentials:
//   node auth-proxy.mjs TARGET_URL TOKEN_FILE
// listens on a free loopback port, prints its URL, and forwards every request to TARGET_URL with
// Authorization: Bearer <the token of TOKEN_FILE> added, the other headers (Host, Origin) unchanged.
// Serves until killed.
import http from 'node:http';
import { readFileSync } from 'node:fs';
const [target, tokenFile] = process.argv.slice(2);
const token = readFileSync(tokenFile, 'utf8').trim();
const upstream = new URL(target);
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  forward.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  req.pipe(forward);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}${upstream.pathname}`));
