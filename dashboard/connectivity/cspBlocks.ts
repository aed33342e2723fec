/**
 * Watches this page's CSP violations (`securitypolicyviolation`, CSP3 section 5.3) while the
 * connectivity check runs, so that a request the dashboard's own policy refused is named as such
 * rather than as a network error. The event is queued as a task of its own, in no set order with
 * fetch's rejection: `blocked` waits one task before it answers.
 *
 * @example
 * const watch = cspBlocks(document);
 * await watch.blocked('https://in.example/api/test-connectivity'); // true if connect-src refused it
 * watch.stop();
 */
export const cspBlocks = (target: Pick<Document, 'addEventListener' | 'removeEventListener'>) => {
  const origins = new Set<string>();
  const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);
  const listener = (event: Event) => origins.add(originOf((event as SecurityPolicyViolationEvent).blockedURI));
  target.addEventListener('securitypolicyviolation', listener);
  return {
    blocked: (url: string) => new Promise<boolean>((resolve) => setTimeout(() => resolve(origins.has(originOf(url))), 50)),
    stop: () => target.removeEventListener('securitypolicyviolation', listener),
  };
};
