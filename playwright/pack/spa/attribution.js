// The same app with vitals() from sitebeacon/attribution: LCP, INP and CLS carry their elements.
import { init, errors, csp } from 'sitebeacon';
import { vitals } from 'sitebeacon/attribution';
import { setting, startShop } from './shop.js';

init({
  siteKey: setting('site-key'),
  ingestOrigin: setting('ingest-origin'),
  capture: [errors(), csp(), vitals()],
});
startShop();
