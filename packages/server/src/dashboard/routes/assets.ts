import { bytes } from '../../http/reply.js';
import type { AppRoute } from '../../routes/app-context.js';
import { DASHBOARD_SCRIPT } from '../dashboard-script.js';
import { DASHBOARD_CSS } from '../dashboard-styles.js';
import { ASSET_PATH } from '../layout.js';

/** A file every page loads: served without a session (it holds no data), and checked again on each use. */
const asset = (name: string, body: string, type: string): AppRoute => ({
  method: 'GET',
  path: `${ASSET_PATH}/${name}`,
  auth: false,
  handle: () => bytes(body, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }),
});

/** `GET /dashboard-assets/dashboard.css`: the one stylesheet. */
export const stylesheetRoute = asset('dashboard.css', DASHBOARD_CSS, 'text/css');

/** `GET /dashboard-assets/dashboard.js`: the one script. */
export const scriptRoute = asset('dashboard.js', DASHBOARD_SCRIPT, 'text/javascript');
