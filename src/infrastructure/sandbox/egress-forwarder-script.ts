/**
 * The program that runs first inside a sandbox whose egress goes through the proxy (run as
 * `node -e EGRESS_FORWARDER_SCRIPT -- <socket> <argv...>`). The sandbox's network namespace has
 * only its own loopback, so this listens on a free port of that loopback, forwards every
 * connection to the proxy's Unix socket, and starts the real command with the proxy variables
 * set (upper and lower case, as curl, git, Python and Node's tools each read their own). It
 * exits with the command's status; the sandbox's PID namespace then ends everything else.
 */
export const EGRESS_FORWARDER_SCRIPT = `
'use strict';
const net = require('node:net');
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const [socketPath, program, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});
server.listen(0, '127.0.0.1', () => {
  const proxy = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env, NO_PROXY: '', no_proxy: '', NODE_USE_ENV_PROXY: '1' };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = proxy;
    env[name.toLowerCase()] = proxy;
  }
  const child = spawn(program, args, { stdio: 'inherit', env });
  child.on('error', (error) => {
    process.stderr.write('correx sandbox: cannot start ' + program + ': ' + error.message + '\\n');
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    process.exit(code !== null ? code : 128 + (constants.signals[signal] || 0));
  });
});
`;
