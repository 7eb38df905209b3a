// Package emulator is a faithful local implementation of the video hosting service's API:
// store, auth, rate limits, paging, errors, signed event delivery, fault injection and a
// control API under /_emulator/. It knows neither the client nor
// Terraform: it keeps its own wire types and shares only the event-name list, so that it is an
// independent check on the client.
//
// # Use
//
// In-process, in tests:
//
//	emu, err := emulator.New(emulator.Options{SeedVideos: 10})
//	srv := httptest.NewServer(emu)
//	defer srv.Close()
//	defer emu.Close()
//	// Point the client at srv.URL with emu.APIKeys()[0].
//
// As a process: go run ./cmd/videohost-emulator -h.
//
// # Service API
//
// One line per method and path, the paths as the route table (serviceRoutes) has them; a test
// holds this list and the table to each other.
//
//	POST   /auth/api-key                          {"apiKey"}  token response (not rate limited)
//	POST   /auth/refresh                          {"refreshToken"}  token response (not rate limited)
//	POST   /upload                                ?token=; multipart; the token is the only credential; 201
//	GET    /webhooks                              ?events=&currentPage=&pageSize=
//	POST   /webhooks                              {"url","events"}  201
//	GET    /webhooks/{webhookId}
//	DELETE /webhooks/{webhookId}                  204, empty body
//	GET    /videos                                ?title=&description=&liveStreamId=&tags[]=&metadata[k]=v&sortBy=&sortOrder=
//	POST   /videos                                {"title", ..., "source", "clip", "watermark"}  201, or 202 with source
//	GET    /videos/{videoId}
//	PATCH  /videos/{videoId}                      {"title", ..., "tags", "metadata", "playerId"}  200, partial
//	DELETE /videos/{videoId}                      204; with Options.VideoRestore the video is discarded
//	POST   /videos/{videoId}/source               multipart; Content-Range bytes or part; 201
//	GET    /videos/{videoId}/status
//	PATCH  /videos/{videoId}/thumbnail            {"timecode"}  200
//	POST   /videos/{videoId}/thumbnail            multipart JPEG or PNG; 200
//	GET    /videos/{videoId}/captions             list
//	GET    /videos/{videoId}/captions/{language}
//	POST   /videos/{videoId}/captions/{language}  multipart WebVTT; 200
//	PATCH  /videos/{videoId}/captions/{language}  {"default"}  200
//	DELETE /videos/{videoId}/captions/{language}  204
//	GET    /videos/{videoId}/chapters             list
//	GET    /videos/{videoId}/chapters/{language}
//	POST   /videos/{videoId}/chapters/{language}  multipart WebVTT; 200
//	DELETE /videos/{videoId}/chapters/{language}  204
//	GET    /discarded/videos                      the filters of GET /videos; empty without Options.VideoRestore
//	GET    /discarded/videos/{videoId}
//	PATCH  /discarded/videos/{videoId}            {"discarded": false} restores the video; 200
//	POST   /upload-tokens                         {"ttl"}  200
//	GET    /upload-tokens                         ?sortBy=&sortOrder=&currentPage=&pageSize=
//	GET    /upload-tokens/{uploadToken}
//	DELETE /upload-tokens/{uploadToken}           204
//	POST   /watermarks                            multipart JPEG or PNG; 200
//	GET    /watermarks                            ?sortBy=&sortOrder=&currentPage=&pageSize=
//	DELETE /watermarks/{watermarkId}              204
//	GET    /live-streams                          ?streamKey=&name=&sortBy=&sortOrder=&currentPage=&pageSize=
//	POST   /live-streams                          {"name","public","playerId","restreams"}  200
//	GET    /live-streams/{liveStreamId}
//	PATCH  /live-streams/{liveStreamId}           {"name","public","playerId","restreams"}  200, partial
//	DELETE /live-streams/{liveStreamId}           204
//	PUT    /live-streams/{liveStreamId}/complete  202; a running broadcast ends at once
//	POST   /live-streams/{liveStreamId}/thumbnail multipart JPEG or PNG; 201 with the live stream
//	DELETE /live-streams/{liveStreamId}/thumbnail 200 with the live stream (its own thumbnail back)
//	GET    /players                               ?sortBy=&sortOrder=&currentPage=&pageSize=
//	POST   /players                               {"name", colours, flags}  201, body may be {}
//	GET    /players/{playerId}
//	PATCH  /players/{playerId}                    {"name", colours, flags}  200, partial
//	DELETE /players/{playerId}                    204
//	POST   /players/{playerId}/logo               multipart file and link; 201
//	DELETE /players/{playerId}/logo               204
//	POST   /summaries                             {"videoId","origin","attributes"}  201; 409 when the video has one
//	GET    /summaries                             ?videoId=&origin=&sourceStatus=&sortBy=&sortOrder=&currentPage=&pageSize=
//	DELETE /summaries/{summaryId}                 204
//	GET    /summaries/{summaryId}/source
//	PATCH  /summaries/{summaryId}/source          {"abstract","takeaways"}  201
//	GET    /tags                                  ?value=&sortBy=&sortOrder=&currentPage=&pageSize=
//	GET    /data/metrics/{metric}/{aggregation}   ?from=&to=&unique=&viewDuration=&filterBy[...]=
//	GET    /data/buckets/{metric}/{breakdown}     the same, and ?sortBy=&sortOrder=&currentPage=&pageSize=
//	GET    /data/timeseries/{metric}              the same, and ?interval=
//
// The analytics count the plays recorded through the control API (POST /_emulator/plays).
// Live streams and player themes, videos, their sources, captions, chapters and thumbnails,
// upload tokens, watermarks and logos behave as on the service, the decisions the service
// leaves open included (DESIGN.md's "The emulator" section lists them). A source's chunks stream to files in a
// directory of the emulator's own, which Close removes: memory never holds a whole chunk. The
// request that stores a chunk hashes what it joins to the bytes hashed before it, in the order
// of the source, so the last one hashes only what is left. Once every chunk arrived, the
// source's size and SHA-256 are kept (VideoSource, GET /_emulator/videos/{id}/source) and its
// chunks deleted; ingest and encoding then advance in
// the background, IngestDelay per ingest step and EncodingDelay per quality.
//
// Every API endpoint takes Basic (the key as user name, empty password) or Bearer (an access
// token). Access tokens are HS256 JWTs with iat, exp and jti, valid Options.TokenTTL (rounded up
// to whole seconds; the issue time is rounded up to the next whole second, so a token lives at
// least expires_in seconds). Refresh tokens are opaque, single use and valid until used or
// revoked. A key of the other environment gets 401 with a body that says so. Tokens are signed
// with a key drawn at start, so they do not survive a restart.
//
// # Choices where the specification is silent
//
//   - Order of checks: unknown path (404), credentials, injected 429 burst, rate limit (429),
//     method (405), injected 500, then the endpoint. Every answer of a service endpoint
//     carries the rate-limit headers (400, 401, 404, 405, 429 and 500 included); only unknown
//     paths and the /auth/ endpoints carry none. Requests without valid credentials count
//     against a bucket of the caller's address, so their 401 has true headers, and a caller
//     that keeps sending bad credentials gets 429.
//   - Rate limits are fixed windows per key and class (reads: GET and HEAD; writes: the other
//     methods; uploads: every multipart/form-data request, and /upload?token= against the key
//     that made the token). A window opens with the first request
//     after the previous one closed. X-RateLimit-Retry-After is the whole seconds (rounded up,
//     at least 1) until the window closes. A refused request does not use up the window.
//   - Unknown query parameters and unknown body members are 400 invalid-attribute ("A parameter
//     does not exist"). An empty events array is refused.
//   - 400 bodies: type, title and name are those of the first problem; problems lists them all;
//     each failing attribute also has a member of its own name holding its message.
//   - Slugs that the specification does not name: invalid-payload, webhook-limit-reached,
//     unrecognized-request-url, method-not-allowed, server-error, authentication-failed.
//   - Paging: an empty list has pagesTotal 1 and the links self, first and last (all page 1).
//     A page beyond the last has no items, a previous link to the last page and no next link.
//     Links are relative paths carrying currentPage, pageSize and the filters.
//   - Webhook lists carry signatureSecret; create and get answers omit it (the specification's
//     samples) unless Options.SecretInResponses.
//   - Video title and description filters match a case-insensitive part, the live stream name
//     filter a case-sensitive one (the contract's decision); the default order is createdAt
//     ascending.
//   - Live stream and player theme 400s carry type, title, detail and name as the contract's
//     tables give them; problems lists every problem only when there is more than one. A member
//     the resource does not have, read-only ones included, is invalid-attributes. A restream
//     member left out is null. null is refused for every member except playerId (which it
//     clears) and a theme's name (which it removes, as "" does). Within one request the body is
//     checked before the playerId it names is looked up (404).
//   - updatedAt moves on every update, an empty one included: times have whole seconds, so a
//     second update within a second is dated one second after the first. Deleting a player
//     theme moves the updatedAt of the live streams it leaves without a theme.
//   - Seed live streams keep their short ids (li0000000001); those made through the API have
//     li + 22 base62 characters and a version 4 UUID as stream key.
//   - Sandbox: the service's sandbox watermark is on the pictures only, so videos and live
//     streams carry the contract's members only (no "watermarked"). A video created with a
//     watermark id that the workspace does not hold is 404 naming watermark[id]. Sandbox videos
//     and recordings are deleted 24 hours after upload or recording on the emulator's clock,
//     checked when the store is accessed.
//   - Ending a broadcast sets broadcasting back to false.
//   - Summaries: an automatic one (origin auto, or a video's transcriptSummary, or the control
//     API's summary) is generated at once, completed, with a text made from the video's title
//     so that it is the same at every run; one made without origin is origin api with its
//     source missing until a PATCH of the source completes it. A video has at most one summary
//     (409 naming videoId); deleting it, or the video, lets the video have another. The
//     document has no read of one summary: GET /summaries/{id} is 405.
//   - Tags are those of the workspace's videos, counted; the value filter matches a part of
//     the tag ignoring accents and case; the default order is by value.
//   - Faults draw their shares deterministically: a rate r fails a request each time the sum of
//     r over the requests so far crosses a whole number, so 0.5 fails every second request.
//     ErrorRate draws over every rate-limited API request, ReadErrorRate (with its own sum)
//     over the GET and HEAD ones that ErrorRate let through. FaultCounts (and "injected" in
//     GET /_emulator/faults) counts what was injected by kind since the start; SetFaults
//     does not reset it, and restarts the sum of a rate only when that rate changes.
//   - Event deliveries go through a bounded queue: at most DeliveryQueue are pending (queued,
//     being attempted or waiting for a retry), and DeliveryWorkers attempts run at once. Each
//     webhook's deliveries go one at a time in the order of their events, a retry included, so
//     a receiver sees its events in order. A delivery offered to a full queue is dropped,
//     counted (DeliveryStats, "deliveries" in GET /_emulator/stats) and logged at most once a
//     second. A delivery is retried DeliveryRetries times,
//     DeliveryRetryDelay apart, while the receiver answers above 299 (redirects are not
//     followed) or does not answer within DeliveryTimeout. The signature is the lowercase hex
//     HMAC-SHA256 of the body bytes keyed with the webhook's signatureSecret.
//   - With Options.StatePath, webhooks, videos, live streams, player themes and the clock
//     offset are written atomically after every change, before the change is answered (a
//     temporary file beside it, fsync, rename, fsync of the directory, so a SIGKILL at any
//     moment leaves the old state or the new one), and read back by New, which removes the
//     temporary files of a write that was killed; seeds are made
//     only when no state file exists. Videos keep their source's size and hash, captions,
//     chapters and encoding progress (an unfinished encoding resumes), upload tokens and
//     watermarks are kept too; the chunks of an unfinished upload are not: after a restart its
//     upload starts again.
//
// # Control API
//
// The control API lives under /_emulator/, a path the service does not use. It is not rate
// limited, not subject to faults and not counted by RequestCount. With Options.ControlToken
// every call needs "Authorization: Bearer <control token>" (the command requires one when it
// listens beyond loopback). ControlIndex lists every call; GET /_emulator/ answers it and the
// command prints it in its usage.
//
// The statistics serve benchmarks and tests of clients' pacing. Per rate class they count the
// requests that reached the limiter, its 429s (injected ones are FaultCounts') and the early
// requests: those that arrived after a 429 to the same key (or address) and class, before its
// X-RateLimit-Retry-After had elapsed. A request arriving within EarlyGrace (100 ms) of the
// 429 is not early, since it was already on the wire when the 429 was written. They also keep
// when the first and the last request of each class arrived, on the emulator's clock.
//
// The same operations are methods for in-process use: CreateWebhook, DeleteWebhook,
// UploadVideo, DeleteVideo, VideoSource, UploadedBytes, CreateLiveStream, DeleteLiveStream,
// DeletePlayer, SetBroadcasting, RecordLiveStream, GenerateCaption, GenerateSummary,
// Deliveries, WaitDeliveries, AdvanceClock, SetFaults, FaultCounts, RevokeTokens, RequestCount
// and RateStats.
package emulator
