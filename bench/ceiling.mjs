// The physical ceiling for a Node collector on this machine: node:http that reads the body and
// answers 202, nothing else. Prints {"url": ...} on stdout, as `serve --json` does.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(202, { 'content-type': 'application/json' });
    res.end('{"status":"accepted","accepted":1}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
