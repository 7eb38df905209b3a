package videohost

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

const (
	pathAPIKey  = "/auth/api-key"
	pathRefresh = "/auth/refresh"
)

// refreshMarginMax caps how long before expiry a token is refreshed; below it the margin is a
// tenth of the token's lifetime.
const refreshMarginMax = 60 * time.Second

// defaultTokenLifetime is the specification's, for a response that does not say.
const defaultTokenLifetime = 3600 * time.Second

// Token is an access token of the bearer scheme.
type Token struct {
	AccessToken string
	ExpiresAt   time.Time
}

// AccessToken returns a valid access token from the client's shared token source (fetching
// one with the API key when needed, also under the basic scheme).
func (c *Client) AccessToken(ctx context.Context) (Token, error) {
	p, err := c.tokens.token(ctx)
	if err != nil {
		return Token{}, err
	}
	return Token{AccessToken: p.access, ExpiresAt: p.expiresAt}, nil
}

// credentials returns the Authorization header of the next attempt, and the token in it.
func (c *Client) credentials(ctx context.Context) (header, token string, err error) {
	if c.cfg.AuthScheme == AuthBasic {
		return c.basicAuth, "", nil
	}
	p, err := c.tokens.token(ctx)
	if err != nil {
		return "", "", err
	}
	return "Bearer " + p.access, p.access, nil
}

// tokenPair is what one token call returned.
type tokenPair struct {
	access, refresh string
	expiresAt       time.Time
	refreshAt       time.Time
	revoked         bool
}

// tokenSource holds the one token pair of a client: one caller fetches or refreshes it, the
// others wait for that result.
type tokenSource struct {
	c *Client
	// now is the clock of the tokens' lifetimes; tests set one they control.
	now func() time.Time

	mu   sync.Mutex
	pair *tokenPair

	group singleflight.Group
}

// tokenResponse is the response of the token calls. token_type is unused but decoded, so that
// a response whose members have the wrong types is refused as a whole.
type tokenResponse struct {
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

func (ts *tokenSource) current() (tokenPair, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.pair == nil || ts.pair.revoked || !ts.now().Before(ts.pair.refreshAt) {
		return tokenPair{}, false
	}
	return *ts.pair, true
}

// token returns a fresh pair, fetching or refreshing it once for all concurrent callers. The
// fetch runs detached from the first caller's context, so that one caller giving up does not
// fail the others; each caller still stops waiting when its own context ends.
func (ts *tokenSource) token(ctx context.Context) (tokenPair, error) {
	if p, ok := ts.current(); ok {
		return p, nil
	}
	ch := ts.group.DoChan("token", func() (any, error) {
		if p, ok := ts.current(); ok {
			return p, nil
		}
		return ts.fetch(context.WithoutCancel(ctx))
	})
	select {
	case <-ctx.Done():
		return tokenPair{}, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return tokenPair{}, res.Err
		}
		p, ok := res.Val.(tokenPair)
		if !ok {
			return tokenPair{}, fmt.Errorf("videohost: token source returned %T", res.Val)
		}
		return p, nil
	}
}

// invalidate marks access as refused, so that the next caller refreshes; a newer pair is left
// alone.
func (ts *tokenSource) invalidate(access string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.pair != nil && ts.pair.access == access {
		ts.pair.revoked = true
	}
}

// fetch refreshes the held pair, or gets a new one with the API key.
func (ts *tokenSource) fetch(ctx context.Context) (tokenPair, error) {
	ts.mu.Lock()
	var old *tokenPair
	if ts.pair != nil {
		cp := *ts.pair
		old = &cp
	}
	ts.mu.Unlock()

	if old != nil && old.refresh != "" {
		p, err := ts.call(ctx, pathRefresh, map[string]string{"refreshToken": old.refresh}, "refreshed")
		if err == nil {
			return p, nil
		}
		var e *Error
		if !errors.As(err, &e) && !old.revoked && ts.now().Before(old.expiresAt) {
			// No response; the held token still works for a while.
			return *old, nil
		}
		ts.c.log.Warn(ctx, logToken, map[string]any{
			"event": "refresh failed; getting a new token with the API key", "error": err.Error(),
		})
	}
	p, err := ts.call(ctx, pathAPIKey, map[string]string{"apiKey": ts.c.cfg.APIKey}, "fetched")
	if err != nil {
		var e *Error
		if errors.As(err, &e) && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden) {
			e.Hint = fmt.Sprintf("The service refused the API key: check that it is a key of the %s "+
				"environment (sandbox and production keys differ)", ts.c.cfg.Environment)
		}
		return tokenPair{}, err
	}
	return p, nil
}

func (ts *tokenSource) call(ctx context.Context, path string, body any, event string) (tokenPair, error) {
	start := ts.now()
	var tr tokenResponse
	err := ts.c.do(ctx, request{method: http.MethodPost, path: path, body: body, auth: true}, &tr)
	if err != nil {
		return tokenPair{}, err
	}
	if tr.AccessToken == "" {
		return tokenPair{}, fmt.Errorf("POST %s: the response carries no access_token", path)
	}
	lifetime := defaultTokenLifetime
	if tr.ExpiresIn > 0 {
		// Capped at what a Duration holds: a longer one would wrap around.
		lifetime = time.Duration(min(int64(tr.ExpiresIn), math.MaxInt64/int64(time.Second))) * time.Second
	}
	// Counted from before the call, so that the margin covers the response's delay.
	p := tokenPair{
		access:    tr.AccessToken,
		refresh:   tr.RefreshToken,
		expiresAt: start.Add(lifetime),
		refreshAt: start.Add(lifetime - min(lifetime/10, refreshMarginMax)),
	}
	ts.mu.Lock()
	ts.pair = &p
	ts.mu.Unlock()
	ts.c.log.Debug(ctx, logToken, map[string]any{"event": event, "expires_in_s": int(lifetime.Seconds())})
	return p, nil
}
