package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// serviceRoutes is the service API: one row per path, as a ServeMux pattern whose wildcards
// are named as the published document names the path's parameters. The mux that serves them
// (newServiceMux) gives every row the same wrapper (serveRoute, in service_guard.go), which
// answers what the row does not: 405 for a method it does not list, credentials, rate limits
// and faults. doc.go lists these rows and a test holds the two lists, and the API coverage
// guide's, to each other.
var serviceRoutes = []serviceRoute{
	{pattern: "/auth/api-key", access: accessOpen, methods: []routeMethod{{http.MethodPost, authEndpoint((*Emulator).handleAuthAPIKey)}}},
	{pattern: "/auth/refresh", access: accessOpen, browser: true, methods: []routeMethod{{http.MethodPost, authEndpoint((*Emulator).handleAuthRefresh)}}},
	{pattern: "/upload", access: accessToken, browser: true, methods: []routeMethod{{http.MethodPost, (*Emulator).handleTokenUpload}}},

	{pattern: "/webhooks", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListWebhooks}, {http.MethodPost, (*Emulator).handleCreateWebhook}}},
	{pattern: "/webhooks/{webhookId}", methods: []routeMethod{{http.MethodGet, (*Emulator).handleGetWebhook}, {http.MethodDelete, (*Emulator).handleDeleteWebhook}}},

	{pattern: "/videos", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListVideos}, {http.MethodPost, (*Emulator).handleCreateVideo}}},
	{pattern: "/videos/{videoId}", methods: []routeMethod{
		{http.MethodGet, videos.serveGet}, {http.MethodPatch, (*Emulator).handleUpdateVideo}, {http.MethodDelete, (*Emulator).handleDeleteVideo},
	}},
	{pattern: "/videos/{videoId}/source", browser: true, methods: []routeMethod{{http.MethodPost, (*Emulator).handleUploadSource}}},
	{pattern: "/videos/{videoId}/status", methods: []routeMethod{{http.MethodGet, (*Emulator).handleVideoStatus}}},
	{pattern: "/videos/{videoId}/thumbnail", methods: []routeMethod{{http.MethodPatch, (*Emulator).handlePickThumbnail}, {http.MethodPost, (*Emulator).handleUploadThumbnail}}},
	{pattern: "/videos/{videoId}/captions", methods: []routeMethod{{http.MethodGet, captionFiles.serveList}}},
	{pattern: "/videos/{videoId}/captions/{language}", methods: []routeMethod{
		{http.MethodGet, captionFiles.serveGet}, {http.MethodPost, captionFiles.serveUpload},
		{http.MethodPatch, (*Emulator).handleCaptionDefault}, {http.MethodDelete, captionFiles.serveDelete},
	}},
	{pattern: "/videos/{videoId}/chapters", methods: []routeMethod{{http.MethodGet, chapterFiles.serveList}}},
	{pattern: "/videos/{videoId}/chapters/{language}", methods: []routeMethod{
		{http.MethodGet, chapterFiles.serveGet}, {http.MethodPost, chapterFiles.serveUpload}, {http.MethodDelete, chapterFiles.serveDelete},
	}},
	{pattern: "/discarded/videos", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListDiscardedVideos}}},
	{pattern: "/discarded/videos/{videoId}", methods: []routeMethod{{http.MethodGet, discardedVideos.serveGet}, {http.MethodPatch, (*Emulator).handleRestoreVideo}}},

	{pattern: "/live-streams", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListLiveStreams}, {http.MethodPost, (*Emulator).handleCreateLiveStream}}},
	{pattern: "/live-streams/{liveStreamId}", methods: []routeMethod{
		{http.MethodGet, liveStreams.serveGet}, {http.MethodPatch, (*Emulator).handleUpdateLiveStream}, {http.MethodDelete, (*Emulator).handleDeleteLiveStream},
	}},
	{pattern: "/live-streams/{liveStreamId}/complete", methods: []routeMethod{{http.MethodPut, (*Emulator).handleCompleteLiveStream}}},
	{pattern: "/live-streams/{liveStreamId}/thumbnail", methods: []routeMethod{
		{http.MethodPost, (*Emulator).handleUploadLiveStreamThumbnail}, {http.MethodDelete, (*Emulator).handleDeleteLiveStreamThumbnail},
	}},

	{pattern: "/upload-tokens", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListUploadTokens}, {http.MethodPost, (*Emulator).handleCreateUploadToken}}},
	{pattern: "/upload-tokens/{uploadToken}", methods: []routeMethod{{http.MethodGet, uploadTokens.serveGet}, {http.MethodDelete, (*Emulator).handleDeleteUploadToken}}},
	// The service has no read of one watermark.
	{pattern: "/watermarks", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListWatermarks}, {http.MethodPost, (*Emulator).handleCreateWatermark}}},
	{pattern: "/watermarks/{watermarkId}", methods: []routeMethod{{http.MethodDelete, (*Emulator).handleDeleteWatermark}}},

	{pattern: "/players", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListPlayers}, {http.MethodPost, (*Emulator).handleCreatePlayer}}},
	{pattern: "/players/{playerId}", methods: []routeMethod{
		{http.MethodGet, players.serveGet}, {http.MethodPatch, (*Emulator).handleUpdatePlayer}, {http.MethodDelete, (*Emulator).handleDeletePlayer},
	}},
	{pattern: "/players/{playerId}/logo", methods: []routeMethod{{http.MethodPost, (*Emulator).handleUploadLogo}, {http.MethodDelete, (*Emulator).handleDeleteLogo}}},

	// The published document has no read of one summary, nor of one tag.
	{pattern: "/summaries", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListSummaries}, {http.MethodPost, (*Emulator).handleCreateSummary}}},
	{pattern: "/summaries/{summaryId}", methods: []routeMethod{{http.MethodDelete, (*Emulator).handleDeleteSummary}}},
	{pattern: "/summaries/{summaryId}/source", methods: []routeMethod{{http.MethodGet, (*Emulator).handleGetSummarySource}, {http.MethodPatch, (*Emulator).handleUpdateSummarySource}}},
	{pattern: "/tags", methods: []routeMethod{{http.MethodGet, (*Emulator).handleListTags}}},

	{pattern: "/data/metrics/{metric}/{aggregation}", methods: []routeMethod{{http.MethodGet, (*Emulator).handleAggregatedMetric}}},
	{pattern: "/data/buckets/{metric}/{breakdown}", methods: []routeMethod{{http.MethodGet, (*Emulator).handleMetricsBreakdown}}},
	{pattern: "/data/timeseries/{metric}", methods: []routeMethod{{http.MethodGet, (*Emulator).handleMetricsOverTime}}},
}

// serviceRoute is one path of the service API.
type serviceRoute struct {
	// pattern is the path as a ServeMux pattern, without a method: the row lists its methods,
	// so that a method it does not list reaches the wrapper, which answers 405 after the
	// credentials and the rate limit as the service does, where the mux would answer at once.
	pattern string
	access  routeAccess
	// browser marks the paths that the service's browser uploader calls: their answers carry
	// CORS headers and their preflight requests are answered (cors.go).
	browser bool
	// methods are the route's methods, in the order the Allow header of a 405 lists them.
	methods []routeMethod
}

// routeAccess is how a request of a route proves who sends it.
type routeAccess int

const (
	// accessKey: an API key (Basic) or an access token (Bearer), every endpoint but those below.
	accessKey routeAccess = iota
	// accessToken: the upload token in the query of /upload, the only credential it takes.
	accessToken
	// accessOpen: none, the /auth/ endpoints that hand out access tokens; not rate limited.
	accessOpen
)

// apiHandler serves one method of one route; id is the value of the path's first parameter,
// the record it names, if any. Other parameters are read with r.PathValue.
type apiHandler func(e *Emulator, w http.ResponseWriter, r *http.Request, id string)

// routeMethod is one method of a route and the handler that serves it.
type routeMethod struct {
	method  string
	handler apiHandler
}

// handler is the route's handler of method, or nil when the route does not take it.
func (rt *serviceRoute) handler(method string) apiHandler {
	for _, m := range rt.methods {
		if m.method == method {
			return m.handler
		}
	}
	return nil
}

// allow lists the route's methods for the Allow header of a 405.
func (rt *serviceRoute) allow() string {
	methods := make([]string, 0, len(rt.methods))
	for _, m := range rt.methods {
		methods = append(methods, m.method)
	}
	return strings.Join(methods, ", ")
}

// idParam is the name of the pattern's first parameter, whose value handlers get as id; ""
// for a pattern without one.
func (rt *serviceRoute) idParam() string {
	_, rest, ok := strings.Cut(rt.pattern, "{")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "}")
	return name
}

// authEndpoint serves an /auth/ endpoint with h, which takes the body as a JSON object: a body
// that is not one is 400 invalid-payload.
func authEndpoint(h func(*Emulator, http.ResponseWriter, map[string]json.RawMessage)) apiHandler {
	return func(e *Emulator, w http.ResponseWriter, r *http.Request, _ string) {
		body, ok := readObject(r)
		if !ok {
			writeError(w, e.invalidPayload())
			return
		}
		h(e, w, body)
	}
}

// newServiceMux routes the service API: each row of serviceRoutes goes to serveRoute, and
// every other path to serveUnknownPath.
func (e *Emulator) newServiceMux() *http.ServeMux {
	mux := http.NewServeMux()
	for i := range serviceRoutes {
		rt := &serviceRoutes[i]
		id := rt.idParam()
		mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) { e.serveRoute(w, r, rt, id) })
	}
	mux.HandleFunc("/", e.serveUnknownPath)
	return mux
}

// routable is r as the service's mux is to match it, or false when r's path names no route
// whatever the table holds: one without a leading slash or with an empty segment (/webhooks/,
// //webhooks), which the mux would redirect to its clean form where the service answers 404.
// The mux matches the path's escaped form, so the copy's is made from the decoded path, each
// segment escaped again: an escaped slash (%2F) separates segments, as in the path the
// handlers read, and a dot segment is escaped (%2E), so that the mux takes it for a name, as
// the handlers do, instead of cleaning it away with a redirect.
func routable(r *http.Request) (*http.Request, bool) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/")
	if !ok {
		return nil, false
	}
	segs := strings.Split(rest, "/")
	if slices.Contains(segs, "") {
		return nil, false
	}
	for i, s := range segs {
		switch s {
		case ".":
			segs[i] = "%2E"
		case "..":
			segs[i] = "%2E%2E"
		default:
			segs[i] = url.PathEscape(s)
		}
	}
	u := *r.URL
	u.RawPath = "/" + strings.Join(segs, "/")
	m := r.WithContext(r.Context())
	m.URL = &u
	return m, true
}
