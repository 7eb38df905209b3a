// Drives the emulator through the service's official Node client (@api.video/nodejs-client),
// a stranger to this repository, and checks what it sends and what it understands of the
// answers: live streams and player themes, created, read, listed, updated and deleted; videos
// created, updated and uploaded (videos.upload in 5 MiB chunks, and a progressive session), their
// status, thumbnails, captions and chapters; upload tokens and uploads with them, watermarks and
// player logos; live stream thumbnails, video summaries and their sources, and tags.
//
// Usage: NODE_PATH=<dir>/node_modules node stranger.js <emulator URL> <API key>
// (run in a scratch directory: the generated files are written there)
// Prints one line per check that failed and a summary; exits 1 when any failed.
'use strict';

const ApiVideoClient = require('@api.video/nodejs-client');
const LiveStream = require('@api.video/nodejs-client/lib/model/LiveStream').default;
const PlayerTheme = require('@api.video/nodejs-client/lib/model/PlayerTheme').default;
const Pagination = require('@api.video/nodejs-client/lib/model/Pagination').default;
const Video = require('@api.video/nodejs-client/lib/model/Video').default;
const VideoStatusIngest = require('@api.video/nodejs-client/lib/model/VideoStatusIngest').default;
const Caption = require('@api.video/nodejs-client/lib/model/Caption').default;
const UploadToken = require('@api.video/nodejs-client/lib/model/UploadToken').default;
const Watermark = require('@api.video/nodejs-client/lib/model/Watermark').default;
const Summary = require('@api.video/nodejs-client/lib/model/Summary').default;
const SummarySource = require('@api.video/nodejs-client/lib/model/SummarySource').default;
const ListTagsResponseData = require('@api.video/nodejs-client/lib/model/ListTagsResponseData').default;
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const [baseUri, apiKey] = process.argv.slice(2);
const MiB = 1024 * 1024;
// 5 MiB chunks, the smallest the client and the service take.
const client = new ApiVideoClient({ apiKey, baseUri, chunkSize: 5 * MiB });
// The client's own HTTP layer, for the raw answers that its models would filter.
const http = client.httpClient;

let checks = 0;
const failures = [];
function check(what, ok, got) {
  checks++;
  if (!ok) failures.push(`${what}: ${JSON.stringify(got)}`);
}

// baseNames lists the wire names of a model of the client.
const baseNames = (model) => model.getAttributeTypeMap().map((a) => a.baseName);

// sameMembers checks that a raw answer has only members the client's model knows, and every
// one of required.
function checkMembers(what, raw, model, required) {
  const known = baseNames(model);
  const extra = Object.keys(raw).filter((k) => !known.includes(k));
  check(`${what}: members the client does not know`, extra.length === 0, extra);
  const missing = required.filter((k) => !(k in raw));
  check(`${what}: members missing`, missing.length === 0, missing);
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
    const pd = e.problemDetails || {};
    check(`${what}: title`, typeof pd.title === 'string' && pd.title !== '', pd);
    check(`${what}: name`, pd.name === name, pd);
    if (status === 400) check(`${what}: detail`, typeof pd.detail === 'string' && pd.detail !== '', pd);
  }
}

async function players() {
  const bare = await client.playerThemes.create({});
  check('player create {}: id', /^pt[0-9A-Za-z]{22}$/.test(bare.playerId), bare.playerId);
  check('player create {}: default colour', bare.trackPlayed === 'rgba(88, 131, 255, .95)', bare.trackPlayed);
  check('player create {}: default flags', bare.enableApi === true && bare.forceLoop === false, bare);
  check('player create {}: createdAt is a date', bare.createdAt instanceof Date && !isNaN(bare.createdAt), bare.createdAt);
  checkMembers('player answer', await raw(`players/${bare.playerId}`), PlayerTheme,
    baseNames(PlayerTheme).filter((k) => k !== 'name' && k !== 'assets'));

  const brand = await client.playerThemes.create({ name: 'Brand', link: 'rgba(1,2,3,.5)', hideTitle: true });
  check('player create: colour as sent', brand.link === 'rgba(1,2,3,.5)', brand.link);
  const renamed = await client.playerThemes.update(brand.playerId, { name: 'Brand 2' });
  check('player update: partial', renamed.name === 'Brand 2' && renamed.link === 'rgba(1,2,3,.5)' && renamed.hideTitle === true, renamed);
  check('player update: updatedAt moves', renamed.updatedAt > brand.updatedAt, [brand.updatedAt, renamed.updatedAt]);
  const got = await client.playerThemes.get(brand.playerId);
  check('player get', got.name === 'Brand 2', got);
  const page = await client.playerThemes.list({ sortBy: 'name', sortOrder: 'desc', pageSize: 1 });
  check('player list: one item', page.data.length === 1 && page.data[0].playerId === brand.playerId, page.data);
  check('player list: pagination', page.pagination.itemsTotal === 2 && page.pagination.pagesTotal === 2, page.pagination);
  checkMembers('player list pagination', (await raw('players?pageSize=1')).pagination, Pagination, ['links']);
  await expectError('player bad colour', client.playerThemes.create({ text: 'red' }), 400, 'text');
  await expectError('player long name', client.playerThemes.update(brand.playerId, { name: 'x'.repeat(101) }), 400, 'name');
  return { bare, brand };
}

async function liveStreams(brand) {
  const ls = await client.liveStreams.create({
    name: 'Studio', _public: false, playerId: brand.playerId,
    restreams: [{ name: 'YouTube', serverUrl: 'rtmp://a.rtmp.youtube.com/live2', streamKey: 'yt-key' }],
  });
  check('live create: id', /^li[0-9A-Za-z]{22}$/.test(ls.liveStreamId), ls.liveStreamId);
  check('live create: public', ls._public === false, ls._public);
  check('live create: player', ls.playerId === brand.playerId, ls.playerId);
  check('live create: restreams', ls.restreams.length === 1 && ls.restreams[0].serverUrl === 'rtmp://a.rtmp.youtube.com/live2', ls.restreams);
  check('live create: assets', ls.assets.hls === `https://live.api.video/${ls.liveStreamId}.m3u8`, ls.assets);
  check('live create: stream key', /^[0-9a-f-]{36}$/.test(ls.streamKey), ls.streamKey);
  checkMembers('live answer', await raw(`live-streams/${ls.liveStreamId}`), LiveStream,
    baseNames(LiveStream).filter((k) => k !== 'playerId'));

  const cleared = await client.liveStreams.update(ls.liveStreamId, { playerId: null, restreams: [] });
  check('live update: null clears the player', cleared.playerId === undefined, cleared.playerId);
  check('live update: [] removes the restreams', Array.isArray(cleared.restreams) && cleared.restreams.length === 0, cleared.restreams);
  check('live update: name and key kept', cleared.name === 'Studio' && cleared.streamKey === ls.streamKey, cleared);
  const renamed = await client.liveStreams.update(ls.liveStreamId, { name: 'Studio 2' });
  check('live update: partial', renamed.name === 'Studio 2' && renamed._public === false, renamed);

  const other = await client.liveStreams.create({ name: 'other studio' });
  check('live create: default public', other._public === true, other._public);
  const byName = await client.liveStreams.list({ name: 'Studio' });
  check('live list: name is case-sensitive', byName.data.map((l) => l.liveStreamId).join() === ls.liveStreamId, byName.data);
  const byKey = await client.liveStreams.list({ streamKey: other.streamKey });
  check('live list: streamKey', byKey.data.length === 1 && byKey.data[0].liveStreamId === other.liveStreamId, byKey.data);
  const sorted = await client.liveStreams.list({ sortBy: 'name', sortOrder: 'asc', currentPage: 1, pageSize: 10 });
  check('live list: sorted by name', sorted.data.map((l) => l.name).join() === 'Studio 2,other studio', sorted.data);

  await expectError('live blank name', client.liveStreams.create({ name: ' ' }), 400, 'name');
  await expectError('live restream without app', client.liveStreams.update(ls.liveStreamId, {
    restreams: [{ name: 'x', serverUrl: 'rtmp://host', streamKey: 'k' }],
  }), 400, 'restreams[0][serverUrl]');
  await expectError('live unknown player', client.liveStreams.update(ls.liveStreamId, { playerId: 'pt_none' }), 404, 'playerId');

  const themed = await client.liveStreams.update(other.liveStreamId, { playerId: brand.playerId });
  check('live update: set player', themed.playerId === brand.playerId, themed.playerId);
  await client.playerThemes.delete(brand.playerId);
  const orphan = await client.liveStreams.get(other.liveStreamId);
  check('player delete: unset on its live streams', orphan.playerId === undefined, orphan.playerId);

  await client.liveStreams.complete(ls.liveStreamId);
  check('live complete: not broadcasting', (await client.liveStreams.get(ls.liveStreamId)).broadcasting === false, 'broadcasting');
  await expectError('live complete unknown', client.liveStreams.complete('li_none'), 404, 'liveStreamId');
  for (const id of [ls.liveStreamId, other.liveStreamId]) await client.liveStreams.delete(id);
  await expectError('live get after delete', client.liveStreams.get(ls.liveStreamId), 404, 'liveStreamId');
}

// writeFile writes n generated bytes to name in the working directory and answers its path and
// SHA-256.
function writeFile(name, n) {
  const data = crypto.randomBytes(n);
  const file = path.resolve(name);
  fs.writeFileSync(file, data);
  return { file, data, sha256: crypto.createHash('sha256').update(data).digest('hex') };
}

// source is the emulator's report of a video's source (its control API).
const source = (videoId) => raw(`_emulator/videos/${videoId}/source`);

async function videoUploads() {
  const v = await client.videos.create({ title: 'Stranger upload', tags: ['a', 'b'], metadata: [{ key: 'k', value: 'v' }] });
  check('video create: id', /^vi[0-9A-Za-z]{22}$/.test(v.videoId), v.videoId);
  check('video create: defaults', v._public === true && v.panoramic === false && v.language === null, v);
  check('video create: source uri', v.source.uri === `/videos/${v.videoId}/source`, v.source);
  // mp4Support is the contract's, which the client's model does not have; every other member
  // must be one the model knows.
  const rawVideo = await raw(`videos/${v.videoId}`);
  const { mp4Support, ...known } = rawVideo;
  check('video answer: mp4Support', mp4Support === true, mp4Support);
  checkMembers('video answer', known, Video, ['videoId', 'title', 'language', 'languageOrigin', 'tags', 'metadata', 'source', 'assets', 'public']);
  const before = await client.videos.getStatus(v.videoId);
  check('status before any byte: no ingest', before.ingest === undefined && before.encoding.qualities.length === 0, before);

  const big = writeFile('stranger.mp4', 11 * MiB + 12345);
  const up = await client.videos.upload(v.videoId, big.file);
  check('upload in chunks: the video', up.videoId === v.videoId, up);
  const src = await source(v.videoId);
  check('upload in chunks: SHA-256', src.complete === true && src.sha256 === big.sha256 && src.size === big.data.length, [src, big.sha256]);
  const st = await client.videos.getStatus(v.videoId);
  check('status after the upload', st.ingest.filesize === big.data.length &&
    JSON.stringify(st.ingest.receivedParts) === JSON.stringify({ parts: [1, 2, 3], total: 3 }), st.ingest);
  checkMembers('status ingest', (await raw(`videos/${v.videoId}/status`)).ingest, VideoStatusIngest, ['status', 'filesize', 'receivedBytes']);
  await expectError('upload twice', client.videos.upload(v.videoId, big.file), 400, 'file');

  // A progressive session, one file per part.
  const p = await client.videos.create({ title: 'Stranger progressive', _public: false });
  const session = client.videos.createUploadProgressiveSession(p.videoId);
  const parts = [5 * MiB, 5 * MiB, 777];
  const whole = [];
  for (let i = 0; i < parts.length; i++) {
    const part = writeFile(`part${i + 1}.bin`, parts[i]);
    whole.push(part.data);
    const ans = i < parts.length - 1 ? await session.uploadPart(part.file) : await session.uploadLastPart(part.file);
    check(`progressive part ${i + 1}: the video`, ans.videoId === p.videoId, ans);
  }
  const psrc = await source(p.videoId);
  const want = crypto.createHash('sha256').update(Buffer.concat(whole)).digest('hex');
  check('progressive session: SHA-256', psrc.sha256 === want, [psrc, want]);
  return v;
}

async function videoEdits(v) {
  const brand = await client.playerThemes.create({ name: 'for videos' });
  const up = await client.videos.update(v.videoId, { title: 'Renamed', tags: ['c'], metadata: [], playerId: brand.playerId, language: 'fr' });
  check('video update', up.title === 'Renamed' && up.tags.join() === 'c' && up.metadata.length === 0 && up.playerId === brand.playerId, up);
  check('video update: language', up.language === 'fr' && up.languageOrigin === 'api', up);
  const cleared = await client.videos.update(v.videoId, { playerId: null });
  check('video update: null clears the player', cleared.playerId === undefined && cleared.title === 'Renamed', cleared);
  await expectError('video unknown player', client.videos.update(v.videoId, { playerId: 'pt_none' }), 404, 'playerId');
  await expectError('video without title', client.videos.create({ description: 'x' }), 400, 'title');

  const picked = await client.videos.pickThumbnail(v.videoId, { timecode: '00:00:01' });
  check('pick thumbnail', picked.assets.thumbnail !== cleared.assets.thumbnail, picked.assets);
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  fs.writeFileSync('thumb.png', png);
  const thumbed = await client.videos.uploadThumbnail(v.videoId, path.resolve('thumb.png'));
  check('upload thumbnail', thumbed.assets.thumbnail !== picked.assets.thumbnail, thumbed.assets);

  const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.000\nBonjour\n';
  const cap = await client.captions.upload(v.videoId, 'fr', Buffer.from(vtt));
  check('caption upload', cap.srclang === 'fr' && cap.languageName === 'Français' && cap._default === false, cap);
  checkMembers('caption answer', await raw(`videos/${v.videoId}/captions/fr`), Caption, ['uri', 'src', 'srclang', 'languageName', 'default']);
  fs.writeFileSync('en.vtt', vtt);
  await client.captions.upload(v.videoId, 'en', path.resolve('en.vtt'));
  const def = await client.captions.update(v.videoId, 'fr', { _default: true });
  check('caption default', def._default === true, def);
  const caps = await client.captions.list({ videoId: v.videoId });
  check('caption list', caps.data.map((c) => c.srclang).join() === 'fr,en', caps.data);
  await expectError('caption bad language', client.captions.upload(v.videoId, 'fr_FR', Buffer.from(vtt)), 400, 'language');
  await expectError('caption not WebVTT', client.captions.upload(v.videoId, 'de', Buffer.from('nope')), 400, 'file');
  await client.captions.delete(v.videoId, 'en');
  const chap = await client.chapters.upload(v.videoId, 'en', Buffer.from(vtt));
  check('chapter upload', chap.language === 'en' && chap.uri === `/videos/${v.videoId}/chapters/en`, chap);
  check('chapter list', (await client.chapters.list({ videoId: v.videoId })).data.length === 1, 'one chapter');

  await client.videos.delete(v.videoId);
  await expectError('video get after delete', client.videos.get(v.videoId), 404, 'videoId');
  await client.playerThemes.delete(brand.playerId);
}

// tinyPNG is a 1×1 PNG.
const tinyPNG = () => Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function uploadTokens() {
  const tok = await client.uploadTokens.createToken({ ttl: 300 });
  check('token create: shape', /^to[0-9A-Za-z]{22}$/.test(tok.token) && tok.ttl === 300 && tok.expiresAt instanceof Date, tok);
  checkMembers('token answer', await raw(`upload-tokens/${tok.token}`), UploadToken, ['token', 'ttl', 'createdAt', 'expiresAt']);
  const forever = await client.uploadTokens.createToken();
  check('token create: no ttl', forever.ttl === 0 && forever.expiresAt === undefined, forever);
  const got = await client.uploadTokens.getToken(tok.token);
  check('token get', got.token === tok.token, got);
  const byTTL = await client.uploadTokens.list({ sortBy: 'ttl', sortOrder: 'desc' });
  check('token list sorted by ttl', byTTL.data.map((t) => t.ttl).join() === '300,0', byTTL.data);

  const small = writeFile('delegated.mp4', 4321);
  const v = await client.videos.uploadWithUploadToken(tok.token, small.file);
  check('upload with token: a new video titled with the file', v.title === 'delegated.mp4', v);
  check('upload with token: SHA-256', (await source(v.videoId)).sha256 === small.sha256, v.videoId);
  const session = client.videos.createUploadWithUploadTokenProgressiveSession(tok.token);
  const parts = [5 * MiB, 4242];
  const whole = [];
  let first;
  for (let i = 0; i < parts.length; i++) {
    const part = writeFile(`token-part${i + 1}.bin`, parts[i]);
    whole.push(part.data);
    const ans = i < parts.length - 1 ? await session.uploadPart(part.file) : await session.uploadLastPart(part.file);
    first = first || ans;
    check(`token progressive part ${i + 1}: one video`, ans.videoId === first.videoId, ans);
  }
  const want = crypto.createHash('sha256').update(Buffer.concat(whole)).digest('hex');
  check('token progressive: SHA-256', (await source(first.videoId)).sha256 === want, first.videoId);
  await expectError('upload with a bad token', client.videos.uploadWithUploadToken('to_none', small.file), 404, 'token');
  for (const t of [tok.token, forever.token]) await client.uploadTokens.deleteToken(t);
  await expectError('token get after delete', client.uploadTokens.getToken(tok.token), 404, 'uploadToken');
  await expectError('token delete after delete', client.uploadTokens.deleteToken(tok.token), 404, 'uploadToken');
}

async function watermarksAndLogos() {
  const wm = await client.watermarks.upload(tinyPNG());
  check('watermark upload', /^watermark_[0-9A-Za-z]{22}$/.test(wm.watermarkId) && wm.createdAt instanceof Date, wm);
  const list = await client.watermarks.list({ sortBy: 'createdAt', sortOrder: 'asc' });
  check('watermark list', list.data.length === 1 && list.data[0].watermarkId === wm.watermarkId, list.data);
  checkMembers('watermark answer', (await raw('watermarks')).data[0], Watermark, ['watermarkId', 'createdAt']);
  await expectError('watermark not an image', client.watermarks.upload(Buffer.from('not an image')), 400, 'file');
  const v = await client.videos.create({ title: 'watermarked', watermark: { id: wm.watermarkId, top: '10px', opacity: '50%' } });
  check('video with a watermark', v.videoId !== undefined, v);
  await expectError('video with a watermark that does not exist',
    client.videos.create({ title: 'no such watermark', watermark: { id: 'watermark_none', top: '10px' } }), 404, 'watermark[id]');
  await client.watermarks.delete(wm.watermarkId);
  await expectError('watermark delete twice', client.watermarks.delete(wm.watermarkId), 404, 'watermarkId');
  await client.videos.delete(v.videoId);

  const theme = await client.playerThemes.create({ name: 'with logo' });
  const withLogo = await client.playerThemes.uploadLogo(theme.playerId, tinyPNG(), 'https://example.com');
  check('logo upload', withLogo.assets && withLogo.assets.link === 'https://example.com' && typeof withLogo.assets.logo === 'string', withLogo.assets);
  const noLink = await client.playerThemes.uploadLogo(theme.playerId, tinyPNG());
  check('logo upload without link', noLink.assets.link === 'undefined' && noLink.assets.logo !== withLogo.assets.logo, noLink.assets);
  await client.playerThemes.deleteLogo(theme.playerId);
  check('logo deleted', (await client.playerThemes.get(theme.playerId)).assets === undefined, 'assets');
  await expectError('logo delete twice', client.playerThemes.deleteLogo(theme.playerId), 404, 'logo');
  await client.playerThemes.delete(theme.playerId);
}

async function liveStreamThumbnails() {
  const ls = await client.liveStreams.create({ name: 'with a thumbnail' });
  const up = await client.liveStreams.uploadThumbnail(ls.liveStreamId, tinyPNG());
  check('live thumbnail upload', up.assets.thumbnail !== ls.assets.thumbnail && up.liveStreamId === ls.liveStreamId, up.assets);
  await expectError('live thumbnail not an image', client.liveStreams.uploadThumbnail(ls.liveStreamId, Buffer.from('not an image')), 400, 'file');
  const del = await client.liveStreams.deleteThumbnail(ls.liveStreamId);
  check('live thumbnail delete', del.assets.thumbnail === ls.assets.thumbnail, del.assets);
  await expectError('live thumbnail of no live stream', client.liveStreams.deleteThumbnail('li_none'), 404, 'liveStreamId');
  await client.liveStreams.delete(ls.liveStreamId);
}

// summariesAndTags: the client names a summary's abstract _abstract (abstract is reserved in its
// models), and sends it as abstract.
async function summariesAndTags() {
  const v = await client.videos.create({ title: 'Summarised', tags: ['Maths', 'école'] });
  const w = await client.videos.create({ title: 'Written', tags: ['maths'] });
  const auto = await client.summaries.create({ videoId: v.videoId, origin: 'auto' });
  check('summary create', auto.origin === 'auto' && auto.videoId === v.videoId && auto.createdAt instanceof Date, auto);
  checkMembers('summary answer', (await raw(`summaries?videoId=${v.videoId}`)).data[0], Summary,
    ['summaryId', 'createdAt', 'updatedAt', 'videoId', 'origin', 'sourceStatus']);
  const src = await client.summaries.getSummarySource(auto.summaryId);
  check('summary source', typeof src._abstract === 'string' && src.takeaways.length === 3, src);
  checkMembers('summary source answer', await raw(`summaries/${auto.summaryId}/source`), SummarySource, ['abstract', 'takeaways']);
  await expectError('summary twice', client.summaries.create({ videoId: v.videoId }), 409, 'videoId');
  const manual = await client.summaries.create({ videoId: w.videoId });
  check('summary without origin', manual.origin === 'api' && manual.sourceStatus === 'missing', manual);
  const written = await client.summaries.update(manual.summaryId, { _abstract: 'Mine.', takeaways: ['one'] });
  check('summary update', written._abstract === 'Mine.' && written.takeaways.join() === 'one', written);
  const byOrigin = await client.summaries.list({ origin: 'api', sortBy: 'videoId', sortOrder: 'asc' });
  check('summary list', byOrigin.data.length === 1 && byOrigin.data[0].sourceStatus === 'completed', byOrigin.data);
  await client.summaries.delete(auto.summaryId);
  await expectError('summary source after delete', client.summaries.getSummarySource(auto.summaryId), 404, 'summaryId');

  const tags = await client.tags.list({ value: 'ECOLE' });
  check('tags by value', tags.data.length === 1 && tags.data[0].value === 'école' && tags.data[0].videoCount === 1, tags.data);
  checkMembers('tag answer', (await raw('tags')).data[0], ListTagsResponseData, ['value', 'videoCount']);
  const byUse = await client.tags.list({ sortBy: 'videoCount', sortOrder: 'desc', pageSize: 1 });
  check('tags by use', byUse.data[0].value === 'Maths' && byUse.pagination.pagesTotal === 3, byUse);
  for (const id of [v.videoId, w.videoId]) await client.videos.delete(id);
  check('summaries go with their videos', (await client.summaries.list({})).data.length === 0, 'summaries left');
}

(async () => {
  await liveStreamThumbnails();
  await summariesAndTags();
  const v = await videoUploads();
  await videoEdits(v);
  await uploadTokens();
  await watermarksAndLogos();
  const { bare, brand } = await players();
  await liveStreams(brand);
  await client.playerThemes.delete(bare.playerId);
  await expectError('player get after delete', client.playerThemes.get(bare.playerId), 404, 'playerId');
  const left = await client.playerThemes.list();
  check('player list after deletes', left.data.length === 0, left.data.map((p) => p.playerId));
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`${checks} checks, ${failures.length} failed`);
  process.exit(failures.length === 0 ? 0 : 1);
})().catch((e) => {
  console.log(`FAIL unexpected error: ${e && e.code} ${JSON.stringify(e && e.problemDetails)} ${e && e.stack}`);
  process.exit(1);
});
