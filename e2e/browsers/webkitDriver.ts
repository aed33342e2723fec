import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { findBrowser } from './browsers.mjs';
import { forget, stopOnExit } from './cleanup';
import type { BrowserDriver } from './driver';

/** W3C WebDriver's key for an element reference (https://w3c.github.io/webdriver/#elements). */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
/** A loaded 2-core machine can take a while to start Xvfb, the driver and MiniBrowser. */
const START_TIMEOUT = 60_000;
const COMMAND_TIMEOUT = 90_000;

/**
 * Starts `command` in a process group of its own, so that stopping it also stops what it starts
 * (WebKitWebDriver starts MiniBrowser, which starts WebKit's web and network processes).
 */
const startGroup = (command: string, args: string[], options: { env?: NodeJS.ProcessEnv; extraFd?: boolean } = {}) => {
  const child = spawn(command, args, {
    detached: true,
    env: options.env ?? process.env,
    stdio: options.extraFd ? ['ignore', 'ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid) stopOnExit(child.pid, { group: true });
  let stopped = false;
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
  // A child that could not start emits 'error' and no 'exit'.
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const stop = async () => {
    const pid = child.pid;
    if (!pid || stopped) return;
    stopped = true;
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pid, name);
      } catch {
        // The group is gone.
      }
    };
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    // Whatever the leader left behind in its group.
    signal('SIGKILL');
    forget(pid);
  };
  return { child, exited, stop, output: () => output };
};

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });

/** Xvfb picks a free display itself and writes its number to `-displayfd`: no guessing, no clash. */
const startXvfb = async (xvfb: string) => {
  const server = startGroup(xvfb, ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { extraFd: true });
  const display = new Promise<string>((resolve, reject) => {
    let text = '';
    (server.child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      text += chunk;
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    server.exited.then(() => reject(new Error('Xvfb exited before it opened a display')));
  });
  try {
    return { server, display: await withTimeout(display, START_TIMEOUT, 'starting Xvfb') };
  } catch (error) {
    await server.stop();
    throw error;
  }
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One W3C WebDriver command over HTTP; the answer's `value`, or an error naming WebDriver's. */
const command = async <T>(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(COMMAND_TIMEOUT),
  });
  const answer = (await response.json()) as { value: T & { error?: string; message?: string } };
  if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${answer.value.error}: ${answer.value.message}`);
  return answer.value;
};

/** Starts WebKitWebDriver on a free port and waits until it answers `/status`. */
const startDriver = async (driver: string, display: string) => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const process_ = startGroup(driver, [`--port=${port}`, '--host=127.0.0.1'], { env: { ...process.env, DISPLAY: display } });
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + START_TIMEOUT;
    let gone = false;
    process_.exited.then(() => (gone = true));
    while (!gone && Date.now() < deadline) {
      try {
        const status = await command<{ ready: boolean }>(base, 'GET', '/status');
        if (status.ready) return { process: process_, base };
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
    await process_.stop();
    // The free port may have been taken between our check and the driver's bind: try another.
    if (!gone || attempt >= 3) throw new Error(`WebKitWebDriver did not start: ${process_.output()}`);
  }
};

/**
 * WebKitGTK's MiniBrowser under a private Xvfb display, driven by WebKitWebDriver (classic W3C
 * WebDriver over HTTP) with a client of a few lines: Debian has no headless WebKitGTK, and
 * Playwright's WebKit is a build of its own that cannot be downloaded here.
 *
 * @example
 * const webkit = await launchWebKit();
 * try {
 *   await webkit.goto('https://127.0.0.1:8443/shop');
 * } finally {
 *   await webkit.close();
 * }
 */
export const launchWebKit = async (): Promise<BrowserDriver> => {
  const { driver, miniBrowser, xvfb } = findBrowser('webkit') as { driver: string; miniBrowser: string; xvfb: string };
  const stops: Array<() => Promise<void>> = [];
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  try {
    const x = await startXvfb(xvfb);
    stops.push(x.server.stop);
    const webDriver = await startDriver(driver, x.display);
    stops.push(webDriver.process.stop);
    const { base } = webDriver;
    const session = await command<{ sessionId: string; capabilities: { browserVersion: string } }>(base, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          browserName: 'MiniBrowser',
          // The pages and the collector use a self-signed certificate (the fixtures were captured so).
          acceptInsecureCerts: true,
          'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] },
        },
      },
    });
    const path = `/session/${session.sessionId}`;
    // Ending the session first lets WebKitWebDriver close MiniBrowser itself; the group kill is the backstop.
    stops.push(async () => void (await command(base, 'DELETE', path).catch(() => undefined)));
    const run = <T>(body: string) => command<T>(base, 'POST', `${path}/execute/sync`, { script: body, args: [] });
    return {
      name: 'webkit',
      version: session.capabilities.browserVersion,
      userAgent: await run<string>('return navigator.userAgent'),
      goto: async (url) => void (await command(base, 'POST', `${path}/url`, { url })),
      click: async (selector) => {
        const element = await command<Record<string, string>>(base, 'POST', `${path}/element`, { using: 'css selector', value: selector });
        await command(base, 'POST', `${path}/element/${element[ELEMENT]}/click`, {});
      },
      // WebDriver awaits a returned promise (https://w3c.github.io/webdriver/#execute-script).
      evaluate: run,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};
