// Drives the emulator's Video Restore feature and analytics through the service's official Node
// client (@api.video/nodejs-client): a video deleted, read, listed and restored as a discarded
// video; plays recorded through the control API, read back as an aggregated metric, a breakdown
// and a time series, with filters as the client serialises them. Checks that every answer has
// only members the client's models know.
//
// Usage: NODE_PATH=<dir>/node_modules node restore_and_analytics.js <emulator URL> <API key>
// (the emulator started with the Video Restore feature on)
// Prints one line per check that failed and a summary; exits 1 when any failed.
'use strict';

const ApiVideoClient = require('@api.video/nodejs-client');
const Video = require('@api.video/nodejs-client/lib/model/Video').default;
const Aggregated = require('@api.video/nodejs-client/lib/model/AnalyticsAggregatedMetricsResponse').default;
const AggregatedContext = require('@api.video/nodejs-client/lib/model/AnalyticsAggregatedMetricsResponseContext').default;
const Breakdown = require('@api.video/nodejs-client/lib/model/AnalyticsMetricsBreakdownResponse').default;
const BreakdownData = require('@api.video/nodejs-client/lib/model/AnalyticsMetricsBreakdownResponseData').default;
const OverTime = require('@api.video/nodejs-client/lib/model/AnalyticsMetricsOverTimeResponse').default;
const OverTimeData = require('@api.video/nodejs-client/lib/model/AnalyticsMetricsOverTimeResponseData').default;

const [baseUri, apiKey] = process.argv.slice(2);
const client = new ApiVideoClient({ apiKey, baseUri });
const http = client.httpClient;

let checks = 0;
const failures = [];
function check(what, ok, got) {
  checks++;
  if (!ok) failures.push(`${what}: ${JSON.stringify(got)}`);
}

function checkMembers(what, raw, model) {
  const known = model.getAttributeTypeMap().map((a) => a.baseName);
  const extra = Object.keys(raw).filter((k) => !known.includes(k));
  check(`${what}: members the client does not know`, extra.length === 0, extra);
}

async function raw(path) {
  const res = await http.call(path, { method: 'GET' });
  return JSON.parse(res.body);
}

async function expectError(what, promise, status, name) {
  try {
    await promise;
    check(`${what}: succeeded`, false, 'no error');
  } catch (e) {
    check(`${what}: status`, e.code === status, e.code);
    check(`${what}: name`, (e.problemDetails || {}).name === name, e.problemDetails);
  }
}

async function restore() {
  const v = await client.videos.create({ title: 'Discard me', tags: ['restore'] });
  await client.videos.delete(v.videoId);
  await expectError('video get after discard', client.videos.get(v.videoId), 404, 'videoId');
  const d = await client.videos.getDiscarded(v.videoId);
  check('discarded', d.discarded === true, d.discarded);
  check('discardedAt', d.discardedAt instanceof Date, d.discardedAt);
  check('deletesAt 90 days later', d.deletesAt - d.discardedAt === 90 * 86400 * 1000, [d.discardedAt, d.deletesAt]);
  checkMembers('discarded video', await raw(`discarded/videos/${v.videoId}`), Video);
  const list = await client.videos.listDiscarded({ title: 'Discard', tags: ['restore'] });
  check('discarded list', list.data.length === 1 && list.data[0].videoId === v.videoId, list.data.map((x) => x.videoId));
  await expectError('restore with true', client.videos.updateDiscarded(v.videoId, { discarded: true }), 400, 'discarded');
  const back = await client.videos.updateDiscarded(v.videoId, { discarded: false });
  check('restored', back.discarded === false && back.videoId === v.videoId, back);
  check('restored video', (await client.videos.get(v.videoId)).title === 'Discard me', v.videoId);
  await expectError('discarded get after restore', client.videos.getDiscarded(v.videoId), 404, 'videoId');
  return v;
}

async function recordPlays(body) {
  const res = await fetch(`${baseUri}/_emulator/plays`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  check(`record plays ${JSON.stringify(body)}`, res.status === 201, res.status);
}

async function analytics(v) {
  await recordPlays({ mediaId: v.videoId, country: 'FR', browser: 'firefox', count: 3 });
  await recordPlays({ mediaId: v.videoId, country: 'US', browser: 'chrome' });
  const plays = await client.analytics.getAggregatedMetrics({ metric: 'play', aggregation: 'count' });
  check('plays', plays.data === 4, plays);
  const fr = await client.analytics.getAggregatedMetrics({
    metric: 'play', aggregation: 'count', from: new Date(Date.now() - 3600 * 1000),
    filterBy: { country: ['FR'], browser: ['firefox', 'edge'], mediaId: [v.videoId], tag: 'restore' },
  });
  check('plays in France', fr.data === 3, fr);
  const a = await raw('data/metrics/play/count');
  checkMembers('aggregated', a, Aggregated);
  checkMembers('aggregated context', a.context, AggregatedContext);
  const b = await client.analytics.getMetricsBreakdown({ metric: 'play', breakdown: 'country', sortBy: 'metricValue', sortOrder: 'desc' });
  check('breakdown', b.data.length === 2 && b.data[0].dimensionValue === 'FR' && b.data[0].metricValue === 3, b.data);
  const rb = await raw('data/buckets/play/country');
  checkMembers('breakdown', rb, Breakdown);
  checkMembers('breakdown item', rb.data[0], BreakdownData);
  const t = await client.analytics.getMetricsOverTime({ metric: 'play', interval: 'hour' });
  check('time series', t.data.length === 1 && t.data[0].metricValue === 4, t.data);
  const rt = await raw('data/timeseries/play');
  checkMembers('time series', rt, OverTime);
  checkMembers('time series item', rt.data[0], OverTimeData);
  await expectError('aggregation of another metric', client.analytics.getAggregatedMetrics({ metric: 'start', aggregation: 'rate' }), 400, 'aggregation');
  await expectError('view duration', client.analytics.getAggregatedMetrics({ metric: 'play', aggregation: 'count', viewDuration: '5s' }), 400, 'viewDuration');
}

(async () => {
  const v = await restore();
  await analytics(v);
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`${checks} checks, ${failures.length} failed`);
  process.exit(failures.length === 0 ? 0 : 1);
})().catch((e) => {
  console.log(`FAIL unexpected error: ${e && e.code} ${JSON.stringify(e && e.problemDetails)} ${e && e.stack}`);
  process.exit(1);
});
