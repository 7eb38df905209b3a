package emulator

import (
	"context"
	"net/http"
)

// The one wrapper of every route of the service API, keyed on the row of serviceRoutes that the
// mux matched. Its order of checks is doc.go's: an unknown path is 404 before anything else
// (serveUnknownPath), then the credentials, the injected 429 burst, the rate limit (429), the
// method (405), the injected 500, and the endpoint. A request without valid credentials takes
// its place in the rate limit of its address before its 401 is answered, so that the 401
// carries true rate-limit headers. An /upload request's token is both its credential and the
// resource it names: a bad one is 404 naming token, answered after the method as any 404 of a
// resource is. The /auth/ endpoints are neither rate limited nor subject to faults.

// serveRoute serves one request of route rt; id is the name of the pattern's first parameter.
func (e *Emulator) serveRoute(w http.ResponseWriter, r *http.Request, rt *serviceRoute, id string) {
	if rt.browser && e.serveCORS(w, r) {
		return
	}
	if !e.arrive(w, r) {
		return
	}
	subject, refused, admitted := e.admit(w, r, rt)
	if !admitted {
		return
	}
	h := rt.handler(r.Method)
	if h == nil {
		w.Header().Set("Allow", rt.allow())
		writeError(w, e.newError(http.StatusMethodNotAllowed, slugMethodNotAllowed, titleMethodNotAllowed))
		return
	}
	if refused != nil {
		writeError(w, *refused)
		return
	}
	if rt.access != accessOpen && e.faults.takeError(r.Method) {
		writeError(w, e.serverError())
		return
	}
	if rt.access == accessKey && e.refuseLargeJSONBody(w, r) {
		return
	}
	h(e, w, r.WithContext(context.WithValue(r.Context(), subjectKey{}, subject)), r.PathValue(id))
}

// serveUnknownPath answers a path that no route has: 404, with no rate-limit headers, since no
// bucket is charged for it.
func (e *Emulator) serveUnknownPath(w http.ResponseWriter, r *http.Request) {
	if e.arrive(w, r) {
		writeError(w, e.newError(http.StatusNotFound, slugUnrecognizedURL, titleUnrecognizedURL))
	}
}

// arrive takes what every request of the service API goes through before its route's checks:
// it is counted, waits the injected latency and gets the service's Date; false when the request
// was cancelled during the latency.
func (e *Emulator) arrive(w http.ResponseWriter, r *http.Request) bool {
	e.stats.count(r.Method, r.URL.Path)
	if !e.injectLatency(r.Context()) {
		return false
	}
	// The service dates its answers by its own clock, which AdvanceClock moves: a client that
	// judges an expiry by the service's Date sees the time that expired the token.
	w.Header().Set("Date", e.now().UTC().Format(http.TimeFormat))
	return true
}

// admit checks r's credentials as rt takes them and charges the rate limit, answering 401 and
// 429 itself (false). It returns the subject, the fingerprint of the key that r is sent with,
// and for /upload the 404 of a bad token, which serveRoute answers after the method.
func (e *Emulator) admit(w http.ResponseWriter, r *http.Request, rt *serviceRoute) (string, *apiError, bool) {
	var (
		subject            string
		anonymous          bool
		refused, tokenMiss *apiError
		class              = requestClass(r)
	)
	switch rt.access {
	case accessOpen:
		return "", nil, true
	case accessToken:
		// The token's owner pays for the upload in its uploads budget, whatever the request.
		owner, found := e.liveToken(r.URL.Query().Get("token"))
		subject, anonymous, class = owner, owner == "", classUploads
		if !found {
			miss := e.notFound("token")
			tokenMiss, anonymous = &miss, true
		}
	default:
		subject, refused = e.authenticate(r)
		anonymous = refused != nil
	}
	if anonymous {
		// Without a key, the caller's address is the bucket: hammering with bad credentials
		// ends in 429 like anything else.
		subject = anonymousSubject(r)
	} else if rt.access == accessKey && e.faults.take429() {
		d := e.limiter.peek(subject, class, e.now())
		d.remaining = 0
		setRateHeaders(w, d)
		writeError(w, e.tooManyRequests())
		return "", nil, false
	}
	d := e.limiter.take(subject, class, e.now())
	setRateHeaders(w, d)
	switch {
	case !d.allowed:
		writeError(w, e.tooManyRequests())
		return "", nil, false
	case refused != nil:
		writeError(w, *refused)
		return "", nil, false
	}
	return subject, tokenMiss, true
}
