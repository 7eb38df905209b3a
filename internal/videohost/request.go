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
	"sync/atomic"
	"time"
)

// request is one call of the service as do sends it, before credentials and retries.
type request struct {
	method string
	// path is the escaped path under the base address, e.g. /webhooks/abc.
	path  string
	query url.Values
	// link is an absolute address (a next link of a page); it replaces path and query.
	link *url.URL
	body any
	// auth marks a call of /auth/*: it carries no credentials, does not pass through the rate
	// limiter, and may be repeated because it changes nothing the user owns.
	auth bool
	// idempotent marks a write whose body sets absolute values (a PATCH of this client): sent
	// twice, it leaves the object as sent once, so it is retried like a read.
	idempotent bool
}

// class is the rate-limit class of the request: GET reads, everything else writes.
func (r request) class() string {
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

// address is where the request goes.
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

// shownPath is the path of u as logs and errors show it: under the base address and without
// the query, which may hold a filter on a stream key.
func (c *Client) shownPath(u *url.URL) string {
	p := u.EscapedPath()
	if prefix := c.base.EscapedPath(); prefix != "" && strings.HasPrefix(p, prefix+"/") {
		p = strings.TrimPrefix(p, prefix)
	}
	return p
}

// attempt is what one round trip produced.
type attempt struct {
	status int
	header http.Header
	body   []byte
	// wrote is true once the request was written to the connection: from then on, the
	// service may have acted on it.
	wrote bool
	// token is the access token the attempt carried, so that a 401 invalidates that one and
	// no newer one.
	token string
	// tooLarge is set when the answer was longer than maxBody; body holds its first maxBody
	// bytes.
	tooLarge bool
}

// notSent ends the account of an interruption that came before the request was written.
const notSent = ", before the request was sent"

// do sends r, with credentials, through the rate limiter of its class, retrying what is safe
// to retry, and decodes a 2xx answer into out (when not nil) or any other into an *Error.
func (c *Client) do(ctx context.Context, r request, out any) error {
	var payload []byte
	if r.body != nil {
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			return fmt.Errorf("videohost: encoding the body of %s: %w", r.method, err)
		}
	}
	if err := checkPathSegments(r.path); err != nil {
		return fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	u := c.address(r)
	path := c.shownPath(u)
	class := r.class()
	lim := c.limiters[class]

	var (
		retries  int
		replayed bool // a 401 was answered with a new token and one replay
		reached  bool // an earlier attempt may have reached the service
	)
	for n := 1; ; n++ {
		var (
			tk           ticket
			authz, token string
		)
		if !r.auth {
			var err error
			if tk, err = lim.wait(ctx, c.log, r.method, path); err != nil {
				return &interruptedError{r.method, path, "while waiting for the " + class + " rate limit" + notSent, err}
			}
			// Fetched after the wait, so that the token is as fresh as it can be. No retry
			// here: the token source has its own.
			if authz, token, err = c.credentials(ctx); err != nil {
				lim.forget(tk)
				if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
					return &interruptedError{r.method, path, "while getting an access token" + notSent, err}
				}
				return fmt.Errorf("%s %s: getting an access token: %w", r.method, path, err)
			}
		}
		a, err := c.send(ctx, r, u, payload, path, class, n, authz)
		a.token = token
		if err != nil {
			if !r.auth {
				lim.forget(tk)
			}
			if a.wrote && !r.repeatable() {
				return &AmbiguousError{Method: r.method, Path: path, Err: err}
			}
			if ctx.Err() != nil {
				during := "while connecting" + notSent
				if a.wrote {
					during = "while the request, which is safe to repeat, was in flight"
				}
				return &interruptedError{r.method, path, during, err}
			}
			if retries >= c.cfg.MaxRetries {
				return fmt.Errorf("%w (%s)", err, retried(retries))
			}
			reached = reached || a.wrote
			retries++
			if err := c.backoff(ctx, r, path, class, n, retries, err.Error()); err != nil {
				return err
			}
			continue
		}
		rh := readRateHeaders(a.header)
		if !r.auth {
			lim.observe(tk, rh)
		}

		switch {
		case a.status >= 200 && a.status < 300:
			if out == nil {
				return nil
			}
			var err error
			empty := len(bytes.TrimSpace(a.body)) == 0
			switch {
			case a.tooLarge:
				err = c.tooLargeError(r, path, a)
			case empty && !r.auth:
				// Every call that decodes an answer expects a document; an empty one would
				// read as a record whose fields are all empty. A token call has its own check,
				// which names the missing access_token.
				err = c.undecodableError(r, path, a, nil)
			case empty:
			default:
				if jerr := json.Unmarshal(a.body, out); jerr != nil {
					err = c.undecodableError(r, path, a, jerr)
				}
			}
			if err != nil {
				if !r.repeatable() {
					// The write took effect, but what it made is unknown.
					return &AmbiguousError{Method: r.method, Path: path, Err: err}
				}
				return err
			}
			return nil

		case a.status >= 300 && a.status < 400:
			// Redirects are not followed (see noRedirects); the service did not act on the
			// request, so this is a plain failure even for a write, and not retried.
			e := c.redirectError(r, path, u, a)
			e.Retries = retries
			return e

		case a.status == http.StatusUnauthorized && !r.auth && c.cfg.AuthScheme == AuthBearer && !replayed:
			// The token may have expired early or been revoked: one new token, one replay.
			replayed = true
			c.tokens.invalidate(a.token)
			c.log.Debug(ctx, logRetry, map[string]any{
				"method": r.method, "path": path, "class": class, "attempt": n,
				"reason": "401: replaying once with a new access token",
			})
			continue

		case a.status == http.StatusTooManyRequests && !r.auth:
			if retries >= c.cfg.MaxRetries {
				e := c.decodeError(r, path, a)
				e.Class, e.Limit, e.Retries = class, lim.learnedLimit(), retries
				return e
			}
			retries++
			d := lim.block(rh.retryAfterOr(c.minRateWait), c.minRateWait)
			c.log.Info(ctx, logRateWait, map[string]any{
				"method": r.method, "path": path, "class": class, "attempt": n,
				"duration_ms": d.Milliseconds(), "reason": "429",
			})
			continue

		case a.status == http.StatusNotFound && r.method == http.MethodDelete && reached:
			// An earlier attempt may have deleted it: the goal is reached.
			return nil

		case a.status >= 500:
			e := c.decodeError(r, path, a)
			e.Retries = retries
			if !r.repeatable() {
				return &AmbiguousError{Method: r.method, Path: path, Err: e}
			}
			if a.status == http.StatusNotImplemented || retries >= c.cfg.MaxRetries {
				return e
			}
			reached = true
			retries++
			if err := c.backoff(ctx, r, path, class, n, retries, fmt.Sprintf("status %d", a.status)); err != nil {
				return err
			}
			continue

		default:
			e := c.decodeError(r, path, a)
			e.Retries = retries
			if a.status == http.StatusUnauthorized || a.status == http.StatusForbidden {
				e.Hint = c.unauthorizedHint()
			}
			return e
		}
	}
}

// decodeError decodes a failed attempt; the body of an /auth/* answer is never kept, since
// it is the one place a token could be echoed.
func (c *Client) decodeError(r request, path string, a attempt) *Error {
	e := decodeError(r.method, path, a.status, a.body)
	if r.auth {
		// Only the error object's type, title and status are kept: anything else (a detail, a
		// name, the problems, an unknown member, a cut of the body) could echo the key or a token.
		e.Body, e.Detail, e.Name, e.Problems, e.Extra = "", "", "", nil, nil
	}
	return e
}

// unauthorizedHint is what a 401 asks the user to check.
func (c *Client) unauthorizedHint() string {
	return fmt.Sprintf("The service refused the credentials: check that the API key belongs to the %s "+
		"environment (sandbox and production keys differ)", c.cfg.Environment)
}

// send makes one round trip with the Authorization header authz (none when empty), bounded by
// the configured timeout, and logs it.
func (c *Client) send(ctx context.Context, r request, u *url.URL, payload []byte, path, class string, n int, authz string) (attempt, error) {
	var a attempt
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var wrote atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		// Called even when the write failed part way: the service may have seen a prefix, and
		// a later byte may still arrive, so a failed write counts as written.
		WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) },
	})
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(actx, r.method, u.String(), body)
	if err != nil {
		return a, fmt.Errorf("%s %s: building the request: %w", r.method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}

	start := time.Now()
	resp, err := c.http.Do(req)
	if err == nil {
		a.status, a.header = resp.StatusCode, resp.Header
		a.body, a.tooLarge, err = readBody(resp.Body)
		_ = resp.Body.Close()
	}
	a.wrote = wrote.Load()
	fields := map[string]any{
		"method": r.method, "path": path, "status": a.status, "attempt": n, "class": class,
		"duration_ms": time.Since(start).Milliseconds(),
	}
	if r.auth {
		fields["class"] = "auth"
	}
	if a.tooLarge {
		fields["body_bytes_read"] = len(a.body)
		fields["body_truncated"] = true
	}
	if err != nil {
		err = stripURL(r.method, path, err)
		fields["error"] = err.Error()
	}
	c.log.Debug(ctx, logRequest, fields)
	return a, err
}

// stripURL drops the address from a transport error: it repeats the query, which may hold a
// stream key, and the method and path say enough.
func stripURL(method, path string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s %s: %w", method, path, err)
}

// backoff waits before retry number retries of a fault: exponential from backoffBase, capped
// at backoffMax, with jitter over the upper half so that retrying callers spread out.
func (c *Client) backoff(ctx context.Context, r request, path, class string, n, retries int, reason string) error {
	d := c.backoffBase << min(retries-1, 20)
	if d <= 0 || d > c.backoffMax {
		d = c.backoffMax
	}
	d = d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
	c.log.Warn(ctx, logRetry, map[string]any{
		"method": r.method, "path": path, "class": class, "attempt": n,
		"wait_ms": d.Milliseconds(), "reason": reason,
	})
	if err := sleep(ctx, d); err != nil {
		return &interruptedError{r.method, path, fmt.Sprintf("while backing off before retry %d", retries) + notSent, err}
	}
	return nil
}
