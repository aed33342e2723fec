import { useEffect } from 'preact/hooks';

/**
 * The User Timing marks of the site page (bench/dashboard.mjs): its first screen (the site's name,
 * the activity chart and the error groups) is on screen, and every section is.
 */
export const SITE_RENDERED = 'sitebeacon:site-rendered';
export const SITE_COMPLETE = 'sitebeacon:site-complete';

/**
 * Sets the User Timing mark `name` once `ready` is true and the frame showing it has been produced:
 * the effect runs after Preact committed the DOM (uPlot draws its canvases in a microtask after
 * that), the animation frame is the frame that paints it, and the task queued from it runs after
 * that paint. What `npm run bench` measures "interactive" from (with the long tasks after it).
 *
 * @example
 * useRenderedMark(SITE_RENDERED, daily.state == 'ready' && groups.state == 'ready');
 */
export const useRenderedMark = (name: string, ready: boolean) => {
  useEffect(() => {
    if (!ready) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => performance.mark(name), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [name, ready]);
};
