import { spawn, type ChildProcess } from 'node:child_process';
import { lookup } from 'node:dns';
import { createInterface } from 'node:readline';
import type { ResolvedAddress, Resolver } from './resolveHost';

/**
 * The resolver process: one JSON request per line in, one JSON answer per line out. Each lookup is
 * getaddrinfo with every address in the system's order, or the error's code (ENOTFOUND, EAI_AGAIN).
 */
const SERVER = `const dns = require('node:dns');
process.stdout.write('ready\\n');
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, host } = JSON.parse(line);
  dns.lookup(host, { all: true, verbatim: true }, (error, addresses) =>
    process.stdout.write(JSON.stringify(error ? { id, code: error.code, message: error.message } : { id, addresses }) + '\\n'));
});`;

type Answer = { id: number; addresses?: ResolvedAddress[]; code?: string; message?: string };
type Waiter = { resolve: (addresses: ResolvedAddress[]) => void; reject: (error: Error) => void };

/** The lookup in this process, for when no child process can be started. */
const inProcess: Resolver = (hostname) =>
  new Promise((resolve, reject) => lookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * The system resolver, as the integrations on this machine use it: getaddrinfo, so `/etc/hosts`,
 * `/etc/resolv.conf` and nsswitch all count. It runs in a child process because a getaddrinfo call
 * cannot be cancelled: one left pending in this process's thread pool holds its exit until the
 * resolver gives up (10 s and more with glibc's defaults), past `--timeout` (spec section 8).
 * The child starts at once; `ready` resolves when it can answer, so that the dns step times the
 * lookup and not Node's start-up. A lookup aborted by its signal kills the child; `close()` too.
 *
 * @example
 * const system = createSystemResolver();
 * await system.ready;
 * const addresses = await system.resolver('collector.example', AbortSignal.timeout(20_000));
 * system.close();
 */
export const createSystemResolver = () => {
  let child: ChildProcess | undefined;
  const waiting = new Map<number, Waiter>();
  let nextId = 0;
  let ready!: Promise<boolean>;
  const stop = (reason: Error) => {
    child?.kill('SIGKILL');
    child = undefined;
    for (const waiter of waiting.values()) waiter.reject(reason);
    waiting.clear();
  };
  const start = () => {
    const started = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    child = started;
    started.stdin!.on('error', () => undefined);
    ready = new Promise<boolean>((resolve) => {
      started.once('error', () => resolve(false));
      started.once('exit', () => {
        resolve(false);
        if (child == started) stop(new Error('the resolver process ended'));
      });
      createInterface({ input: started.stdout! }).on('line', (line) => {
        if (line == 'ready') return resolve(true);
        let answer: Answer;
        try {
          answer = JSON.parse(line) as Answer;
        } catch {
          return;
        }
        const waiter = waiting.get(answer.id);
        waiting.delete(answer.id);
        if (answer.addresses) waiter?.resolve(answer.addresses.map(({ address, family }) => ({ address, family })));
        else waiter?.reject(Object.assign(new Error(answer.message ?? 'lookup failed'), { code: answer.code }));
      });
    });
  };
  start();
  const resolver: Resolver = async (hostname, signal) => {
    if (!child) start();
    if (!(await ready)) return inProcess(hostname, signal);
    return new Promise<ResolvedAddress[]>((resolve, reject) => {
      const id = nextId++;
      const onAbort = () => stop(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      const settle = () => signal.removeEventListener('abort', onAbort);
      waiting.set(id, {
        resolve: (addresses) => (settle(), resolve(addresses)),
        reject: (error) => (settle(), reject(error)),
      });
      signal.addEventListener('abort', onAbort, { once: true });
      child!.stdin!.write(`${JSON.stringify({ id, host: hostname })}\n`);
    });
  };
  return { resolver, ready: ready.then(() => undefined), close: () => stop(new Error('closed')) };
};
