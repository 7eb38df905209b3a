package videohost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// request is one call of the service as do sends it, before credentials and retries.
type request struct {
	method string
	path   string // escaped, under the base address
	query  url.Values
	link   *url.URL // a page's next link, in place of path and query
	body   any
	// auth marks a token call: it carries no credentials, skips the rate limiter, and may be
	// repeated because it changes nothing the user owns.
	auth bool
	// idempotent marks a write whose body sets absolute values (a PATCH of this client, a chunk
	// of a video source, a caption file): sent twice, it leaves the object as sent once, so it is
	// retried like a read.
	idempotent bool
	// stream, in place of body, is a multipart body made anew for every attempt; it puts the
	// request in the uploads class.
	stream *streamBody
	header http.Header // added to the request's headers, such as a Content-Range
	// secret is a secret that the path or the query holds (an upload token): logs and errors
	// show it as REDACTED, and the service's words that echo it are redacted too.
	secret string
	// anonymous marks a call authorised by its secret alone (/upload?token=): it carries no
	// credentials, but is paced by its class's limiter like any other.
	anonymous bool
}

// class is the rate-limit class of the request: a multipart body uploads, GET and HEAD read,
// every other method writes.
func (r request) class() string {
	if r.stream != nil {
		return ClassUploads
	}
	if r.method == http.MethodGet || r.method == http.MethodHead {
		return ClassReads
	}
	return ClassWrites
}

// repeatable reports whether the request may be sent again after it may have reached the
// service: only reads, deletes, token calls and idempotent writes are.
func (r request) repeatable() bool {
	switch r.method {
	case http.MethodGet, http.MethodHead, http.MethodDelete:
		return true
	}
	return r.auth || r.idempotent
}

func (c *Client) address(r request) *url.URL {
	if r.link != nil {
		return r.link
	}
	u := *c.base
	u.RawPath = c.base.EscapedPath() + r.path
	if p, err := url.PathUnescape(u.RawPath); err == nil {
		u.Path = p
	}
	u.RawQuery = r.query.Encode()
	return &u
}

// shownPath is the path of u under the base address, without the query, which may hold a
// filter on a stream key.
func (c *Client) shownPath(u *url.URL) string {
	p := u.EscapedPath()
	if prefix := c.base.EscapedPath(); prefix != "" && strings.HasPrefix(p, prefix+"/") {
		p = strings.TrimPrefix(p, prefix)
	}
	return p
}

type call struct {
	r       request
	out     any
	payload []byte
	u       *url.URL
	path    string // as logs and errors show it
	class   string
	lim     *limiter

	n        int
	retries  int
	replayed bool // a 401 was answered with a new token and one replay
	reached  bool // an earlier attempt may have reached the service
}

type attempt struct {
	tk    ticket
	authz string
	token string // the one in authz, so that a 401 invalidates it and no newer one

	status int
	header http.Header
	body   []byte
	// wrote is set once the request was written: from then on, the service may have acted.
	wrote    bool
	tooLarge bool // body holds the first maxBody bytes of a longer response
}

const notSent = ", before the request was sent"

// do sends r, with credentials, through the rate limiter of its class, retrying what is safe
// to retry, and decodes a 2xx response into out (when not nil) or any other into an *Error.
func (c *Client) do(ctx context.Context, r request, out any) error {
	cl, err := c.newCall(r, out)
	if err != nil {
		return err
	}
	for {
		cl.n++
		a, err := c.admit(ctx, cl)
		if err != nil {
			return err
		}
		err = c.send(ctx, cl, &a)
		again, err := c.classify(ctx, cl, a, err)
		if !again {
			return err
		}
	}
}

func (c *Client) newCall(r request, out any) (*call, error) {
	cl := &call{r: r, out: out, class: r.class()}
	if r.body != nil {
		var err error
		if cl.payload, err = encodeBody(r.body); err != nil {
			return nil, fmt.Errorf("videohost: encoding the body of %s: %w", r.method, err)
		}
	}
	if err := checkPathSegments(r.path); err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	cl.u = c.address(r)
	cl.path = redactSecret(c.shownPath(cl.u), r.secret)
	cl.lim = c.limiters[cl.class]
	return cl, nil
}

// admit waits for the rate limiter, then fetches the credentials, as fresh as can be.
func (c *Client) admit(ctx context.Context, cl *call) (attempt, error) {
	var a attempt
	if cl.r.auth {
		return a, nil
	}
	if err := ctx.Err(); err != nil {
		// The limiter may admit at once: nothing more is sent once ctx ended.
		return a, &interruptedError{cl.r.method, cl.path, "before the request was sent", err}
	}
	var err error
	if a.tk, err = cl.lim.wait(ctx, c.log, cl.r.method, cl.path); err != nil {
		return a, &interruptedError{cl.r.method, cl.path, "while waiting for the " + cl.class + " rate limit" + notSent, err}
	}
	if cl.r.anonymous {
		return a, nil
	}
	if a.authz, a.token, err = c.credentials(ctx); err != nil {
		cl.lim.forget(a.tk)
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return a, &interruptedError{cl.r.method, cl.path, "while getting an access token" + notSent, err}
		}
		return a, fmt.Errorf("%s %s: getting an access token: %w", cl.r.method, cl.path, err)
	}
	return a, nil
}

// classify decides whether attempt a calls for another (again), or is the call's result.
func (c *Client) classify(ctx context.Context, cl *call, a attempt, sendErr error) (again bool, err error) {
	if sendErr != nil {
		if !cl.r.auth {
			cl.lim.forget(a.tk)
		}
		return c.onTransportError(ctx, cl, a, sendErr)
	}
	rh := readRateHeaders(a.header)
	if !cl.r.auth {
		cl.lim.observe(a.tk, rh)
	}
	switch {
	case a.status >= 200 && a.status < 300:
		return false, c.decode(cl, a)
	case a.status >= 300 && a.status < 400:
		// The service did not act on the request: a plain failure even for a write.
		e := c.redirectError(cl.r, cl.path, cl.u, a)
		e.Retries = cl.retries
		e.redact(cl.r.secret)
		return false, e
	case a.status == http.StatusUnauthorized && !cl.r.auth && !cl.r.anonymous && c.cfg.AuthScheme == AuthBearer && !cl.replayed:
		cl.replayed = true
		c.tokens.invalidate(a.token)
		c.log.Debug(ctx, logRetry, cl.fields(map[string]any{"reason": "401: replaying once with a new access token"}))
		return true, nil
	case a.status == http.StatusTooManyRequests && !cl.r.auth:
		return c.onRateLimited(ctx, cl, a, rh)
	case a.status == http.StatusNotFound && cl.r.method == http.MethodDelete && cl.reached &&
		!decodeError(cl.r.method, cl.path, a.status, a.body).unknownEndpoint():
		// An earlier attempt may have deleted it.
		return false, nil
	case a.status >= 500:
		return c.onServerError(ctx, cl, a)
	}
	e := c.decodeError(cl.r, cl.path, a)
	e.Retries = cl.retries
	switch {
	case (a.status == http.StatusUnauthorized || a.status == http.StatusForbidden) && !cl.r.anonymous:
		e.Hint = c.unauthorizedHint()
	case e.unknownEndpoint():
		e.Hint = c.unknownEndpointHint(cl.path)
	}
	return false, e
}

// onTransportError: a write that may have been written is ambiguous; anything else is retried.
func (c *Client) onTransportError(ctx context.Context, cl *call, a attempt, err error) (bool, error) {
	if errors.Is(err, ErrSourceChanged) {
		// The body's own reader ended it before its last bytes, so the service has no whole
		// request to have acted on: no ambiguity, and sending it again reads the same changed
		// file.
		return false, err
	}
	if a.wrote && !cl.r.repeatable() {
		return false, &AmbiguousError{Method: cl.r.method, Path: cl.path, Err: err}
	}
	if ctx.Err() != nil {
		during := "while connecting" + notSent
		if a.wrote {
			during = "while the request, which is safe to repeat, was in flight"
		}
		return false, &interruptedError{cl.r.method, cl.path, during, err}
	}
	if cl.retries >= c.cfg.MaxRetries {
		return false, fmt.Errorf("%w (%s)", err, retried(cl.retries))
	}
	cl.reached = cl.reached || a.wrote
	return c.backoff(ctx, cl, err.Error())
}

// onRateLimited closes the class's gate for every caller until the 429's Retry-After.
func (c *Client) onRateLimited(ctx context.Context, cl *call, a attempt, rh rateHeaders) (bool, error) {
	if cl.retries >= c.cfg.MaxRetries {
		e := c.decodeError(cl.r, cl.path, a)
		e.Class, e.Limit, e.Window, e.Retries = cl.class, cl.lim.learnedLimit(), cl.lim.learnedWindow(), cl.retries
		return false, e
	}
	cl.retries++
	d := cl.lim.block(rh.retryAfterOr(c.minRateWait), c.minRateWait)
	c.log.Info(ctx, logRateWait, cl.fields(map[string]any{"duration_ms": d.Milliseconds(), "reason": "429"}))
	return true, nil
}

// onServerError retries a 5xx of a call that is safe to repeat; a write's is ambiguous.
func (c *Client) onServerError(ctx context.Context, cl *call, a attempt) (bool, error) {
	e := c.decodeError(cl.r, cl.path, a)
	e.Retries = cl.retries
	if !cl.r.repeatable() {
		return false, &AmbiguousError{Method: cl.r.method, Path: cl.path, Err: e}
	}
	if a.status == http.StatusNotImplemented || cl.retries >= c.cfg.MaxRetries {
		return false, e
	}
	cl.reached = true
	return c.backoff(ctx, cl, fmt.Sprintf("status %d", a.status))
}

// decode reads a 2xx response into out; a write whose response cannot be read is ambiguous.
func (c *Client) decode(cl *call, a attempt) error {
	if cl.out == nil {
		return nil
	}
	var err error
	empty := len(bytes.TrimSpace(a.body)) == 0
	switch {
	case a.tooLarge:
		err = c.tooLargeError(cl.r, cl.path, a)
	case empty && !cl.r.auth:
		// It would read as a record of empty fields. A token call names the missing token.
		err = c.undecodableError(cl.r, cl.path, a, nil)
	case empty:
	default:
		if jerr := json.Unmarshal(a.body, cl.out); jerr != nil {
			err = c.undecodableError(cl.r, cl.path, a, jerr)
		}
	}
	if err != nil && !cl.r.repeatable() {
		return &AmbiguousError{Method: cl.r.method, Path: cl.path, Err: err}
	}
	return err
}

func (cl *call) fields(extra map[string]any) map[string]any {
	// Room for what send adds, so that the request's log line costs one map.
	f := make(map[string]any, 8+len(extra))
	f["method"], f["path"], f["class"], f["attempt"] = cl.r.method, cl.path, cl.class, cl.n
	if cl.r.auth {
		f["class"] = "auth"
	}
	for k, v := range extra {
		f[k] = v
	}
	return f
}

// decodeError decodes a failed attempt; of a token call it keeps only the type, title and
// status: anything else could echo the key or a token.
func (c *Client) decodeError(r request, path string, a attempt) *Error {
	e := decodeError(r.method, path, a.status, a.body)
	if r.auth {
		e.Body, e.Detail, e.Name, e.Problems, e.Extra = "", "", "", nil, nil
	}
	e.redact(r.secret)
	if at, err := http.ParseTime(a.header.Get("Date")); err == nil {
		e.ServiceTime = at
	}
	return e
}

// unknownEndpointHint names the address that is no endpoint: the base address is the likely
// culprit, since the client builds every path under it itself.
func (c *Client) unknownEndpointHint(path string) string {
	return fmt.Sprintf("%s%s is no endpoint of the API, so the base address %s is wrong (a path after the host, "+
		"such as /v1, is a common cause): set it to the address the API answers at, such as %s or %s",
		c.cfg.BaseURL, path, c.cfg.BaseURL, SandboxURL, ProductionURL)
}

func (c *Client) unauthorizedHint() string {
	return fmt.Sprintf("The service refused the credentials: check that the API key belongs to the %s "+
		"environment (sandbox and production keys differ)", c.cfg.Environment)
}

func (c *Client) send(ctx context.Context, cl *call, a *attempt) error {
	actx, release, touch := c.roundTripContext(ctx, cl)
	defer release()
	var wrote atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		// Called even when the write failed part way, which counts as written.
		WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) },
	})
	req, err := c.newHTTPRequest(actx, cl, a.authz, touch)
	if err != nil {
		return err
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err == nil {
		a.status, a.header = resp.StatusCode, resp.Header
		a.body, a.tooLarge, err = readBody(resp.Body)
		_ = resp.Body.Close()
	}
	a.wrote = wrote.Load()
	if err != nil {
		// A stalled upload, or a call cut at its caller's deadline: the cause says which, where
		// the transport says only that its context was cancelled.
		if cause := context.Cause(actx); errors.Is(cause, errStalled) || errors.Is(cause, context.DeadlineExceeded) {
			err = cause
		}
		err = stripURL(cl.r.method, cl.path, err)
	}
	fields := cl.fields(nil)
	fields["status"], fields["duration_ms"] = a.status, time.Since(start).Milliseconds()
	if a.tooLarge {
		fields["body_bytes_read"] = len(a.body)
		fields["body_truncated"] = true
	}
	if err != nil {
		fields["error"] = err.Error()
	}
	c.log.Debug(ctx, logRequest, fields)
	return err
}

// roundTripContext is bounded by the configured timeout, and ended by the caller's cancellation
// only until the request has a connection: from then on a write may reach the service, and
// abandoning it would orphan what it made, so it finishes. A read changes nothing: it is
// abandoned at any point, so it simply follows the caller's context. An upload's timeout bounds
// a stall, not the whole transfer: every read of its body (touch) restarts it, so that a large
// chunk on a slow link is not cut while it moves.
//
// A write that may be sent again (a delete, a token call, an idempotent write; not an upload,
// whose chunks in flight finish) is cut by the caller's deadline even on its connection: a
// deadline is a bound the caller must keep (the provider has 2 s once Terraform stopped it, the
// cleaner 2 minutes), and such a write is settled by sending it again (a delete found gone
// counts as done). A plain cancellation (Ctrl-C) still lets it finish, since Terraform waits for
// it and the state then records what the service did.
func (c *Client) roundTripContext(ctx context.Context, cl *call) (context.Context, func(), func()) {
	touch := func() {}
	if cl.class == ClassReads {
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		return actx, cancel, touch
	}
	var (
		actx   context.Context
		cancel context.CancelCauseFunc
	)
	if cl.r.stream != nil {
		var stop context.CancelFunc
		actx, touch, stop = stallContext(ctx, context.WithoutCancel(ctx), c.cfg.Timeout)
		cancel = func(error) { stop() }
	} else {
		var stop context.CancelFunc
		actx, stop = context.WithTimeout(context.WithoutCancel(ctx), c.cfg.Timeout)
		actx, cancel = context.WithCancelCause(actx)
		cancel = chainCancel(cancel, stop)
	}
	cutAtDeadline := cl.r.stream == nil && cl.r.repeatable()
	var (
		mu      sync.Mutex
		started bool
	)
	abandon := func() {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case !started:
			cancel(context.Cause(ctx))
		case cutAtDeadline && errors.Is(ctx.Err(), context.DeadlineExceeded):
			cancel(context.Cause(ctx))
		}
	}
	stop := context.AfterFunc(ctx, abandon)
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) {
			mu.Lock()
			defer mu.Unlock()
			if ctx.Err() != nil {
				cancel(context.Cause(ctx))
				return
			}
			started = true
		},
	})
	return actx, func() { stop(); cancel(context.Canceled) }, touch
}

// chainCancel is cancel, then stop: a cause-carrying cancellation over a context with a timer.
func chainCancel(cancel context.CancelCauseFunc, stop context.CancelFunc) context.CancelCauseFunc {
	return func(cause error) {
		cancel(cause)
		stop()
	}
}

func (c *Client) newHTTPRequest(ctx context.Context, cl *call, authz string, touch func()) (*http.Request, error) {
	var body io.Reader
	if cl.payload != nil {
		body = bytes.NewReader(cl.payload)
	}
	if cl.r.stream != nil {
		body = cl.r.stream.open(touch)
	}
	req, err := http.NewRequestWithContext(ctx, cl.r.method, cl.u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: building the request: %w", cl.r.method, cl.path, err)
	}
	for k, v := range cl.r.header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	switch {
	case cl.payload != nil:
		req.Header.Set("Content-Type", "application/json")
	case cl.r.stream != nil:
		// The exact length lets the transport send it as is, and make the body again when it
		// replays a request on a connection that was closed before the body was read.
		req.ContentLength = cl.r.stream.length
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(cl.r.stream.open(touch)), nil }
		req.Header.Set("Content-Type", cl.r.stream.contentType)
	}
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	return req, nil
}

// stripURL drops the address from a transport error: its query may hold a stream key.
func stripURL(method, path string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s %s: %w", method, path, err)
}

// backoff spends a retry and waits: exponential, capped, with jitter over the upper half.
func (c *Client) backoff(ctx context.Context, cl *call, reason string) (bool, error) {
	cl.retries++
	d := c.backoffBase << min(cl.retries-1, 20)
	if d <= 0 || d > c.backoffMax {
		d = c.backoffMax
	}
	d = d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
	c.log.Warn(ctx, logRetry, cl.fields(map[string]any{"wait_ms": d.Milliseconds(), "reason": reason}))
	err := sleep(ctx, d)
	if err == nil {
		return true, nil
	}
	ie := &interruptedError{cl.r.method, cl.path, fmt.Sprintf("while backing off before retry %d", cl.retries) + notSent, err}
	if cl.reached && cl.class == ClassWrites {
		// The retry was not sent, but an earlier attempt may have been applied.
		return false, &AmbiguousError{Method: cl.r.method, Path: cl.path, Err: ie}
	}
	return false, ie
}
